// tokenizer.json compiled once per machine: a miss builds and stores an entry, a hit is served from it
// (with the same ids), a damaged entry is rebuilt, and a cache that cannot be used never breaks a load.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, truncate, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bundledModelDir } from '../../../src/model/default-model.js';
import { openTokenizerFile, sharedTokenizerFile, tokenizerCacheDir } from '../../../src/model/tokenizer-file.js';
import { Worker } from 'node:worker_threads';
import { tokenizerMetaOf } from '../../../src/model/tokenizer-meta.js';
import { createLineTokenizer } from '../../../src/model/tokenizer/index.js';
import { hasShared, model2vecFixtures } from '../../helpers/shared.js';

/** When on, writing a cache temp file gets 4 KiB onto the disk and then fails with ENOSPC. */
const fullDisk = vi.hoisted(() => ({ on: false, failed: 0 }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const writeFileSync: typeof fs.writeFileSync = (file, data, options) => {
    if (!fullDisk.on || !String(file).endsWith('.tmp')) return fs.writeFileSync(file, data, options);
    fullDisk.failed++;
    fs.writeFileSync(file, (data as Uint8Array).subarray(0, 4096), options);
    throw Object.assign(new Error(`ENOSPC: no space left on device, write '${String(file)}'`), { code: 'ENOSPC' });
  };
  return { ...fs, writeFileSync, default: { ...fs, writeFileSync } };
});

/** An entry opens with the SHA-256 of the rest. */
const CHECKSUM_BYTES = 32;
const BUNDLED = path.join(bundledModelDir(), 'tokenizer.json');
const LINES = ['def retry_upload(self, attempts=3):', '    // Ünïcödé and CamelCaseWords, snake_case_words', '', 'x'.repeat(300)];

let dir: string;
const saved = process.env.SIMGREP_CACHE_DIR;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'simgrep-tokcache-'));
  process.env.SIMGREP_CACHE_DIR = dir;
});
afterEach(async () => {
  if (saved === undefined) delete process.env.SIMGREP_CACHE_DIR; else process.env.SIMGREP_CACHE_DIR = saved;
  await rm(dir, { recursive: true, force: true });
});

async function entries(): Promise<string[]> {
  return (await readdir(path.join(dir, 'tokenizers'))).map((f) => path.join(dir, 'tokenizers', f));
}

/** What a tokenizer.json gives built straight from its JSON (the meta, LINES' ids): the reference, made once per file
 * (parsing the 2 MB bundled tokenizer.json and building from it again for each of ~20 opens took seconds). */
const references = new Map<string, Promise<{ meta: unknown; ids: number[][] }>>();
function reference(file: string): Promise<{ meta: unknown; ids: number[][] }> {
  let r = references.get(file);
  if (!r) {
    r = readFile(file, 'utf8').then((text) => {
      const json = JSON.parse(text);
      const fresh = createLineTokenizer(JSON.parse(text));
      return { meta: tokenizerMetaOf(json, file, 'hint'), ids: LINES.map((l) => Array.from(fresh.encode(l))) };
    });
    references.set(file, r);
  }
  return r;
}

async function expectSameAsJson(file: string): Promise<void> {
  const want = await reference(file);
  const opened = await openTokenizerFile(file, 'hint');
  expect(opened.meta).toEqual(want.meta);
  const tok = opened.createTokenizer();
  LINES.forEach((line, i) => expect(Array.from(tok.encode(line))).toEqual(want.ids[i]));
}

describe('openTokenizerFile', () => {
  it('stores one entry on a miss and serves the next open from it', async () => {
    await expectSameAsJson(BUNDLED);
    const [entry] = await entries();
    expect(await entries()).toHaveLength(1);
    // Prove the second open reads the entry: a changed (still valid) entry shows through.
    const bytes = await readFile(entry);
    const infoLength = bytes.readUInt32LE(CHECKSUM_BYTES);
    const info = JSON.parse(bytes.toString('utf8', CHECKSUM_BYTES + 4, CHECKSUM_BYTES + 4 + infoLength));
    const edited = Buffer.from(bytes);
    const patched = JSON.stringify({ ...info, medianTokenLength: 7 }).padEnd(infoLength, ' ');
    expect(patched.length).toBe(infoLength);
    edited.write(patched, CHECKSUM_BYTES + 4, 'utf8');
    createHash('sha256').update(edited.subarray(CHECKSUM_BYTES)).digest().copy(edited, 0);
    await writeFile(entry, edited);
    expect((await openTokenizerFile(BUNDLED, 'hint')).medianTokenLength).toBe(7);
    await expectSameAsJson(BUNDLED);
  });

  it('hands its compiled tables to other threads in shared memory, which tokenize from them without the file (a miss and a hit)', async () => {
    const json = JSON.parse(await readFile(BUNDLED, 'utf8'));
    const fresh = createLineTokenizer(json);
    for (const opened of [await openTokenizerFile(BUNDLED, 'hint'), await openTokenizerFile(BUNDLED, 'hint')]) {
      const shared = opened.shared!;
      expect(shared.compiled.buffer).toBeInstanceOf(SharedArrayBuffer);
      expect(shared.meta).toEqual(opened.meta);
      expect(shared.medianTokenLength).toBe(opened.medianTokenLength);
      const tok = sharedTokenizerFile(shared).createTokenizer();
      for (const line of LINES) expect(Array.from(tok.encode(line))).toEqual(Array.from(fresh.encode(line)));
      // In another thread, from the shared bytes (no file read there).
      const file = new URL('../../../dist/src/model/tokenizer-file.js', import.meta.url).href;
      const ids = await new Promise<number[][]>((resolve, reject) => {
        const w = new Worker(`
          const { workerData, parentPort } = require('node:worker_threads');
          import(${JSON.stringify(file)}).then(({ sharedTokenizerFile }) => {
            const tok = sharedTokenizerFile(workerData.shared).createTokenizer();
            parentPort.postMessage(workerData.lines.map((l) => Array.from(tok.encode(l))));
          });`, { eval: true, workerData: { shared, lines: LINES } });
        w.once('message', resolve);
        w.once('error', reject);
      });
      expect(ids).toEqual(LINES.map((l) => Array.from(fresh.encode(l))));
    }
    expect(await entries()).toHaveLength(1);
  });

  it('names entries by the SHA-256 of tokenizer.json and a fingerprint of the compiling code', async () => {
    await openTokenizerFile(BUNDLED, 'hint');
    const digest = createHash('sha256').update(await readFile(BUNDLED)).digest('hex');
    expect((await entries()).map((e) => path.basename(e))).toEqual([expect.stringMatching(new RegExp(`^${digest}-[0-9a-f]{16}-v2\\.bin$`))]);
  });

  it('keeps at most 24 entries, dropping the oldest when it adds one', async () => {
    const tokenizers = path.join(dir, 'tokenizers');
    await mkdir(tokenizers, { recursive: true });
    for (let i = 0; i < 30; i++) {
      const old = path.join(tokenizers, `old-${String(i).padStart(2, '0')}.bin`);
      await writeFile(old, 'x');
      await utimes(old, 1_000_000 + i, 1_000_000 + i);
    }
    await expectSameAsJson(BUNDLED);
    const left = (await entries()).map((e) => path.basename(e)).sort();
    expect(left).toHaveLength(24);
    expect(left.filter((n) => n.startsWith('old-'))).toEqual(Array.from({ length: 23 }, (_, i) => `old-${String(i + 7).padStart(2, '0')}.bin`));
  });

  it('rebuilds a damaged entry', async () => {
    await openTokenizerFile(BUNDLED, 'hint');
    const [entry] = await entries();
    const { size } = await stat(entry);
    await truncate(entry, Math.floor(size / 2));
    await expectSameAsJson(BUNDLED);
    expect((await readFile(entry)).length).toBe(size);
  });

  it('an entry with flipped bits is rebuilt, not used (7 of 8 such entries were accepted and changed distances)', async () => {
    await openTokenizerFile(BUNDLED, 'hint');
    const [entry] = await entries();
    const good = await readFile(entry);
    // One bit in each region: the checksum, the info length, the info JSON, and spread over the tables.
    const infoEnd = CHECKSUM_BYTES + 4 + good.readUInt32LE(CHECKSUM_BYTES);
    const positions = [5, CHECKSUM_BYTES + 1, infoEnd - 3, ...[0.2, 0.4, 0.6, 0.8, 0.999].map((f) => infoEnd + Math.floor((good.length - infoEnd) * f))];
    for (const at of positions) {
      const bad = Buffer.from(good);
      bad[at] ^= 0x10;
      await writeFile(entry, bad);
      await expectSameAsJson(BUNDLED);
      expect((await readFile(entry)).equals(good), `bit flipped at byte ${at} of ${good.length}`).toBe(true);
    }
  });

  it('a failed write (a full disk) leaves no temp file; stale temp files are swept on the next write', async () => {
    const tokenizers = path.join(dir, 'tokenizers');
    await mkdir(tokenizers, { recursive: true });
    const stale = path.join(tokenizers, 'left-by-a-crash.bin.123.456.tmp');
    const fresh = path.join(tokenizers, 'being-written.bin.789.1000.tmp');
    await writeFile(stale, 'partial');
    await writeFile(fresh, 'partial');
    await utimes(stale, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    // A full disk: the entry's write gets part of the way, then ENOSPC.
    fullDisk.on = true;
    await expectSameAsJson(BUNDLED);
    fullDisk.on = false;
    expect(fullDisk.failed).toBe(1);
    expect((await readdir(tokenizers)).sort()).toEqual([path.basename(fresh)]);
    await expectSameAsJson(BUNDLED);
    expect((await entries()).filter((e) => e.endsWith('.bin'))).toHaveLength(1);
  });

  it('works without a cache: turned off, or a directory that cannot be created', async () => {
    process.env.SIMGREP_CACHE_DIR = 'off';
    expect(tokenizerCacheDir()).toBeNull();
    await expectSameAsJson(BUNDLED);
    const blocker = path.join(dir, 'a-file');
    await writeFile(blocker, 'not a directory');
    process.env.SIMGREP_CACHE_DIR = blocker;
    await expectSameAsJson(BUNDLED);
    expect(await readdir(dir)).toEqual(['a-file']);
  });

  it('names a tokenizer.json that is not JSON, and stores nothing', async () => {
    const bad = path.join(dir, 'tokenizer.json');
    await writeFile(bad, '{"model": ');
    await expect(openTokenizerFile(bad, 'Replace it.')).rejects.toMatchObject({ code: 'TOKENIZER_CORRUPT', message: expect.stringContaining('not valid JSON. Replace it.') });
    expect(await readdir(dir)).toEqual(['tokenizer.json']);
  });

  it.skipIf(!hasShared)('caches what a Unigram tokenizer needs and builds it from JSON', async () => {
    const unigram = path.join(model2vecFixtures, 'test-model-vocab-quantized', 'tokenizer.json');
    await expectSameAsJson(unigram);
    await expectSameAsJson(unigram);
    expect(await entries()).toHaveLength(1);
  });
});
