// Where credentials and endpoints come from (the AWS SDK's chain and config files, Azure's variables),
// which wins, and that messages name the source of a secret but never the secret. The AWS chain reads
// process.env, so each case sets it (this file runs in its own process).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { resolveAzureSettings } from '../../../../src/sources/remote/azure-auth.js';
import { resolveS3Settings } from '../../../../src/sources/remote/aws-config.js';

let home = '';
const AWS_VARS = ['AWS_PROFILE', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_REGION', 'AWS_DEFAULT_REGION', 'AWS_ENDPOINT_URL', 'AWS_ENDPOINT_URL_S3', 'AWS_CONFIG_FILE', 'AWS_SHARED_CREDENTIALS_FILE', 'AWS_CONTAINER_CREDENTIALS_FULL_URI', 'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI', 'AWS_WEB_IDENTITY_TOKEN_FILE'];

beforeAll(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'simgrep-aws-'));
  await mkdir(path.join(home, '.aws'));
  await writeFile(path.join(home, '.aws', 'credentials'), '[default]\naws_access_key_id = DEFAULTKEY\naws_secret_access_key = defaultsecret\n\n[dev]\naws_access_key_id=DEVKEY\naws_secret_access_key=devsecret\naws_session_token=devtoken\n');
  await writeFile(path.join(home, '.aws', 'config'), '[default]\nregion = eu-west-1\n\n[profile dev]\nregion = ap-south-1\nendpoint_url = http://127.0.0.1:9000\n');
});
afterAll(() => rm(home, { recursive: true, force: true }));

/** process.env with no AWS variable but these (and HOME), for one resolution. */
function awsEnv(vars: Record<string, string>): NodeJS.ProcessEnv {
  for (const k of AWS_VARS) delete process.env[k];
  Object.assign(process.env, { HOME: home, AWS_EC2_METADATA_DISABLED: 'true' }, vars);
  return process.env;
}

describe('resolveS3Settings', () => {
  it('uses env keys over the default profile, with the region from ~/.aws/config', async () => {
    const s = await resolveS3Settings(awsEnv({ AWS_ACCESS_KEY_ID: 'ENVKEY', AWS_SECRET_ACCESS_KEY: 'envsecret' }), {});
    expect(s).toMatchObject({ region: 'eu-west-1', endpoint: undefined, credentialSource: 'AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY' });
    expect(await s.credentials()).toMatchObject({ accessKeyId: 'ENVKEY', secretAccessKey: 'envsecret' });
  });

  it('lets AWS_PROFILE win over env keys (as the AWS SDK does), with its region and endpoint_url', async () => {
    const s = await resolveS3Settings(awsEnv({ AWS_PROFILE: 'dev', AWS_ACCESS_KEY_ID: 'ENVKEY', AWS_SECRET_ACCESS_KEY: 'envsecret' }), {});
    expect(s).toMatchObject({ region: 'ap-south-1', credentialSource: 'profile "dev" in ~/.aws/credentials or ~/.aws/config' });
    expect(await s.credentials()).toMatchObject({ accessKeyId: 'DEVKEY', sessionToken: 'devtoken' });
    expect(s.endpoint?.href).toBe('http://127.0.0.1:9000/');
  });

  it('takes the endpoint from --s3-endpoint, then AWS_ENDPOINT_URL_S3, then AWS_ENDPOINT_URL; AWS_REGION over the config', async () => {
    const vars = { AWS_REGION: 'us-west-2', AWS_ENDPOINT_URL: 'http://a:1', AWS_ENDPOINT_URL_S3: 'http://b:2' };
    expect((await resolveS3Settings(awsEnv(vars), { s3Endpoint: 'http://c:3' })).endpoint?.host).toBe('c:3');
    expect((await resolveS3Settings(awsEnv(vars), {})).endpoint?.host).toBe('b:2');
    expect((await resolveS3Settings(awsEnv({ ...vars, AWS_ENDPOINT_URL_S3: '' }), {})).endpoint?.host).toBe('a:1');
    expect((await resolveS3Settings(awsEnv(vars), {})).region).toBe('us-west-2');
  });

  it('says what was tried when nothing gives credentials, names a missing profile, and refuses a bad endpoint', async () => {
    await expect(resolveS3Settings(awsEnv({ HOME: path.join(home, 'nowhere') }), {})).rejects.toMatchObject({ code: 'REMOTE_CREDENTIALS', message: expect.stringMatching(/^no AWS credentials found \(tried AWS_ACCESS_KEY_ID \/ AWS_SECRET_ACCESS_KEY, profile "default" in/) });
    await expect(resolveS3Settings(awsEnv({ AWS_PROFILE: 'ghost' }), {})).rejects.toThrow('AWS_PROFILE=ghost but there is no such profile in ~/.aws/credentials or ~/.aws/config; add it, or fix AWS_PROFILE');
    await expect(resolveS3Settings(awsEnv({}), { s3Endpoint: 'ftp://x' })).rejects.toMatchObject({ code: 'BAD_FLAG' });
  });
});

describe('resolveAzureSettings', () => {
  it('hands a connection string to the SDK as it is', async () => {
    const conn = 'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=a2V5;BlobEndpoint=http://127.0.0.1:10000/acct;';
    expect(await resolveAzureSettings({ AZURE_STORAGE_CONNECTION_STRING: conn, AZURE_STORAGE_ACCOUNT: 'other' })).toMatchObject({ connectionString: conn, credentialSource: 'AZURE_STORAGE_CONNECTION_STRING' });
  });

  it('takes AZURE_STORAGE_ACCOUNT with a key or a SAS token, and AZURE_STORAGE_BLOB_ENDPOINT', async () => {
    expect(await resolveAzureSettings({ AZURE_STORAGE_ACCOUNT: 'acct', AZURE_STORAGE_KEY: 'a2V5', AZURE_STORAGE_BLOB_ENDPOINT: 'http://127.0.0.1:1/acct' }))
      .toMatchObject({ account: 'acct', accountKey: 'a2V5', endpoint: 'http://127.0.0.1:1/acct', credentialSource: 'AZURE_STORAGE_ACCOUNT / AZURE_STORAGE_KEY' });
    const sas = await resolveAzureSettings({ AZURE_STORAGE_ACCOUNT: 'acct', AZURE_STORAGE_SAS_TOKEN: '?sv=1&sig=abc' });
    expect([sas.sasToken, sas.accountKey, sas.credentialSource]).toEqual(['sv=1&sig=abc', undefined, 'AZURE_STORAGE_ACCOUNT / AZURE_STORAGE_SAS_TOKEN']);
  });

  it('says what to set when no account is given', async () => {
    await expect(resolveAzureSettings({})).rejects.toMatchObject({ code: 'REMOTE_CREDENTIALS', message: expect.stringMatching(/^no Azure storage account given: set AZURE_STORAGE_CONNECTION_STRING, or AZURE_STORAGE_ACCOUNT/) });
  });
});
