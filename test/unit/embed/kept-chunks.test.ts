// A resident scorer's kept chunks (src/embed/kept-chunks.ts, issue 30: a warm index-backed search
// tokenized and pooled its candidate chunks again on the main thread): a chunk scored before under the
// same key gives the very distances a fresh scorer gives; another key (the file's state changed) or
// another model's scorer never takes what was kept; the store drops the least recently used. Chunks
// warmed before any search scored them (their exact sums alone) give the same distances.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { KeptChunks } from '../../../src/embed/kept-chunks.js';
import { createLineScorer, type LineScorer } from '../../../src/embed/line-scorer.js';
import type { ScoreRequest } from '../../../src/embed/requests.js';
import { normalizeInPlace } from '../../../src/embed/unit.js';
import { loadModel } from '../../../src/model/load.js';
import { bundledModelDir } from '../../../src/model/default-model.js';
import { bundledLexicon } from '../../../src/rank/lexical/lexicon.js';
import { queryMode } from '../../../src/rank/query-mode.js';
import type { ModelData } from '../../../src/types.js';
import { hasShared, model2vecFixtures, repoRoot } from '../../helpers/shared.js';

const FILES = ['src/rank/topk.ts', 'src/embed/static.ts', 'src/workspace/search/candidates.ts'].map((f) => readFileSync(path.join(repoRoot, f), 'utf8').split('\n'));
const QUERIES = ['bounded top-k heap', 'how are token rows pooled into a vector', 'quickSelect'];

/** The files as one batch, one score range each (from file line 0), keyed by `keys` (none: a scan's pieces). */
function request(files: string[][], query: Float32Array, queryText: string, keys?: string[], pruneAbove?: number): ScoreRequest {
  const enc = new TextEncoder();
  const lines = files.flat();
  const parts = lines.map((l) => enc.encode(`${l}\n`));
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  const offsets = new Uint32Array(lines.length + 1);
  parts.forEach((p, i) => { bytes.set(p, offsets[i]); offsets[i + 1] = offsets[i] + p.length; });
  const ranges: number[] = [];
  let at = 0;
  for (const f of files) { ranges.push(at, at + f.length); at += f.length; }
  const plan = queryMode(queryText, 'hybrid', true, bundledLexicon()).rank!;
  return {
    bytes, offsets, scoreRanges: Uint32Array.from(ranges), query, queryKey: queryText, ignoreCase: false,
    pruneAbove, exhaustive: pruneAbove === undefined,
    chunks: { plan, rangeFirstLines: new Uint32Array(files.length), rangePaths: files.map((_, i) => `src/file${i}.ts`), ...(keys && { rangeKeys: keys }) },
  };
}

/**
 * Warms a resident scorer with every chunk of the files (cut at multiples of the plan's chunk lines), keyed
 * as scoreChunks keys them: their sums made by `by` (a worker's scorer, as warm-chunks.ts has the pool make them).
 */
async function warm(resident: LineScorer, by: LineScorer, files: string[][], keys: string[]): Promise<boolean> {
  const size = queryMode('x', 'hybrid', true, bundledLexicon()).rank!.chunkLines;
  const enc = new TextEncoder();
  for (let i = 0; i < files.length; i++) {
    const f = files[i];
    const parts = f.map((l) => enc.encode(`${l}\n`));
    const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    const offsets = new Uint32Array(f.length + 1);
    parts.forEach((p, j) => { bytes.set(p, offsets[j]); offsets[j + 1] = offsets[j] + p.length; });
    const starts = Array.from({ length: Math.ceil(f.length / size) }, (_, c) => c * size);
    const sums = await by.chunkSums({ bytes, offsets, chunkStarts: Uint32Array.from([...starts, f.length]) });
    if (!resident.keepSums(starts.map((from) => `c${keys[i]}:${from}:${Math.min(f.length, from + size) - from}`), sums)) return false;
  }
  return true;
}

async function queryOf(scorer: LineScorer, text: string): Promise<Float32Array> {
  const q = await scorer.embedTexts([text]);
  normalizeInPlace(q);
  return q;
}

/** The lines whose distances can enter a top-k whose floor is `floor`, with their distances. */
const within = (d: Float32Array, floor: number) => [...d].map((x, i) => [i, x] as const).filter(([, x]) => x <= floor);

async function expectKeptEqualsFresh(model: ModelData): Promise<void> {
  const fresh = await createLineScorer(model, 'static');
  const resident = await createLineScorer(model, 'static', true);
  try {
    for (const text of QUERIES) {
      const query = await queryOf(fresh, text);
      const expected = await fresh.score(request(FILES, query, text));
      // The first call keeps the chunks, the second (and a query after another) scores from them: bit for bit.
      expect(await resident.score(request(FILES, query, text, ['a', 'b', 'c']))).toEqual(expected);
      expect(await resident.score(request(FILES, query, text, ['a', 'b', 'c']))).toEqual(expected);
      // Pruned (a full top-k's floor): a kept chunk is cut on its exact cosine, not the kernel's bound,
      // so only lines that cannot enter may differ.
      const floor = 0.75;
      const pruned = await fresh.score(request(FILES, query, text, undefined, floor));
      expect(within(await resident.score(request(FILES, query, text, ['a', 'b', 'c'], floor)), floor)).toEqual(within(pruned, floor));
    }
  } finally {
    await Promise.all([fresh.close(), resident.close()]);
  }
}

let bundled: ModelData;
beforeAll(async () => { bundled = await loadModel(bundledModelDir(), { offline: true }); });

describe('kept chunks: a resident scorer\'s candidate chunks scored again from their kept tokens and sums (issue 30)', () => {
  it('give the fresh distances bit for bit, on the bundled model', async () => {
    await expectKeptEqualsFresh(bundled);
  });

  it.skipIf(!hasShared)('the same on a vocab-quantized model (mapping and weights)', async () => {
    await expectKeptEqualsFresh(await loadModel(path.join(model2vecFixtures, 'test-model-vocab-quantized')));
  });

  it('are used under their key only: a file whose state changed is scored fresh', async () => {
    const resident = await createLineScorer(bundled, 'static', true);
    const fresh = await createLineScorer(bundled, 'static');
    try {
      const text = 'how are token rows pooled into a vector';
      const query = await queryOf(fresh, text);
      const before = await resident.score(request([FILES[1]], query, text, ['state 1']));
      const changed = [FILES[1].map((l) => l.replace(/acc/g, 'sum').replace(/table/g, 'grid'))];
      const expected = await fresh.score(request(changed, query, text));
      expect(expected).not.toEqual(before);
      // Under the old key the kept chunks stand for the file's lines (the key is the index's state of
      // the file, which changes with it), so the changed lines score otherwise than fresh...
      expect(await resident.score(request(changed, query, text, ['state 1']))).not.toEqual(expected);
      // ... and under their new state nothing kept is used.
      expect(await resident.score(request(changed, query, text, ['state 2']))).toEqual(expected);
      // A worker's scorer (not asked to keep chunks) keeps none.
      const worker = await createLineScorer(bundled, 'static');
      await worker.score(request([FILES[1]], query, text, ['state 1']));
      expect(await worker.score(request(changed, query, text, ['state 1']))).toEqual(expected);
      await worker.close();
    } finally {
      await Promise.all([fresh.close(), resident.close()]);
    }
  });

  it.skipIf(!hasShared)('are per model: another model\'s scorer never takes them', async () => {
    const other = await loadModel(path.join(model2vecFixtures, 'test-model-vocab-quantized'));
    const a = await createLineScorer(bundled, 'static', true);
    const b = await createLineScorer(other, 'static', true);
    const bFresh = await createLineScorer(other, 'static');
    try {
      const text = 'bounded top-k heap';
      await a.score(request(FILES, await queryOf(a, text), text, ['a', 'b', 'c']));
      const query = await queryOf(b, text);
      expect(await b.score(request(FILES, query, text, ['a', 'b', 'c']))).toEqual(await bFresh.score(request(FILES, query, text)));
    } finally {
      await Promise.all([a.close(), b.close(), bFresh.close()]);
    }
  });

  it('warmed before any search (their sums alone) give the fresh distances bit for bit, closest lines included', async () => {
    const fresh = await createLineScorer(bundled, 'static');
    const resident = await createLineScorer(bundled, 'static', true);
    const changed = FILES.map((f) => f.map((l) => l.replace(/acc/g, 'sum').replace(/table/g, 'grid').replace(/heap/g, 'pile')));
    const stale = await createLineScorer(bundled, 'static', true);
    try {
      // Every chunk of the three files, keyed as scoreChunks keys a piece's chunk (case kept, its key, first line, line count).
      expect(await warm(resident, fresh, FILES, ['a', 'b', 'c'])).toBe(true);
      // Warmed from other lines under the same keys: a scorer that uses what was warmed answers otherwise.
      expect(await warm(stale, fresh, changed, ['a', 'b', 'c'])).toBe(true);
      // The last query has no term in these files: every chunk shows its line closest to the query.
      for (const text of [...QUERIES, 'zebra migration across the savanna']) {
        const query = await queryOf(fresh, text);
        const expected = await fresh.score(request(FILES, query, text));
        expect(await resident.score(request(FILES, query, text, ['a', 'b', 'c']))).toEqual(expected);
        expect(await resident.score(request(FILES, query, text, ['a', 'b', 'c']))).toEqual(expected); // tokens kept now where a line was wanted
        // (A query naming an identifier ranks by its words alone: no sum is used.)
        if (text.includes(' ')) expect(await stale.score(request(FILES, query, text, ['a', 'b', 'c']))).not.toEqual(expected);
        const floor = 0.75;
        const pruned = await fresh.score(request(FILES, query, text, undefined, floor));
        expect(within(await resident.score(request(FILES, query, text, ['a', 'b', 'c'], floor)), floor)).toEqual(within(pruned, floor));
      }
      // A worker's scorer keeps none.
      const worker = await createLineScorer(bundled, 'static');
      expect(await warm(worker, fresh, FILES, ['a', 'b', 'c'])).toBe(false);
      await worker.close();
    } finally {
      await Promise.all([fresh.close(), resident.close(), stale.close()]);
    }
  });

  it('warms while its warm store has room, and no further', () => {
    const kept = new KeptChunks(1 << 20, 2.2 * 1024 * 64 * 8); // two pages of 1,024 sums of 64 dimensions, and the keys
    const sum = new Float64Array(64).fill(0.5);
    let n = 0;
    while (kept.warm(`k${n}`, sum)) n++;
    expect(n).toBeGreaterThan(1024);
    expect(n).toBeLessThan(2048);
    expect(kept.get('k0')?.sum).toEqual(sum);
    expect(kept.get('k0')?.ids).toBeNull();
    expect(kept.get(`k${n}`)).toBeUndefined();
  });

  it('drops stale warmed sums and warms new ones into their slots, within the same pages', () => {
    const kept = new KeptChunks(1 << 20, 2.2 * 1024 * 64 * 8);
    const sumOf = (x: number) => new Float64Array(64).fill(x);
    for (let i = 0; i < 1000; i++) expect(kept.warm(`old${i}`, sumOf(i))).toBe(true);
    const bytes = kept.warmedBytes;
    // Round after round, the old half goes and as many new ones come: the store stays in its one page.
    for (let round = 0; round < 8; round++) {
      const stale = round === 0 ? (k: string) => k.startsWith('old') && Number(k.slice(3)) % 2 === 0 : (k: string) => k.startsWith(`r${round - 1}:`);
      expect(kept.dropWarmed(stale)).toBe(500);
      for (let i = 0; i < 500; i++) expect(kept.warm(`r${round}:${i}`, sumOf(-i))).toBe(true);
      expect(kept.warmedChunks).toBe(1000);
      expect(kept.warmedBytes).toBeLessThanOrEqual(bytes + 500 * 4);
    }
    expect(kept.get('old2')).toBeUndefined();
    expect(kept.hasSum('old3')).toBe(true);
    expect(kept.get('old3')?.sum).toEqual(sumOf(3));
    expect(kept.get('r7:499')?.sum).toEqual(sumOf(-499));
    expect(kept.get('r6:0')).toBeUndefined();
  });

  it('drops the least recently used chunk past its bound', () => {
    const chunk = () => ({ ids: new Int32Array(100), lineStarts: new Uint32Array(11), sum: new Float64Array(64) });
    const kept = new KeptChunks(64 * 1200); // one chunk may take a 64th: 1,200 bytes (each here ~1,100)
    for (let i = 0; i < 80; i++) kept.set(`k${i}`, chunk());
    expect(kept.get('k0')).toBeUndefined();
    expect(kept.get('k79')).toBeDefined();
    expect(kept.size).toBeLessThan(80);
    kept.set('big', { ...chunk(), ids: new Int32Array(1000) });
    expect(kept.get('big')).toBeUndefined();
  });
});
