// An int8 table read row by row as its tokens are met (src/model/lazy-rows.ts): every consumer sees the
// rows a whole read gives, including tokens first met late (a second text, a second query); the rest is
// read on demand; a model file changed under it is an error, never zeros.
import { closeSync, cpSync, mkdtempSync, openSync, read, readFileSync, readdirSync, readlinkSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLineScorer } from '../../../src/embed/line-scorer.js';
import { cachedPrincipalDirections } from '../../../src/embed/directions-cache.js';
import { principalDirections } from '../../../src/embed/prune-basis.js';
import { bundledModelDir } from '../../../src/model/default-model.js';
import { completeRows, rowsComplete } from '../../../src/model/lazy-rows.js';
import { loadModel } from '../../../src/model/load.js';
import { createSearcher } from '../../../src/searcher.js';
import type { ModelData } from '../../../src/types.js';

let whole: ModelData;
let scratch = '';
beforeAll(async () => {
  whole = await loadModel(bundledModelDir());
  scratch = mkdtempSync(path.join(tmpdir(), 'simgrep-lazy-rows-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const rowsIn = (m: ModelData) => m.lazyRows!.loaded.subarray(0, m.rows).reduce((n, x) => n + (x === 1 ? 1 : 0), 0);
const fileA = ['export async function retryUpload(file: File, attempts = 3) {', '  for (let i = 0; i < attempts; i++) {', '    try { return await send(file); } catch (e) { await sleep(backoff(i)); }', '  }', '}'];
const fileB = ['# Configuration', '', 'The parser validates the YAML schema before the server starts listening.', 'Environment variables override the defaults: 東京 café naïve.'];

describe('a table read row by row', () => {
  it('is laid out unread, and every scorer call answers as over the whole table, tokens met late included', async () => {
    const lazy = await loadModel(bundledModelDir(), { lazyRows: true });
    expect(whole.lazyRows).toBeUndefined();
    expect(lazy.table).toBeInstanceOf(Int8Array);
    expect(rowsComplete(lazy)).toBe(false);
    expect(rowsIn(lazy)).toBe(0);
    const a = await createLineScorer(whole, 'static');
    const b = await createLineScorer(lazy, 'static');
    // One text, then another whose tokens are new, then a second query: each as the whole table answers.
    for (const texts of [['retry the failed upload'], fileA, fileB, ['validate the config schema'], [...fileA, ...fileB]]) {
      expect([...await b.embedTexts(texts)]).toEqual([...await a.embedTexts(texts)]);
      expect([...b.knownTexts(texts)]).toEqual([...a.knownTexts(texts)]);
      const [ta, tb] = [a.tokenLines(texts), b.tokenLines(texts)];
      expect([...tb.norms]).toEqual([...ta.norms]);
    }
    const bytes = Buffer.from(fileA.concat(fileB).join('\n'));
    const offsets = Uint32Array.from([0, ...fileA.concat(fileB).map((_, i, all) => Buffer.byteLength(all.slice(0, i + 1).join('\n')) + (i + 1 < all.length ? 1 : 0))]);
    const req = { bytes, offsets, chunkStarts: Uint32Array.from([0, 3, fileA.length + fileB.length]) };
    expect([...await b.chunkSums(req)]).toEqual([...await a.chunkSums(req)]);
    // A few rows read, not the table.
    expect(rowsIn(lazy)).toBeGreaterThan(20);
    expect(rowsIn(lazy)).toBeLessThan(lazy.rows / 50);
    // The pruning directions' sampled rows are read in before they are summed.
    expect(cachedPrincipalDirections(lazy, 24, null)).toEqual(principalDirections(whole, 24));
    await completeRows(lazy);
    expect(rowsComplete(lazy)).toBe(true);
    expect(Buffer.compare(new Uint8Array(lazy.table.buffer), new Uint8Array(whole.table.buffer))).toBe(0);
  });

  it('a model file changed while in use fails the read with MODEL_CORRUPT, never leaves zeros', async () => {
    const dir = path.join(scratch, 'copy');
    cpSync(bundledModelDir(), dir, { recursive: true });
    const lazy = await loadModel(dir, { lazyRows: true });
    const scorer = await createLineScorer(lazy, 'static');
    await scorer.embedTexts(['retry the failed upload']);
    // Written again in place (same inode, same size: `cp` over it) with other rows, as another version of the model would be.
    const file = path.join(dir, 'model.safetensors');
    const bytes = readFileSync(file);
    const header = 8 + Number(bytes.readBigUInt64LE(0));
    const at = header + JSON.parse(bytes.toString('utf8', 8, header)).embeddings.data_offsets[0];
    for (let i = at; i < at + lazy.rows * lazy.dim; i++) bytes[i] = (256 - bytes[i]) & 0xff;
    writeFileSync(file, bytes);
    await expect((async () => scorer.embedTexts(['parse the yaml schema']))()).rejects.toMatchObject({ code: 'MODEL_CORRUPT' });
    await expect(completeRows(lazy)).rejects.toMatchObject({ code: 'MODEL_CORRUPT' });
  });

  it('a read whose open fails leaves no row marked read: the same text fails again, or answers as the whole table once the file is back', async () => {
    const dir = path.join(scratch, 'away');
    cpSync(bundledModelDir(), dir, { recursive: true });
    const lazy = await loadModel(dir, { lazyRows: true });
    const [a, b] = [await createLineScorer(whole, 'static'), await createLineScorer(lazy, 'static')];
    const file = path.join(dir, 'model.safetensors');
    const texts = ['parse the yaml schema before the server starts'];
    renameSync(file, `${file}.away`);
    await expect((async () => b.embedTexts(texts))()).rejects.toMatchObject({ code: 'MODEL_CORRUPT' });
    renameSync(`${file}.away`, file);
    const again = await (async () => b.embedTexts(texts))().then((v) => [...v], (e: { code?: string }) => e.code);
    if (typeof again === 'string') expect(again).toBe('MODEL_CORRUPT');
    else expect(again).toEqual([...await a.embedTexts(texts)]);
    expect(lazy.lazyRows!.loaded.subarray(0, lazy.rows).every((x) => x !== 2)).toBe(true);
  });

  it('keeps no file open between reads: an unclosed searcher, and one closed during its search, hold no handle on the model file', async () => {
    const model = realpathSync(path.join(bundledModelDir(), 'model.safetensors'));
    const held = () => readdirSync('/proc/self/fd').filter((fd) => { try { return readlinkSync(`/proc/self/fd/${fd}`) === model; } catch { return false; } }).length;
    const before = held();
    const unclosed = [createSearcher({ concurrency: 2 }), createSearcher({ concurrency: 2 })];
    for (const s of unclosed) await s.searchContent({ query: 'retry upload', content: 'we retry the upload\nnothing\n' });
    expect(held()).toBe(before);
    const content = Array.from({ length: 3000 }, (_, i) => `line ${i} we retry the upload of file${i} with token${i * 7} zebra${i}`).join('\n');
    for (const wait of [0, 5, 20, 60]) {
      const s = createSearcher({ concurrency: 2 });
      const p = s.searchContent({ query: 'retry upload', content }).catch(() => undefined);
      await new Promise((r) => setTimeout(r, wait));
      await s.close();
      await p;
    }
    await new Promise((r) => setTimeout(r, 200));
    expect(held()).toBe(before);
    await Promise.all(unclosed.map((s) => s.close()));
  });

  it('close() while the rest of the table is read (queued on libuv\'s threads) leaves the read its own file: the table is the whole read\'s', async () => {
    const dir = path.join(scratch, 'fdreuse');
    cpSync(bundledModelDir(), path.join(dir, 'model'), { recursive: true });
    const other = path.join(dir, 'other.bin');
    writeFileSync(other, Buffer.alloc(50 << 20, 0x7f));
    // Every thread of libuv's pool held by a read of a FIFO that nothing writes yet: the table's read waits behind them.
    const fifos = Array.from({ length: 16 }, (_, i) => path.join(dir, `fifo${i}`));
    for (const f of fifos) execFileSync('mkfifo', [f]);
    const s = createSearcher({ model: path.join(dir, 'model'), concurrency: 0 });
    await s.searchContent({ query: 'validate yaml schema', content: 'the parser validates the yaml schema\n' });
    const held = fifos.map((f) => openSync(f, 'r+'));
    for (const fd of held) read(fd, Buffer.alloc(4), 0, 4, null, () => {});
    const m = s.model();
    await s.close();
    const reused = openSync(other, 'r'); // the number a closed handle had, if one was closed
    for (const f of fifos) writeFileSync(f, 'go');
    const loaded = await m;
    expect(rowsComplete(loaded)).toBe(true);
    expect(Buffer.compare(new Uint8Array(loaded.table.buffer), new Uint8Array(whole.table.buffer))).toBe(0);
    for (const fd of [reused, ...held]) closeSync(fd);
  });
});
