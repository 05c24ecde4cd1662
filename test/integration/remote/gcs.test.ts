// gs:// through the built CLI against a loopback fake of the Cloud Storage JSON API (no real GCS
// server runs here; test/helpers/gcs-server.ts says what it implements). Credentials come through
// Application Default Credentials as on a user's machine: a workload identity federation file in
// GOOGLE_APPLICATION_CREDENTIALS (and at gcloud's well-known path) traded at the fake's STS, and the
// GCE metadata server (GCE_METADATA_HOST); the store accepts only the token of the reader's subject.
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStorage } from 'unstorage';
import { createSearcher, createStorageSource, gcsDriver } from '../../../src/index.js';
import { cliPath, runCli } from '../../helpers/cli.js';
import { READER_AUTH, startFakeGcs, SUBJECTS, type FakeGcs } from '../../helpers/gcs-server.js';
import { MIRROR, remoteFixture, type RemoteFixture } from '../../helpers/remote-fixture.js';
import { makeTree } from '../../helpers/tree.js';

let gcs: FakeGcs;
let open: FakeGcs;
let fx: RemoteFixture;
let local: { dir: string; cleanup: () => Promise<void> };
const files = (name: string) => path.join(fx.home, name);

beforeAll(async () => {
  [gcs, open, fx, local] = await Promise.all([startFakeGcs({ metadataSubject: SUBJECTS.reader }), startFakeGcs({ anonymous: true }), remoteFixture(), makeTree(MIRROR)]);
  for (const fake of [gcs, open]) {
    for (const [rel, text] of Object.entries(MIRROR)) fake.put('docs', `mirror/${rel}`, text);
    for (let i = 0; i < 30; i++) fake.put('docs', `logs/2026/part-${String(i).padStart(2, '0')}.log`, `entry ${i} lorem ipsum\n`);
    fake.put('docs', 'logs/2026/part-17.log', 'entry\nwe retry the failed upload after a network timeout\n');
    fake.put('docs', 'logs/2025/old.log', 'retry failed upload network timeout\n');
  }
  for (const [name, subject] of Object.entries(SUBJECTS)) await writeFile(files(`${name}.token`), subject);
  await writeFile(files('unknown.token'), 'a subject the STS does not know');
  for (const name of [...Object.keys(SUBJECTS), 'unknown']) await writeFile(files(`${name}.json`), JSON.stringify(gcs.federationConfig(files(`${name}.token`))));
}, 60_000);
afterAll(async () => { await Promise.all([gcs?.stop(), open?.stop(), fx?.cleanup(), local?.cleanup()]); });

/** Nothing of this machine's Google settings: no credential file, no emulator, no metadata server probe. */
const baseEnv = (): Record<string, string> => ({
  HOME: fx.home, GOOGLE_APPLICATION_CREDENTIALS: files('reader.json'), STORAGE_EMULATOR_HOST: '', GCE_METADATA_HOST: '', GCE_METADATA_IP: '',
  METADATA_SERVER_DETECTION: 'none', GOOGLE_CLOUD_UNIVERSE_DOMAIN: '', SIMGREP_REMOTE_TIMEOUT_MS: '5000', SIMGREP_REMOTE_RETRIES: '1',
});
const cli = (args: string[], env: Record<string, string> = {}, endpoint: string[] = ['--gcs-endpoint', gcs.origin]) => runCli([...args, ...endpoint, '--model', fx.model, '--mode', 'line'], {
  cwd: local.dir, env: { ...baseEnv(), ...env },
});

describe('gs:// (loopback fake of the Cloud Storage JSON API)', () => {
  it('prints the same results from Cloud Storage as from the same files on disk', async () => {
    for (const query of ['retry failed upload', 'parse json config', 'database index query']) {
      const [disk, remote] = await Promise.all([
        cli([query, '.', '--json', '--top-k', '5', '-n', '1']),
        cli([query, 'gs://docs/mirror/', '--json', '--top-k', '5', '-n', '1']),
      ]);
      expect(remote.stderr).toBe('');
      expect(remote.stdout.replaceAll('gs://docs/mirror/', './')).toBe(disk.stdout);
    }
    // Every storage request carried the reader's token (the fake refuses the others), and asked for pages of the prefix only.
    expect(gcs.requests.filter((r) => r.includes('/o?')).every((r) => r.includes('prefix=mirror%2F'))).toBe(true);
  });

  it('loads @google-cloud/storage only to sign in to a gs:// store (not for local paths, not for an emulator)', async () => {
    const hook = files('hook.mjs');
    await writeFile(hook, 'export async function resolve(s, c, n) { if (/^(@google-cloud\\/storage|google-auth-library)$/.test(s)) process.stderr.write(`LOADED ${s}\\n`); return n(s, c); }\n');
    const loaded = (args: string[], env: Record<string, string>) => new Promise<string[]>((resolve) => {
      const p = spawn(process.execPath, ['--no-warnings', '--experimental-loader', hook, cliPath, 'retry failed upload', ...args, '--model', fx.model, '-J', '0'], {
        cwd: local.dir, env: { ...process.env, HF_HUB_OFFLINE: '1', ...baseEnv(), ...env }, stdio: ['ignore', 'ignore', 'pipe'],
      });
      let err = '';
      p.stderr!.setEncoding('utf8').on('data', (d: string) => { err += d; });
      p.on('close', () => resolve([...new Set(err.match(/LOADED .*/g) ?? [])]));
    });
    expect(await loaded(['src'], {})).toEqual([]);
    expect(await loaded(['gs://docs/mirror/'], { GOOGLE_APPLICATION_CREDENTIALS: '', STORAGE_EMULATOR_HOST: open.origin })).toEqual([]);
    expect(await loaded(['gs://docs/mirror/', '--gcs-endpoint', gcs.origin], {})).toEqual(['LOADED @google-cloud/storage', 'LOADED google-auth-library']);
  });

  it('reads gs://bucket/object as one object', async () => {
    const r = await cli(['database index query', 'gs://docs/mirror/db/schema.sql', '--jsonl', '-n', '0', '--top-k', '1']);
    expect(JSON.parse(r.stdout)).toMatchObject({ filename: 'gs://docs/mirror/db/schema.sql', match_line: 2, content: '-- database index query' });
    expect(r.code).toBe(0);
  });

  it('lists under the prefix only, page by page (5 objects a page here)', async () => {
    const storage = createStorage();
    storage.mount('gs', gcsDriver({ bucket: 'docs', endpoint: gcs.origin, auth: READER_AUTH, pageSize: 5 }));
    const searcher = createSearcher({ model: fx.model, concurrency: 0 });
    const before = gcs.requests.length;
    try {
      const r = await searcher.search({ query: 'retry failed upload network timeout', sources: [createStorageSource(storage, { base: 'gs:logs:2026' })], topK: 1, nLines: 0, mode: 'line' });
      expect(r.results.map((x) => [x.filename, x.match_line])).toEqual([['gs://docs/logs/2026/part-17.log', 1]]);
      expect(r.stats.files).toBe(30);
      expect(r.warnings).toEqual([]);
    } finally {
      await searcher.close();
    }
    expect(gcs.requests.slice(before).filter((q) => q.includes('/o?')).length).toBe(6);
  });

  it('signs in through each Application Default Credentials source: the gcloud well-known file, the metadata server', async () => {
    const gcloud = path.join(fx.home, '.config', 'gcloud');
    await mkdir(gcloud, { recursive: true });
    await writeFile(path.join(gcloud, 'application_default_credentials.json'), JSON.stringify(gcs.federationConfig(files('reader.token'))));
    try {
      const wellKnown = await cli(['retry failed upload', 'gs://docs/logs/2026/', '-n', '0', '--top-k', '1', '--jsonl'], { GOOGLE_APPLICATION_CREDENTIALS: '' });
      expect({ code: wellKnown.code, stderr: wellKnown.stderr, file: JSON.parse(wellKnown.stdout).filename }).toEqual({ code: 0, stderr: '', file: 'gs://docs/logs/2026/part-17.log' });
    } finally {
      await writeFile(path.join(gcloud, 'application_default_credentials.json'), '');
      await import('node:fs/promises').then((fs) => fs.rm(gcloud, { recursive: true }));
    }
    const vm = await cli(['retry failed upload', 'gs://docs/logs/2026/', '-n', '0', '--top-k', '1', '--jsonl'], { GOOGLE_APPLICATION_CREDENTIALS: '', GCE_METADATA_HOST: gcs.host, METADATA_SERVER_DETECTION: 'ping-only' });
    expect({ code: vm.code, stderr: vm.stderr, file: JSON.parse(vm.stdout).filename }).toEqual({ code: 0, stderr: '', file: 'gs://docs/logs/2026/part-17.log' });
  });

  it('an emulator named by STORAGE_EMULATOR_HOST is read without credentials; a store that wants them says so', async () => {
    const emulated = await cli(['retry failed upload', 'gs://docs/logs/2026/', '-n', '0', '--top-k', '1', '--jsonl'], { GOOGLE_APPLICATION_CREDENTIALS: '', STORAGE_EMULATOR_HOST: open.origin }, []);
    expect({ code: emulated.code, stderr: emulated.stderr, file: JSON.parse(emulated.stdout).filename }).toEqual({ code: 0, stderr: '', file: 'gs://docs/logs/2026/part-17.log' });
    // --gcs-endpoint wins over an emulator, and is signed in (this store refuses unsigned requests).
    const named = await cli(['retry failed upload', 'gs://docs/logs/2026/', '-n', '0', '--top-k', '1', '--jsonl'], { STORAGE_EMULATOR_HOST: 'http://127.0.0.1:9' });
    expect({ code: named.code, stderr: named.stderr, file: JSON.parse(named.stdout).filename }).toEqual({ code: 0, stderr: '', file: 'gs://docs/logs/2026/part-17.log' });
    const guarded = await cli(['retry', 'gs://docs/mirror/'], { STORAGE_EMULATOR_HOST: new URL(gcs.origin).host }, []);
    expect(guarded.stderr).toBe('simgrep: gs://docs/mirror/: the endpoint asks for credentials (HTTP 401 required: Anonymous caller does not have storage.objects.list access to the Google Cloud Storage bucket. Permission \'storage.objects.list\' denied on resource (or it may not exist).), and none were sent: unset STORAGE_EMULATOR_HOST to sign in with Application Default Credentials, or use --gcs-endpoint for an endpoint that needs them\n');
    expect(guarded.code).toBe(2);
  });

  it('reports a missing bucket, a refused credential, a denied one, a failed sign-in and no credentials, per source, exit 2', async () => {
    const fed = (name: string) => `workload identity federation in GOOGLE_APPLICATION_CREDENTIALS (${files(`${name}.json`)})`;
    const missing = await cli(['retry', 'gs://nope/x/', 'src', '-n', '0', '--top-k', '1']);
    expect(missing.stderr).toBe(`simgrep: gs://nope/x/: bucket "nope" does not exist at ${gcs.origin}/storage/v1 (HTTP 404 notFound: The specified bucket does not exist.); check the bucket name and the endpoint (--gcs-endpoint, STORAGE_EMULATOR_HOST)\n`);
    expect(missing.stdout).toMatch(/^src\/net\.ts:/);
    expect(missing.code).toBe(2);

    const refused = await cli(['retry', 'gs://docs/mirror/', 'src', '-n', '0', '--top-k', '1'], { GOOGLE_APPLICATION_CREDENTIALS: files('revoked.json') });
    expect(refused.stderr).toBe(`simgrep: gs://docs/mirror/: the credentials were refused (HTTP 401 authError: Invalid Credentials), credentials from ${fed('revoked')}; check the pool, provider and subject token the configuration names\n`);
    expect(refused.stdout).toMatch(/^src\/net\.ts:/);
    expect(refused.stdout + refused.stderr).not.toContain('ya29.');
    expect(refused.code).toBe(2);

    const denied = await cli(['retry', 'gs://docs/mirror/'], { GOOGLE_APPLICATION_CREDENTIALS: files('stranger.json') });
    expect(denied.stderr).toBe(`simgrep: gs://docs/mirror/: access denied (HTTP 403 forbidden: ${SUBJECTS.stranger}@example.iam.gserviceaccount.com does not have storage.objects.list access to the Google Cloud Storage bucket. Permission 'storage.objects.list' denied on resource (or it may not exist).), credentials from ${fed('stranger')}; it needs storage.objects.list and storage.objects.get (the role Storage Object Viewer, roles/storage.objectViewer) on bucket "docs"\n`);
    expect(denied.code).toBe(2);

    const noToken = await cli(['retry', 'gs://docs/mirror/'], { GOOGLE_APPLICATION_CREDENTIALS: files('unknown.json') });
    expect(noToken.stderr).toBe(`simgrep: gs://docs/mirror/: could not get an access token from ${fed('unknown')}: invalid_grant: The subject token is invalid or expired.; check the pool, provider and subject token the configuration names\n`);
    expect(noToken.code).toBe(2);

    const none = await cli(['retry', 'gs://docs/mirror/'], { GOOGLE_APPLICATION_CREDENTIALS: '' });
    expect(none.stderr).toBe('simgrep: gs://docs/mirror/: no Google Cloud credentials found (Application Default Credentials: GOOGLE_APPLICATION_CREDENTIALS, gcloud auth application-default login, the metadata server on GCE/GKE/Cloud Run); run `gcloud auth application-default login`, or set GOOGLE_APPLICATION_CREDENTIALS to a service-account key file, or for an emulator set STORAGE_EMULATOR_HOST\n');
    expect(none.code).toBe(2);
  });
});
