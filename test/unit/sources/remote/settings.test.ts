// Where credentials and endpoints come from (AWS env/profiles, Azure connection strings), which
// wins, and that messages name the source of a secret but never the secret.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { resolveAzureSettings } from '../../../../src/sources/remote/azure-auth.js';
import { resolveS3Settings } from '../../../../src/sources/remote/aws-config.js';

let home = '';
beforeAll(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'simgrep-aws-'));
  await mkdir(path.join(home, '.aws'));
  await writeFile(path.join(home, '.aws', 'credentials'), '[default]\naws_access_key_id = DEFAULTKEY\naws_secret_access_key = defaultsecret\n\n[dev]\naws_access_key_id=DEVKEY\naws_secret_access_key=devsecret\naws_session_token=devtoken\n');
  await writeFile(path.join(home, '.aws', 'config'), '[default]\nregion = eu-west-1\n\n[profile dev]\nregion = ap-south-1\nendpoint_url = http://127.0.0.1:9000\n\n[profile sso]\nsso_session = corp\n');
});
afterAll(() => rm(home, { recursive: true, force: true }));

describe('resolveS3Settings', () => {
  it('uses env keys over the default profile, with the region from ~/.aws/config', async () => {
    const s = await resolveS3Settings({ HOME: home, AWS_ACCESS_KEY_ID: 'ENVKEY', AWS_SECRET_ACCESS_KEY: 'envsecret' }, {});
    expect(s).toMatchObject({ region: 'eu-west-1', endpoint: undefined, credentials: { accessKeyId: 'ENVKEY', secretAccessKey: 'envsecret' }, credentialSource: 'AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY' });
  });

  it('lets AWS_PROFILE win over env keys (as the AWS SDK does), with its region and endpoint_url', async () => {
    const s = await resolveS3Settings({ HOME: home, AWS_PROFILE: 'dev', AWS_ACCESS_KEY_ID: 'ENVKEY', AWS_SECRET_ACCESS_KEY: 'envsecret' }, {});
    expect(s).toMatchObject({ region: 'ap-south-1', credentials: { accessKeyId: 'DEVKEY', sessionToken: 'devtoken' }, credentialSource: 'profile "dev" in ~/.aws/credentials' });
    expect(s.endpoint?.href).toBe('http://127.0.0.1:9000/');
  });

  it('takes the endpoint from --s3-endpoint, then AWS_ENDPOINT_URL_S3, then AWS_ENDPOINT_URL; AWS_REGION over the config', async () => {
    const env = { HOME: home, AWS_REGION: 'us-west-2', AWS_ENDPOINT_URL: 'http://a:1', AWS_ENDPOINT_URL_S3: 'http://b:2' };
    expect((await resolveS3Settings(env, { s3Endpoint: 'http://c:3' })).endpoint?.host).toBe('c:3');
    expect((await resolveS3Settings(env, {})).endpoint?.host).toBe('b:2');
    expect((await resolveS3Settings({ ...env, AWS_ENDPOINT_URL_S3: '' }, {})).endpoint?.host).toBe('a:1');
    expect((await resolveS3Settings(env, {})).region).toBe('us-west-2');
  });

  it('explains profiles it cannot use and missing credentials, without printing secrets', async () => {
    await expect(resolveS3Settings({ HOME: home, AWS_PROFILE: 'sso' }, {})).rejects.toThrow(/through sso_session, which simgrep does not run; export temporary keys first/);
    await expect(resolveS3Settings({ HOME: path.join(home, 'nowhere') }, {})).rejects.toMatchObject({ code: 'REMOTE_CREDENTIALS', message: expect.stringMatching(/^no AWS credentials found/) });
    await expect(resolveS3Settings({ HOME: home }, { s3Endpoint: 'ftp://x' })).rejects.toMatchObject({ code: 'BAD_FLAG' });
  });
});

describe('resolveAzureSettings', () => {
  it('parses a connection string with a custom BlobEndpoint', () => {
    const s = resolveAzureSettings({ AZURE_STORAGE_CONNECTION_STRING: 'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=a2V5;BlobEndpoint=http://127.0.0.1:10000/acct;' });
    expect(s).toMatchObject({ account: 'acct', accountKey: 'a2V5', credentialSource: 'AZURE_STORAGE_CONNECTION_STRING' });
    expect(s.endpoint.href).toBe('http://127.0.0.1:10000/acct');
  });

  it('builds the endpoint from the account and suffix, and knows UseDevelopmentStorage=true', () => {
    expect(resolveAzureSettings({ AZURE_STORAGE_CONNECTION_STRING: 'AccountName=acct;AccountKey=a2V5;EndpointSuffix=core.chinacloudapi.cn' }).endpoint.href).toBe('https://acct.blob.core.chinacloudapi.cn/');
    expect(resolveAzureSettings({ AZURE_STORAGE_CONNECTION_STRING: 'UseDevelopmentStorage=true' }).endpoint.href).toBe('http://127.0.0.1:10000/devstoreaccount1');
  });

  it('takes AZURE_STORAGE_ACCOUNT with a key or a SAS token, and says what is missing', () => {
    expect(resolveAzureSettings({ AZURE_STORAGE_ACCOUNT: 'acct', AZURE_STORAGE_SAS_TOKEN: '?sv=1&sig=abc' })).toMatchObject({ sasToken: 'sv=1&sig=abc', accountKey: undefined });
    expect(() => resolveAzureSettings({ AZURE_STORAGE_ACCOUNT: 'acct' })).toThrow(/neither AZURE_STORAGE_KEY nor AZURE_STORAGE_SAS_TOKEN/);
    expect(() => resolveAzureSettings({ AZURE_STORAGE_CONNECTION_STRING: 'AccountName=acct' })).toThrow(/neither AccountKey nor SharedAccessSignature/);
  });
});
