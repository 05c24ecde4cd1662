// Azure credentials through @azure/storage-blob and @azure/identity, for real on 127.0.0.1: Azurite
// verifies Shared Key and SAS signatures (over http), and over https with --oauth basic takes bearer
// tokens, which DefaultAzureCredential gets here from a managed identity (an App Service identity
// endpoint served on loopback). Each path reaches the container; a wrong key, SAS or token is refused
// with a message that names where the credentials came from, never their value.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import type { Server } from 'node:http';
import path from 'node:path';
import { ContainerSASPermissions, generateBlobSASQueryParameters, StorageSharedKeyCredential } from '@azure/storage-blob';
import { DEV_ACCOUNT, DEV_KEY, devConnectionString, seedContainer, startAzurite, type Azurite } from '../../helpers/azurite.js';
import { runCli } from '../../helpers/cli.js';
import { listenLocal } from '../../helpers/http-server.js';
import { remoteFixture, type RemoteFixture } from '../../helpers/remote-fixture.js';
import { repoRoot } from '../../helpers/shared.js';

const BLOBS = { 'docs/net.md': 'intro\nwe retry the failed upload after a network timeout\n', 'docs/ui.md': 'render the button\n' };
const WRONG_KEY = Buffer.from('not the key at all, not the key at all!!').toString('base64');
const HIT = 'az://box/docs/net.md:1::2 ';

let fx: RemoteFixture;
let az: Azurite;
let azTls: Azurite;
let cert = '';
let identity: Server;
let identityUrl = '';
/** The audience of the tokens the identity endpoint hands out (Azure Storage's, or a wrong one). */
let audience = 'https://storage.azure.com';

beforeAll(async () => {
  fx = await remoteFixture();
  cert = path.join(fx.home, 'cert.pem');
  const key = path.join(fx.home, 'key.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
  [az, azTls] = await Promise.all([startAzurite(), startAzurite({ cert, key, oauth: true })]);
  await seedContainer(az.blobEndpoint, 'box', BLOBS);
  // The test process does not trust the certificate (NODE_EXTRA_CA_CERTS is read at start-up): a child seeds over https.
  const seed = spawnSync(process.execPath, ['--input-type=module', '-e', `
    import { createRequire } from 'node:module';
    const { BlobServiceClient } = createRequire(${JSON.stringify(path.join(repoRoot, 'package.json'))})('@azure/storage-blob');
    const c = BlobServiceClient.fromConnectionString(${JSON.stringify(devConnectionString(azTls.blobEndpoint))}).getContainerClient('box');
    await c.createIfNotExists();
    for (const [name, text] of Object.entries(${JSON.stringify(BLOBS)})) await c.getBlockBlobClient(name).upload(text, Buffer.byteLength(text));
  `], { env: { ...process.env, NODE_EXTRA_CA_CERTS: cert }, encoding: 'utf8' });
  if (seed.status !== 0) throw new Error(`seeding Azurite over https failed: ${seed.stderr}`);
  ({ server: identity, origin: identityUrl } = await listenLocal((req, res) => {
    const url = new URL(req.url!, 'http://x');
    if (url.pathname !== '/msi/token' || req.headers['x-identity-header'] !== 'identity-secret' || url.searchParams.get('resource') !== 'https://storage.azure.com') {
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"invalid_request"}');
      return;
    }
    const now = Math.floor(Date.now() / 1000);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
      access_token: jwt({ aud: audience, iss: 'https://sts.windows.net/72f988bf-86f1-41af-91ab-2d7cd011db47/', nbf: now - 60, iat: now - 60, exp: now + 3600, oid: 'reader', tid: '72f988bf-86f1-41af-91ab-2d7cd011db47' }),
      expires_on: String(now + 3600), resource: 'https://storage.azure.com', token_type: 'Bearer',
    }));
  }));
}, 120_000);
afterAll(async () => {
  identity?.closeAllConnections();
  await Promise.all([az?.stop(), azTls?.stop(), fx?.cleanup(), new Promise((r) => identity?.close(r))]);
});

/** An unsigned JWT: Azurite checks a token's audience, issuer and times, not who signed it. */
function jwt(claims: Record<string, unknown>): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${part({ alg: 'RS256', typ: 'JWT' })}.${part(claims)}.${Buffer.from('signature').toString('base64url')}`;
}

function sas(key: string): string {
  const permissions = ContainerSASPermissions.parse('rl');
  return generateBlobSASQueryParameters({ containerName: 'box', permissions, expiresOn: new Date(Date.now() + 3_600_000) }, new StorageSharedKeyCredential(DEV_ACCOUNT, key)).toString();
}

const search = (env: Record<string, string>) => runCli(['retry failed upload', 'az://box/docs/', '--model', fx.model, '--mode', 'line', '-n', '0', '--top-k', '1'], {
  cwd: fx.home,
  env: {
    HOME: fx.home, AZURE_STORAGE_CONNECTION_STRING: '', AZURE_STORAGE_ACCOUNT: '', AZURE_STORAGE_KEY: '', AZURE_STORAGE_SAS_TOKEN: '', AZURE_STORAGE_BLOB_ENDPOINT: '',
    IDENTITY_ENDPOINT: '', IDENTITY_HEADER: '', MSI_ENDPOINT: '', AZURE_CLIENT_ID: '', AZURE_TENANT_ID: '', AZURE_FEDERATED_TOKEN_FILE: '',
    SIMGREP_REMOTE_TIMEOUT_MS: '5000', SIMGREP_REMOTE_RETRIES: '0', ...env,
  },
});

function expectFound(r: { stdout: string; stderr: string; code: number | null }) {
  expect([r.stderr, r.code]).toEqual(['', 0]);
  expect(r.stdout.startsWith(HIT)).toBe(true);
}

describe('Azure credentials through the SDKs, checked by Azurite', () => {
  it('AZURE_STORAGE_ACCOUNT + AZURE_STORAGE_KEY (Shared Key); a wrong key is refused', async () => {
    const env = { AZURE_STORAGE_ACCOUNT: DEV_ACCOUNT, AZURE_STORAGE_BLOB_ENDPOINT: az.blobEndpoint };
    expectFound(await search({ ...env, AZURE_STORAGE_KEY: DEV_KEY }));
    const wrong = await search({ ...env, AZURE_STORAGE_KEY: WRONG_KEY });
    expect(wrong.stderr).toBe('simgrep: az://box/docs/: access denied (AuthorizationFailure), credentials from AZURE_STORAGE_ACCOUNT / AZURE_STORAGE_KEY: the key or SAS token does not match the account, or may not read and list container "box"; check AZURE_STORAGE_ACCOUNT and AZURE_STORAGE_KEY\n');
    expect(wrong.stdout + wrong.stderr).not.toContain(WRONG_KEY);
    expect(wrong.code).toBe(2);
  });

  it('AZURE_STORAGE_ACCOUNT + AZURE_STORAGE_SAS_TOKEN (read, list); a SAS signed with another key is refused', async () => {
    const env = { AZURE_STORAGE_ACCOUNT: DEV_ACCOUNT, AZURE_STORAGE_BLOB_ENDPOINT: az.blobEndpoint };
    expectFound(await search({ ...env, AZURE_STORAGE_SAS_TOKEN: `?${sas(DEV_KEY)}` }));
    const forged = sas(WRONG_KEY);
    const wrong = await search({ ...env, AZURE_STORAGE_SAS_TOKEN: forged });
    expect(wrong.stderr).toBe('simgrep: az://box/docs/: access denied (AuthorizationFailure), credentials from AZURE_STORAGE_ACCOUNT / AZURE_STORAGE_SAS_TOKEN: the key or SAS token does not match the account, or may not read and list container "box"; check AZURE_STORAGE_SAS_TOKEN (its expiry and permissions: read, list)\n');
    expect(wrong.stdout + wrong.stderr).not.toContain(new URLSearchParams(forged).get('sig'));
    expect(wrong.code).toBe(2);
  });

  it('a connection string with BlobEndpoint and SharedAccessSignature', async () => {
    expectFound(await search({ AZURE_STORAGE_CONNECTION_STRING: `BlobEndpoint=${az.blobEndpoint};SharedAccessSignature=${sas(DEV_KEY)}` }));
  });

  it('DefaultAzureCredential: a managed identity\'s token, taken over https; a token for another audience is refused', async () => {
    const env = {
      AZURE_STORAGE_ACCOUNT: DEV_ACCOUNT, AZURE_STORAGE_BLOB_ENDPOINT: azTls.blobEndpoint, NODE_EXTRA_CA_CERTS: cert,
      IDENTITY_ENDPOINT: `${identityUrl}/msi/token`, IDENTITY_HEADER: 'identity-secret',
    };
    audience = 'https://storage.azure.com';
    expectFound(await search(env));
    audience = 'https://vault.azure.net';
    const wrong = await search(env);
    expect(wrong.stderr).toBe('simgrep: az://box/docs/: the account key, SAS token or sign-in token was rejected (AuthenticationFailed), credentials from Microsoft Entra ID (DefaultAzureCredential); '
      + 'check which identity signed in (AZURE_CLIENT_ID, the managed identity, az account show): it must belong to the account\'s tenant and have a data role such as "Storage Blob Data Reader" on account "devstoreaccount1" or its container\n');
    expect(wrong.code).toBe(2);
  });

  it('DefaultAzureCredential without any identity says what it tried and how to fix it', async () => {
    const r = await search({ AZURE_STORAGE_ACCOUNT: DEV_ACCOUNT, AZURE_STORAGE_BLOB_ENDPOINT: azTls.blobEndpoint, IDENTITY_ENDPOINT: `${identityUrl}/wrong-path`, IDENTITY_HEADER: 'identity-secret', NODE_EXTRA_CA_CERTS: cert });
    expect(r.stderr).toMatch(/^simgrep: az:\/\/box\/docs\/: AZURE_STORAGE_ACCOUNT=devstoreaccount1 is set without a key or SAS token, and Microsoft Entra ID sign-in \(DefaultAzureCredential: .*\) found no credential: .+; sign in \(az login\), or set AZURE_STORAGE_KEY or AZURE_STORAGE_SAS_TOKEN\n$/);
    expect(r.code).toBe(2);
  });
});
