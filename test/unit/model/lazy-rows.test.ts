// An int8 table read row by row as its tokens are met (src/model/lazy-rows.ts): every consumer sees the
// rows a whole read gives, including tokens first met late (a second text, a second query); the rest is
// read on demand; a model file changed under it is an error, never zeros.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLineScorer } from '../../../src/embed/line-scorer.js';
import { cachedPrincipalDirections } from '../../../src/embed/directions-cache.js';
import { principalDirections } from '../../../src/embed/prune-basis.js';
import { bundledModelDir } from '../../../src/model/default-model.js';
import { completeRows, releaseRows, rowsComplete } from '../../../src/model/lazy-rows.js';
import { loadModel } from '../../../src/model/load.js';
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
    releaseRows(lazy.lazyRows);
    const file = path.join(dir, 'model.safetensors');
    writeFileSync(file, readFileSync(file));
    await expect((async () => scorer.embedTexts(['parse the yaml schema']))()).rejects.toMatchObject({ code: 'MODEL_CORRUPT' });
    await expect(completeRows(lazy)).rejects.toMatchObject({ code: 'MODEL_CORRUPT' });
  });
});
