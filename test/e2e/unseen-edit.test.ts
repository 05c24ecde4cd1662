// An edit that keeps a file's size and mtime (`touch -r`, `cp -p`, rsync -t, a checkout restoring
// mtime) or an object's size and last-modified (an overwrite within S3's one-second resolution): the
// index must answer as a scan does. Local files are keyed on ctime too, objects on their listing's ETag;
// an index written before (no ctime kept) hashes its files again instead of trusting them. Through the
// real CLI, a real LanceDB directory and s3rver on loopback.
import { readFileSync, readdirSync, mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { putObject, s3rverCliEnv, seedObjects, startS3rver, type S3Server } from '../helpers/s3-server.js';
import { openStore } from '../../src/workspace/store/store.js';
import { workspaceDir } from '../../src/workspace/registry.js';

const FILLERS = 60;
const FILES = FILLERS + 4;
// Lexical and bm25 answer from the index's terms (the hybrid ranking of so small a tree reads its candidates' text).
const QUERIES = [['--mode', 'lexical'], ['--mode', 'bm25'], []].map((mode) => ['retry the upload with backoff', '--json', '--top-k', '3', ...mode]);

/** Each query's answer through the index (`target`) equals a scan's; the edit is in the scan's (its new text the top hit). */
async function expectSameAsScan(root: string, target: string[], env: Record<string, string>): Promise<void> {
  for (const q of QUERIES) {
    const scanned = await runCli([...q, root, '--no-index'], { env });
    expect(JSON.parse(scanned.stdout).results[0].content).toContain('uploadRetry');
    const indexed = await runCli([...q, root, ...target], { env });
    expect(indexed.code, indexed.stderr).toBe(0);
    expect(indexed.stdout, q.join(' ')).toBe(scanned.stdout);
  }
}
const OLD = 'export function reconcileInvoices(ledger) { return ledger.filter((row) => row.open).map(close); }\n';
// The same byte count as OLD: only the content (and the ctime, or the ETag) tells the edit.
const NEW = 'export async function uploadRetry(file) { for (let a = 0; a < 3; a++) await backoff(put(file)); }\n';

let tmp = '';
let env: Record<string, string> = {};

/** A minute ago, in whole milliseconds (a Date holds no finer): the mtime the files keep. */
const PAST = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);

/** A tree of a few files, their mtimes PAST (the test waits out the racily-clean margin of their ctimes: file-identity.ts). */
function writeTree(dir: string): string {
  mkdirSync(path.join(dir, 'net'), { recursive: true });
  const files: Record<string, string> = {
    'net/edited.ts': OLD,
    'net/client.ts': 'export function connect(host) { return open(host, { keepAlive: true }); }\n',
    'notes.md': '# Billing\n\nInvoices are reconciled nightly against the ledger.\n',
    'queue.ts': 'export function drain(queue) { while (queue.length) queue.shift()(); }\n',
  };
  // Fillers on other subjects, so the ranking prunes by the indexed vectors (an edited file indexed as
  // OLD is not even read) rather than read every file.
  const topics = ['parse the config file', 'render the page header', 'hash the password', 'sort the table rows', 'close the database pool', 'format the date', 'resize the image', 'escape html entities'];
  for (let i = 0; i < FILLERS; i++) files[`lib/f${i}.ts`] = `// ${topics[i % topics.length]}\nexport function step${i}(x) { return x + ${i}; }\n`;
  mkdirSync(path.join(dir, 'lib'), { recursive: true });
  for (const [rel, text] of Object.entries(files)) {
    writeFileSync(path.join(dir, rel), text);
    utimesSync(path.join(dir, rel), PAST, PAST);
  }
  return path.join(dir, 'net', 'edited.ts');
}

/** Writes `text` over the file and sets its mtime back to PAST: size and mtime as they were, the content not. */
function writeKeepingSizeAndMtime(file: string, text: string): void {
  const st = statSync(file);
  writeFileSync(file, text);
  utimesSync(file, PAST, PAST);
  expect([statSync(file).size, statSync(file).mtimeMs]).toEqual([st.size, st.mtimeMs]);
}
const editKeepingSizeAndMtime = (file: string) => writeKeepingSizeAndMtime(file, NEW);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-unseen-edit-'));
  env = { SIMGREP_HOME: path.join(tmp, 'home'), SIMGREP_CACHE_DIR: path.join(tmp, 'cache') };
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('an edit that keeps size and mtime', () => {
  it('the index answers as a scan does, and simgrep index re-indexes the file', async () => {
    const tree = path.join(tmp, 'local');
    const file = writeTree(tree);
    await sleep(200);
    const built = await runCli(['index', tree, '-w', 'local'], { env });
    expect(built.stderr).toContain(`${FILES} files checked, ${FILES} indexed`);
    editKeepingSizeAndMtime(file);
    await expectSameAsScan(tree, ['-w', 'local'], env);

    // The search read it again for its own answer only (a one-shot CLI search of a few changed bytes);
    // simgrep index finds it too and saves it.
    expect((await runCli(['index', tree, '-w', 'local'], { env })).stderr).toContain(`${FILES} files checked, 1 indexed`);
    await expectSameAsScan(tree, ['-w', 'local'], env);
  });

  it('an index written before ctime was kept: its files are hashed again (not rebuilt), then keyed on ctime', async () => {
    const tree = path.join(tmp, 'older');
    const file = writeTree(tree);
    await sleep(200);
    expect((await runCli(['index', tree, '-w', 'older'], { env })).code).toBe(0);
    // Make it the older simgrep's index: its files table without the ctime column, no snapshot file (this
    // build rebuilds an older format's from the store). simgrep before ctime46 fails below, at the records:
    // its search rebuilt the lexical features from the files, but kept no ctime.
    const dir = workspaceDir('older', env);
    const lancedb = await import('@lancedb/lancedb');
    const db = await lancedb.connect(dir);
    const files = await db.openTable('files');
    if ((await files.schema()).fields.some((f) => f.name === 'ctime')) await files.dropColumns(['ctime']);
    files.close();
    db.close();
    for (const f of readdirSync(dir)) if (f.startsWith('snapshot')) rmSync(path.join(dir, f));

    editKeepingSizeAndMtime(file);
    await expectSameAsScan(tree, ['-w', 'older'], env);
    // The content hash decided: one file re-indexed, the others kept (their chunks not made again).
    const run = await runCli(['index', tree, '-w', 'older'], { env });
    expect(run.stderr).toMatch(new RegExp(`${FILES} files checked, [01] indexed`));
    const after = await openStore(dir, { dim: 256 });
    try {
      const states = await after.fileStates();
      expect(states.length).toBe(FILES);
      expect(states.filter((s) => s.ctime !== statSync(s.key).ctimeMs).map((s) => s.key)).toEqual([]);
    } finally {
      after.close();
    }
  });
});

describe('an object overwritten within the second with the same size', () => {
  let s3: S3Server;
  beforeAll(async () => { s3 = await startS3rver({ buckets: ['tree'] }); });
  afterAll(async () => { await s3?.stop(); });

  it('its listing\'s ETag tells: the index answers as a scan does', async () => {
    const s3env = { ...s3rverCliEnv(path.join(tmp, 's3home'), s3.endpoint) };
    const local = path.join(tmp, 's3tree');
    writeTree(local);
    await seedObjects(s3.endpoint, 'tree', Object.fromEntries(walk(local).map((rel) => [`src/${rel}`, readFileSync(path.join(local, rel))])));
    // s3rver's last-modified is its object file's mtime (below: PAST again after the overwrite).
    const backing = path.join(s3.dir, 'tree', 'src', 'net', 'edited.ts._S3rver_object');
    utimesSync(backing, PAST, PAST);
    const uri = 's3://tree/src/';
    const built = await runCli(['index', uri, '-w', 'objects'], { env: s3env });
    expect(built.stderr, built.stderr).toContain(`${FILES} files checked, ${FILES} indexed`);
    // Set back, it stands for an overwrite within the second (S3's LastModified has one-second
    // resolution); its ETag is the new content's MD5.
    const st = statSync(backing);
    await putObject(s3.endpoint, 'tree', 'src/net/edited.ts', NEW);
    utimesSync(backing, PAST, PAST);
    expect([statSync(backing).size, statSync(backing).mtimeMs]).toEqual([st.size, st.mtimeMs]);
    await expectSameAsScan(uri, ['-w', 'objects'], s3env);
  });
});

/** The files under dir, relative, with `/`. */
function walk(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).filter((f) => statSync(path.join(dir, f)).isFile()).map((f) => f.split(path.sep).join('/'));
}
