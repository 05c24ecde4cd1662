// az:// against Azurite (Microsoft's storage emulator, from npm) on 127.0.0.1: Shared Key auth from
// a connection string, paginated prefix listing, the same answer as from disk, and clear errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStorage } from 'unstorage';
import { azureBlobDriver, createSearcher, createStorageSource } from '../../../src/index.js';
import { DEV_ACCOUNT, DEV_KEY, seedContainer, startAzurite, type Azurite } from '../../helpers/azurite.js';
import { runCli } from '../../helpers/cli.js';
import { MIRROR, remoteFixture, type RemoteFixture } from '../../helpers/remote-fixture.js';
import { makeTree } from '../../helpers/tree.js';

let az: Azurite;
let fx: RemoteFixture;
let local: { dir: string; cleanup: () => Promise<void> };

beforeAll(async () => {
  [az, fx, local] = await Promise.all([startAzurite(), remoteFixture(), makeTree(MIRROR)]);
  const blobs: Record<string, string | Buffer> = {};
  for (const [rel, text] of Object.entries(MIRROR)) blobs[`mirror/${rel}`] = text;
  for (let i = 0; i < 30; i++) blobs[`logs/2026/part-${String(i).padStart(2, '0')}.log`] = `entry ${i} lorem ipsum\n`;
  blobs['logs/2026/part-17.log'] = 'entry\nwe retry the failed upload after a network timeout\n';
  blobs['logs/2025/old.log'] = 'retry failed upload network timeout\n';
  await seedContainer(az.blobEndpoint, 'docs', blobs);
}, 120_000);
afterAll(async () => { await Promise.all([az?.stop(), fx?.cleanup(), local?.cleanup()]); });

const cli = (args: string[], env: Record<string, string> = {}) => runCli([...args, '--model', fx.model, '--mode', 'line'], {
  cwd: local.dir,
  env: { HOME: fx.home, AZURE_STORAGE_CONNECTION_STRING: az.connectionString, AZURE_STORAGE_ACCOUNT: '', AZURE_STORAGE_KEY: '', AZURE_STORAGE_SAS_TOKEN: '', SIMGREP_REMOTE_TIMEOUT_MS: '5000', SIMGREP_REMOTE_RETRIES: '1', ...env },
});

describe('az:// (Azurite)', () => {
  it('prints the same results from Azure Blob as from the same files on disk', async () => {
    for (const query of ['retry failed upload', 'parse json config', 'database index query']) {
      const [disk, remote] = await Promise.all([
        cli([query, '.', '--json', '--top-k', '5', '-n', '1']),
        cli([query, 'az://docs/mirror/', '--json', '--top-k', '5', '-n', '1']),
      ]);
      expect(remote.stderr).toBe('');
      expect(remote.stdout.replaceAll('az://docs/mirror/', './')).toBe(disk.stdout);
    }
  });

  it('lists under the prefix only, page by page (5 blobs a page here)', async () => {
    const storage = createStorage();
    storage.mount('az', azureBlobDriver({ container: 'docs', account: DEV_ACCOUNT, endpoint: az.blobEndpoint, accountKey: DEV_KEY, pageSize: 5 }));
    const searcher = createSearcher({ model: fx.model, concurrency: 0 });
    try {
      const r = await searcher.search({ query: 'retry failed upload network timeout', sources: [createStorageSource(storage, { base: 'az:logs:2026' })], topK: 1, nLines: 0, mode: 'line' });
      expect(r.results.map((x) => [x.filename, x.match_line])).toEqual([['az://docs/logs/2026/part-17.log', 1]]);
      expect(r.stats.files).toBe(30);
      expect(r.warnings).toEqual([]);
    } finally {
      await searcher.close();
    }
  });

  it('reports a missing container, a rejected key and missing credentials, per source, exit 2', async () => {
    const missing = await cli(['retry', 'az://nope/x/', 'src', '-n', '0', '--top-k', '1']);
    expect(missing.stderr).toBe(`simgrep: az://nope/x/: container "nope" does not exist in account "${DEV_ACCOUNT}" (ContainerNotFound); check the container name and the account\n`);
    expect(missing.stdout).toMatch(/^src\/net\.ts:/);
    expect(missing.code).toBe(2);

    const wrongKey = Buffer.from('not the key at all, not the key at all!!').toString('base64');
    const rejected = await cli(['retry', 'az://docs/mirror/'], { AZURE_STORAGE_CONNECTION_STRING: az.connectionString.replace(DEV_KEY, wrongKey) });
    expect(rejected.stderr).toBe('simgrep: az://docs/mirror/: access denied (AuthorizationFailure), credentials from AZURE_STORAGE_CONNECTION_STRING: the key or SAS token does not match the account, or may not read and list container "docs"; check AccountName and AccountKey (or SharedAccessSignature) in AZURE_STORAGE_CONNECTION_STRING\n');
    expect(rejected.stdout + rejected.stderr).not.toContain(wrongKey);
    expect(rejected.code).toBe(2);

    const none = await cli(['retry', 'az://docs/mirror/'], { AZURE_STORAGE_CONNECTION_STRING: '' });
    expect(none.stderr).toBe('simgrep: az://docs/mirror/: no Azure storage account given: set AZURE_STORAGE_CONNECTION_STRING, or AZURE_STORAGE_ACCOUNT (with AZURE_STORAGE_KEY or AZURE_STORAGE_SAS_TOKEN, or alone to sign in with Microsoft Entra ID: managed identity, workload identity, az login)\n');
    expect(none.code).toBe(2);
  });

  it('reads az://container/blob as one blob', async () => {
    const r = await cli(['database index query', 'az://docs/mirror/db/schema.sql', '--jsonl', '-n', '0', '--top-k', '1']);
    expect(JSON.parse(r.stdout)).toMatchObject({ filename: 'az://docs/mirror/db/schema.sql', match_line: 2, content: '-- database index query' });
    expect(r.code).toBe(0);
  });
});
