// Where S3 settings come from: credentials from the AWS SDK's default Node chain (env keys, profiles
// with static keys, role_arn, credential_process, SSO, web identity; ECS/EKS container and EC2
// instance credentials), the profile's region and endpoint_url as the SDK's own file loader reads
// them, AWS_REGION, and an endpoint override for S3-compatible stores. The SDK is imported only here,
// when an s3:// URI is searched. Secrets never appear in a message: their source is named instead.
import os from 'node:os';
import path from 'node:path';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';
import { SimgrepError } from '../../errors.js';

export interface S3Settings {
  region: string;
  /** A custom endpoint (path-style requests), or undefined for AWS itself. */
  endpoint?: URL;
  /** The SDK's chain, resolved once already (it caches, and refreshes temporary credentials). */
  credentials: AwsCredentialIdentityProvider;
  /** Where the credentials came from, for messages ("AWS_ACCESS_KEY_ID", 'credential_process of profile "ci" in ~/.aws/config'). */
  credentialSource: string;
  /** Where a user fixes them. */
  credentialHint: string;
}

type Env = Record<string, string | undefined>;
/** Credentials as the SDK's providers return them: marked with the features that produced them. */
type AttributedAwsCredentialIdentity = AwsCredentialIdentity & { $source?: Record<string, string> };

export async function resolveS3Settings(rawEnv: Env, o: { s3Endpoint?: string }): Promise<S3Settings> {
  const env = nonEmpty(rawEnv);
  const home = env.HOME ?? env.USERPROFILE ?? os.homedir();
  const files = {
    profile: env.AWS_PROFILE,
    filepath: env.AWS_SHARED_CREDENTIALS_FILE ?? path.join(home, '.aws', 'credentials'),
    configFilepath: env.AWS_CONFIG_FILE ?? path.join(home, '.aws', 'config'),
  };
  const [{ parseKnownFiles }, { fromNodeProviderChain }] = await Promise.all([import('@smithy/core/config'), import('@aws-sdk/credential-providers')]);
  const profileName = env.AWS_PROFILE ?? 'default';
  const profile = (await parseKnownFiles({ ...files, ignoreCache: true }).catch(() => ({})) as Record<string, Record<string, string | undefined>>)[profileName] ?? {};
  const region = env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? profile.region ?? 'us-east-1';
  const endpoint = parseEndpoint(o.s3Endpoint ?? env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL ?? profile.endpoint_url);
  const where = `profile "${profileName}" in ${tildify(files.filepath, home)} or ${tildify(files.configFilepath, home)}`;
  const trail = providerTrail();
  const credentials = fromNodeProviderChain({ ...files, clientConfig: { region }, logger: trail.logger });
  let resolved: AttributedAwsCredentialIdentity;
  try {
    resolved = await credentials();
  } catch (e) {
    // What the profile's provider said, when the profile exists: its failure, not the chain's summary.
    const profileExists = Object.keys(profile).length > 0;
    throw noCredentials(e, { profileExists, profileReason: profileExists ? trail.reasonOf('defaultProvider::fromIni') : undefined }, env, where);
  }
  return { region, endpoint, credentials, ...describeSource(resolved, env, where) };
}

/** Names the provider of the chain that answered, from the feature marks the SDK puts on credentials. */
function describeSource(creds: AttributedAwsCredentialIdentity, env: Env, where: string): { credentialSource: string; credentialHint: string } {
  const has = (...features: string[]) => features.some((f) => creds.$source?.[f] !== undefined);
  const say = (credentialSource: string, credentialHint: string) => ({ credentialSource, credentialHint });
  if (has('CREDENTIALS_ENV_VARS_STS_WEB_ID_TOKEN')) {
    return say('the web identity token in AWS_WEB_IDENTITY_TOKEN_FILE for AWS_ROLE_ARN', 'check that the role in AWS_ROLE_ARN trusts the token\'s issuer and may read the bucket');
  }
  if (has('CREDENTIALS_PROFILE_STS_WEB_ID_TOKEN')) return say(`web_identity_token_file of ${where}`, `check role_arn and web_identity_token_file of ${where}`);
  if (has('CREDENTIALS_PROFILE_SSO', 'CREDENTIALS_PROFILE_SSO_LEGACY', 'CREDENTIALS_SSO', 'CREDENTIALS_SSO_LEGACY')) {
    return say(`SSO of ${where}`, `sign in again (aws sso login${env.AWS_PROFILE ? ` --profile ${env.AWS_PROFILE}` : ''}) and check the role's permissions`);
  }
  if (has('CREDENTIALS_PROFILE_SOURCE_PROFILE', 'CREDENTIALS_STS_ASSUME_ROLE')) {
    return say(`role_arn of ${where} (assumed through STS)`, `check role_arn and source_profile (or credential_source) of ${where}, and that the role may read the bucket`);
  }
  if (has('CREDENTIALS_PROFILE_PROCESS', 'CREDENTIALS_PROCESS')) {
    return say(`credential_process of ${where}`, `check that the credential_process command of ${where} prints the keys of an identity that may read the bucket`);
  }
  if (has('CREDENTIALS_PROFILE_LOGIN', 'CREDENTIALS_LOGIN')) return say(`the aws login session of ${where}`, 'sign in again (aws login)');
  if (has('CREDENTIALS_PROFILE')) return say(where, `check aws_access_key_id and aws_secret_access_key in ${where}`);
  if (has('CREDENTIALS_ENV_VARS')) {
    return say('AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY', 'check AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN for temporary keys)');
  }
  // The SDK marks neither container nor instance-metadata credentials; its chain asks the container
  // endpoint when one of these variables is set, and instance metadata otherwise.
  if (has('CREDENTIALS_HTTP') || process.env.AWS_CONTAINER_CREDENTIALS_FULL_URI || process.env.AWS_CONTAINER_CREDENTIALS_RELATIVE_URI) {
    return say('the container credentials endpoint (AWS_CONTAINER_CREDENTIALS_FULL_URI / _RELATIVE_URI)', 'check the task role (ECS) or pod identity association (EKS) and its permissions');
  }
  return say('EC2 instance metadata (the instance profile\'s role)', 'check the IAM role attached to the instance and its permissions');
}

/** The chain's failure as one message: what was tried, or which source broke and why (never a value). */
function noCredentials(e: unknown, { profileExists, profileReason }: { profileExists: boolean; profileReason?: string }, env: Env, where: string): SimgrepError {
  const message = (e as Error)?.message ?? String(e);
  // The chain's own words when every provider passed (none applied); anything else is one that broke.
  const failed = /Could not load credentials from any providers/i.test(message) ? profileReason : message;
  const reason = failed ? ` (${firstLine(failed)})` : '';
  if (env.AWS_PROFILE && !profileExists) {
    return new SimgrepError('REMOTE_CREDENTIALS', `AWS_PROFILE=${env.AWS_PROFILE} but there is no such profile in ${where.replace(/^profile "[^"]*" in /, '')}; add it, or fix AWS_PROFILE`, { cause: e });
  }
  if (env.AWS_PROFILE) {
    return new SimgrepError('REMOTE_CREDENTIALS', `AWS_PROFILE=${env.AWS_PROFILE} but ${where} gives no credentials${reason}; give it aws_access_key_id and aws_secret_access_key, role_arn and source_profile, credential_process or SSO settings, or fix AWS_PROFILE`, { cause: e });
  }
  if (reason) {
    return new SimgrepError('REMOTE_CREDENTIALS', `the AWS credentials could not be loaded${reason}; fix ${where}, or set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY`, { cause: e });
  }
  return new SimgrepError('REMOTE_CREDENTIALS', `no AWS credentials found (tried AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, ${where}, web identity, container and EC2 instance credentials): set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE naming a profile in ~/.aws/credentials or ~/.aws/config`, { cause: e });
}

/**
 * The chain says only "Could not load credentials from any providers" when every provider passed; why
 * each passed goes to its logger at debug level. This keeps those lines, to tell a profile that broke
 * (a credential_process that failed, a role that could not be assumed) from one that is not there.
 */
function providerTrail() {
  const lines: string[] = [];
  const keep = (...a: unknown[]) => { lines.push(a.map(String).join(' ')); };
  const logger = { debug: keep, info: keep, warn: () => {}, error: () => {}, trace: () => {} };
  return {
    logger,
    /** The first failure logged after the chain entered `step`, before it moved on to the next provider. */
    reasonOf(step: string): string | undefined {
      const at = lines.findIndex((l) => l.includes(step));
      if (at < 0) return undefined;
      for (const l of lines.slice(at + 1)) {
        if (l.includes('defaultProvider::')) return undefined;
        const m = /^@smithy\/property-provider (?:->|\(!\)) ([\s\S]+)$/.exec(l);
        if (m) return m[1].trim();
      }
      return undefined;
    },
  };
}

function firstLine(s: string): string {
  const line = s.split('\n')[0].trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** An empty variable counts as unset, as in the AWS CLI. */
function nonEmpty(env: Env): Env {
  return Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
}

function parseEndpoint(raw: string | undefined): URL | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  let url: URL;
  try { url = new URL(raw.includes('://') ? raw : `https://${raw}`); } catch {
    throw new SimgrepError('BAD_FLAG', `the S3 endpoint "${raw}" is not a URL; write e.g. --s3-endpoint http://127.0.0.1:9000`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SimgrepError('BAD_FLAG', `the S3 endpoint must be http:// or https:// (got ${url.protocol}//)`);
  }
  if (url.username || url.password) {
    throw new SimgrepError('BAD_FLAG', 'the S3 endpoint must not carry credentials; use AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY or a profile');
  }
  return url;
}

function tildify(p: string, home: string): string {
  return p.startsWith(home + path.sep) ? `~${p.slice(home.length)}` : p;
}
