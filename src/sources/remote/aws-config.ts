// Where S3 settings come from, the way the AWS CLI and SDKs read them: AWS_PROFILE (else env keys,
// else the "default" profile) in ~/.aws/credentials and ~/.aws/config, AWS_REGION, and an endpoint
// override for S3-compatible stores. Secrets never appear in a message: sources are named instead.
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SimgrepError } from '../../errors.js';
import type { AwsCredentials } from './sigv4.js';

export interface S3Settings {
  region: string;
  /** A custom endpoint (path-style requests), or undefined for AWS itself. */
  endpoint?: URL;
  credentials: AwsCredentials | null;
  /** Where the credentials came from, for messages ("AWS_ACCESS_KEY_ID", 'profile "dev" in ~/.aws/credentials'). */
  credentialSource: string;
  /** Where a user fixes them. */
  credentialHint: string;
}

type Env = Record<string, string | undefined>;
type Ini = Record<string, Record<string, string>>;

const UNSUPPORTED_PROFILE_KEYS = ['role_arn', 'sso_session', 'sso_start_url', 'credential_process', 'web_identity_token_file', 'credential_source'];

export async function resolveS3Settings(rawEnv: Env, o: { s3Endpoint?: string }): Promise<S3Settings> {
  const env = nonEmpty(rawEnv);
  const home = env.HOME ?? env.USERPROFILE ?? os.homedir();
  const credFile = env.AWS_SHARED_CREDENTIALS_FILE ?? path.join(home, '.aws', 'credentials');
  const configFile = env.AWS_CONFIG_FILE ?? path.join(home, '.aws', 'config');
  const profileName = env.AWS_PROFILE ?? env.AWS_DEFAULT_PROFILE;
  const profile = profileName ?? 'default';
  const [creds, config] = await Promise.all([readIni(credFile), readIni(configFile)]);
  const fromCreds = creds[profile];
  const fromConfig = config[profile === 'default' ? 'default' : `profile ${profile}`] ?? config[profile];
  const merged = { ...fromConfig, ...fromCreds };
  const region = env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? merged.region ?? 'us-east-1';
  const endpoint = parseEndpoint(o.s3Endpoint ?? env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL ?? merged.endpoint_url);
  const shownCredFile = tildify(credFile, home);
  const settings = { region, endpoint };

  // Like the AWS SDK: an explicit profile wins over the env keys; otherwise env keys, then "default".
  if (!profileName && env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY) {
    return {
      ...settings,
      credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY, sessionToken: env.AWS_SESSION_TOKEN || undefined },
      credentialSource: 'AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY',
      credentialHint: 'check AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN for temporary keys)',
    };
  }
  const where = `profile "${profile}" in ${shownCredFile}`;
  if (merged.aws_access_key_id && merged.aws_secret_access_key) {
    return {
      ...settings,
      credentials: { accessKeyId: merged.aws_access_key_id, secretAccessKey: merged.aws_secret_access_key, sessionToken: merged.aws_session_token || undefined },
      credentialSource: where,
      credentialHint: `check aws_access_key_id and aws_secret_access_key in ${where}`,
    };
  }
  const unsupported = UNSUPPORTED_PROFILE_KEYS.find((k) => merged[k] !== undefined);
  if (unsupported) {
    throw new SimgrepError('REMOTE_CREDENTIALS',
      `profile "${profile}" gets its credentials through ${unsupported}, which simgrep does not run; export temporary keys first, e.g. eval "$(aws configure export-credentials --profile ${profile} --format env)"`);
  }
  if (profileName) {
    throw new SimgrepError('REMOTE_CREDENTIALS',
      `AWS_PROFILE=${profileName} but ${where} (or in ${tildify(configFile, home)}) has no aws_access_key_id and aws_secret_access_key; add them, or fix AWS_PROFILE`);
  }
  throw new SimgrepError('REMOTE_CREDENTIALS',
    `no AWS credentials found: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE naming a profile in ${shownCredFile}`);
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

/** INI as the AWS files use it: [section] headers, key = value lines, # and ; comments. */
export function parseIni(text: string): Ini {
  const out: Ini = {};
  let section: Record<string, string> | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*([^\]]+?)\s*\]$/.exec(line);
    if (header) { section = out[header[1]] ??= {}; continue; }
    const eq = line.indexOf('=');
    if (section && eq > 0) section[line.slice(0, eq).trim().toLowerCase()] = line.slice(eq + 1).trim();
  }
  return out;
}

async function readIni(file: string): Promise<Ini> {
  try { return parseIni(await readFile(file, 'utf8')); } catch { return {}; }
}

function tildify(p: string, home: string): string {
  return p.startsWith(home + path.sep) ? `~${p.slice(home.length)}` : p;
}
