// The AWS SDK's default credential chain, for real on 127.0.0.1: each provider (env keys, a
// credential_process profile, role_arn + source_profile through STS, EC2 instance metadata with
// IMDSv2, an ECS container endpoint) hands simgrep keys, and a bucket that verifies every SigV4
// signature only answers requests signed with those keys. A wrong secret from the same provider is
// refused by that bucket, and the message names the provider and how to fix it, never the secret.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runCli } from '../../helpers/cli.js';
import { containerCredentials, instanceMetadata, securityTokenService, signatureCheckingS3, type FakeEndpoint, type Identity } from '../../helpers/fake-aws.js';
import { remoteFixture, type RemoteFixture } from '../../helpers/remote-fixture.js';

const BUCKET = 'signed';
const OBJECTS = { 'docs/net.md': 'intro\nwe retry the failed upload after a network timeout\n', 'docs/ui.md': 'render the button\n' };
/** The only identity the bucket accepts (temporary keys, as roles and instances get them). */
const READER: Identity = { accessKeyId: 'ASIAREADER', secretAccessKey: 'reader-secret-must-never-print', sessionToken: 'reader-session-token' };
const WRONG_SECRET = 'wrong-secret-must-never-print';
const WRONG: Identity = { ...READER, secretAccessKey: WRONG_SECRET };
const HIT = `s3://${BUCKET}/docs/net.md:1::2 `;

let fx: RemoteFixture;
let s3: FakeEndpoint;
const stops: (() => Promise<void>)[] = [];

beforeAll(async () => {
  [fx, s3] = await Promise.all([remoteFixture(), signatureCheckingS3(BUCKET, OBJECTS, READER)]);
  await mkdir(path.join(fx.home, 'docs'));
  await writeFile(path.join(fx.home, 'docs', 'net.md'), OBJECTS['docs/net.md']);
  stops.push(s3.close);
});
afterAll(async () => { await Promise.all([...stops.map((s) => s()), fx?.cleanup()]); });

/** Every AWS variable cleared (HOME without ~/.aws, instance metadata off), then the test's own. */
const search = (env: Record<string, string>) => runCli(['retry failed upload', `s3://${BUCKET}/docs/`, '--s3-endpoint', s3.origin, '--model', fx.model, '--mode', 'line', '-n', '0', '--top-k', '1'], {
  cwd: fx.home,
  env: {
    HOME: fx.home, AWS_PROFILE: '', AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '', AWS_SESSION_TOKEN: '', AWS_REGION: 'us-east-1',
    AWS_ENDPOINT_URL: '', AWS_ENDPOINT_URL_S3: '', AWS_CONFIG_FILE: '', AWS_SHARED_CREDENTIALS_FILE: '', AWS_EC2_METADATA_DISABLED: 'true',
    AWS_CONTAINER_CREDENTIALS_FULL_URI: '', AWS_CONTAINER_CREDENTIALS_RELATIVE_URI: '', AWS_CONTAINER_AUTHORIZATION_TOKEN: '', AWS_WEB_IDENTITY_TOKEN_FILE: '', AWS_ROLE_ARN: '',
    SIMGREP_REMOTE_TIMEOUT_MS: '5000', SIMGREP_REMOTE_RETRIES: '0', ...env,
  },
});

/** Asserts a refused search: exit 2, one line naming the provider, no secret anywhere. */
function expectRefused(r: { stdout: string; stderr: string; code: number | null }, source: string, hint: string) {
  expect(r.stderr).toBe(`simgrep: s3://${BUCKET}/docs/: the secret key does not match the access key (SignatureDoesNotMatch), credentials from ${source}; ${hint}\n`);
  expect(r.stdout + r.stderr).not.toContain(WRONG_SECRET);
  expect(r.code).toBe(2);
}

async function writeAwsFile(name: 'config' | 'credentials', text: string): Promise<void> {
  await mkdir(path.join(fx.home, '.aws'), { recursive: true });
  await writeFile(path.join(fx.home, '.aws', name), text);
}

describe('AWS credentials through the SDK chain, checked by a signature-verifying bucket', () => {
  it('env keys: signed with them; a wrong secret is refused', async () => {
    const env = { AWS_ACCESS_KEY_ID: READER.accessKeyId, AWS_SESSION_TOKEN: READER.sessionToken! };
    const ok = await search({ ...env, AWS_SECRET_ACCESS_KEY: READER.secretAccessKey });
    expect([ok.stderr, ok.code]).toEqual(['', 0]);
    expect(ok.stdout.startsWith(HIT)).toBe(true);
    expectRefused(await search({ ...env, AWS_SECRET_ACCESS_KEY: WRONG_SECRET }), 'AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY', 'check AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN for temporary keys)');
  });

  it('credential_process: the profile\'s command prints the keys', async () => {
    const script = path.join(fx.home, 'creds.cjs');
    await writeFile(script, `const [id, secret, token] = process.argv.slice(2);\nprocess.stdout.write(JSON.stringify({ Version: 1, AccessKeyId: id, SecretAccessKey: secret, SessionToken: token, Expiration: new Date(Date.now() + 3600e3).toISOString() }));\n`);
    const cmd = (secret: string) => `"${process.execPath}" "${script}" ${READER.accessKeyId} ${secret} ${READER.sessionToken}`;
    await writeAwsFile('config', `[profile ci]\ncredential_process = ${cmd(READER.secretAccessKey)}\n\n[profile ci-wrong]\ncredential_process = ${cmd(WRONG_SECRET)}\n`);
    const ok = await search({ AWS_PROFILE: 'ci' });
    expect([ok.stderr, ok.code]).toEqual(['', 0]);
    expect(ok.stdout.startsWith(HIT)).toBe(true);
    const where = 'profile "ci-wrong" in ~/.aws/credentials or ~/.aws/config';
    expectRefused(await search({ AWS_PROFILE: 'ci-wrong' }), `credential_process of ${where}`, `check that the credential_process command of ${where} prints the keys of an identity that may read the bucket`);
  });

  it('role_arn + source_profile: the role is assumed through STS with the source profile\'s keys', async () => {
    const source: Identity = { accessKeyId: 'AKIASOURCE', secretAccessKey: 'source-secret' };
    const sts = await securityTokenService(source, READER);
    const wrongSts = await securityTokenService(source, WRONG);
    stops.push(sts.close, wrongSts.close);
    await writeAwsFile('credentials', `[base]\naws_access_key_id = ${source.accessKeyId}\naws_secret_access_key = ${source.secretAccessKey}\n`);
    await writeAwsFile('config', '[profile reader]\nrole_arn = arn:aws:iam::123456789012:role/reader\nsource_profile = base\nregion = us-east-1\n');
    const ok = await search({ AWS_PROFILE: 'reader', AWS_ENDPOINT_URL_STS: sts.origin });
    expect([ok.stderr, ok.code]).toEqual(['', 0]);
    expect(ok.stdout.startsWith(HIT)).toBe(true);
    expect(sts.requests).toEqual(['POST /']);
    const where = 'profile "reader" in ~/.aws/credentials or ~/.aws/config';
    expectRefused(await search({ AWS_PROFILE: 'reader', AWS_ENDPOINT_URL_STS: wrongSts.origin }), `role_arn of ${where} (assumed through STS)`,
      `check role_arn and source_profile (or credential_source) of ${where}, and that the role may read the bucket`);
  });

  it('EC2 instance metadata: IMDSv2 token, then the role\'s keys', async () => {
    const [imds, wrongImds] = await Promise.all([instanceMetadata(READER), instanceMetadata(WRONG)]);
    stops.push(imds.close, wrongImds.close);
    const ok = await search({ AWS_EC2_METADATA_DISABLED: 'false', AWS_EC2_METADATA_SERVICE_ENDPOINT: imds.origin });
    expect([ok.stderr, ok.code]).toEqual(['', 0]);
    expect(ok.stdout.startsWith(HIT)).toBe(true);
    expect(imds.requests.slice(0, 3)).toEqual(['PUT /latest/api/token', 'GET /latest/meta-data/iam/security-credentials/', 'GET /latest/meta-data/iam/security-credentials/simgrep-reader']);
    expectRefused(await search({ AWS_EC2_METADATA_DISABLED: 'false', AWS_EC2_METADATA_SERVICE_ENDPOINT: wrongImds.origin }),
      'EC2 instance metadata (the instance profile\'s role)', 'check the IAM role attached to the instance and its permissions');
  });

  it('ECS container credentials: AWS_CONTAINER_CREDENTIALS_FULL_URI with its authorization token', async () => {
    const [ecs, wrongEcs] = await Promise.all([containerCredentials(READER, 'task-token'), containerCredentials(WRONG, 'task-token')]);
    stops.push(ecs.close, wrongEcs.close);
    const ok = await search({ AWS_CONTAINER_CREDENTIALS_FULL_URI: `${ecs.origin}/creds`, AWS_CONTAINER_AUTHORIZATION_TOKEN: 'task-token' });
    expect([ok.stderr, ok.code]).toEqual(['', 0]);
    expect(ok.stdout.startsWith(HIT)).toBe(true);
    expect(ecs.requests).toEqual(['GET /creds']);
    expectRefused(await search({ AWS_CONTAINER_CREDENTIALS_FULL_URI: `${wrongEcs.origin}/creds`, AWS_CONTAINER_AUTHORIZATION_TOKEN: 'task-token' }),
      'the container credentials endpoint (AWS_CONTAINER_CREDENTIALS_FULL_URI / _RELATIVE_URI)', 'check the task role (ECS) or pod identity association (EKS) and its permissions');
  });

  it('a credential_process that takes its time does not hold back --timeout: the local results are printed at the deadline', async () => {
    await writeAwsFile('config', '[profile slow]\ncredential_process = sleep 4\n');
    const started = Date.now();
    let printedAt = 0;
    const r = await runCli(['retry failed upload', `s3://${BUCKET}/docs/`, 'docs', '--s3-endpoint', s3.origin, '--model', fx.model, '--mode', 'line', '-n', '0', '--timeout', '1', '--jsonl'], {
      cwd: fx.home, env: { HOME: fx.home, AWS_PROFILE: 'slow', AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '', AWS_EC2_METADATA_DISABLED: 'true' },
      onStdout: () => { printedAt ||= Date.now() - started; },
    });
    expect(r.stdout.trim().split('\n').map((l) => JSON.parse(l).filename)).toEqual(['docs/net.md']);
    expect(r.stderr).toBe('simgrep: stopped after the --timeout of 1 s: the results found so far are shown\n');
    // Before, the results waited for the chain: two runs of the process (fromIni's, then fromProcess's), 8 s.
    expect(printedAt).toBeLessThan(5_000);
  });

  it('a provider that fails is named, with what it said', async () => {
    await writeAwsFile('config', '[profile broken]\ncredential_process = /nonexistent/print-keys\n');
    const r = await search({ AWS_PROFILE: 'broken' });
    expect(r.stderr).toMatch(/^simgrep: s3:\/\/signed\/docs\/: AWS_PROFILE=broken but profile "broken" in ~\/\.aws\/credentials or ~\/\.aws\/config gives no credentials \(.+\); give it aws_access_key_id/);
    expect(r.code).toBe(2);
  });
});
