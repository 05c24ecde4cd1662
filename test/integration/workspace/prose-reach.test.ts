// Regression (issue 30, warm search 85 -> 437 ms): every indexed search read and ranked every prose file
// line by line. Now a prose file whose postings hold no query term is read only while its best case
// (cosine 1, BM25 0) can still enter the top-k, and a prose file read whole whose best line (its best
// BM25, cosine 1) cannot enter it is not scored, in a scan as in the index; the answers stay exact.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { type SearchOptions, type SearchResponse } from '../../../src/searcher/api.js';
import { shardSearchOf } from '../../../src/searcher/seams.js';
import { candidateLimit } from '../../../src/rank/diversify.js';
import { sourcesForPaths } from '../../../src/sources/resolve.js';
import { keptLinesCounted } from '../../../src/workspace/search/kept-documents.js';
import { createWorkspace } from '../../../src/workspace/workspace.js';
import { makeTree } from '../../helpers/tree.js';
import { residentTree } from '../../helpers/resident-tree.js';
import { rounded } from '../../helpers/rounded.js';

/** Paths the workspace's reader was asked for (read or stream), search by search. */
const reads: string[] = [];
vi.mock('../../../src/sources/path-reader.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../src/sources/path-reader.js')>();
  return {
    createPathReader: (...args: Parameters<typeof real.createPathReader>) => {
      const r = real.createPathReader(...args);
      return {
        ...r,
        list: r.list.bind(r),
        read: (e: { path: string }, s?: AbortSignal) => { reads.push(e.path); return r.read(e as never, s); },
        ...(r.stream && { stream: (e: { path: string }, s?: AbortSignal) => { reads.push(e.path); return r.stream!(e as never, s); } }),
      };
    },
  };
});

/** ProseFile instances made per search: one per prose file the pipeline reads to score; `uncounted`: those with no statistics known up front (counted line by line first). */
let proseFiles = 0;
let uncounted = 0;
vi.mock('../../../src/rank/prose-file.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../src/rank/prose-file.js')>();
  class CountedProseFile extends real.ProseFile {
    constructor(...args: ConstructorParameters<typeof real.ProseFile>) { super(...args); proseFiles++; if (!args[1]) uncounted++; }
  }
  return { ...real, ProseFile: CountedProseFile };
});

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const WORDS = ['garden', 'tomato', 'soil', 'water', 'sunlight', 'compost', 'seed', 'harvest', 'weed', 'mulch', 'orchard', 'pruning', 'blossom', 'meadow'];
/** A document about gardening: none of the queries' words. */
const garden = (n: number) => Array.from({ length: 30 }, (_, i) => `The ${WORDS[(n + i) % WORDS.length]} needs ${WORDS[(n * 3 + i) % WORDS.length]} and ${WORDS[(n + 2 * i) % WORDS.length]} in spring ${n}.`).join('\n');
/** Code that retries failed uploads, in many chunks (it fills the top-k). */
const code = (n: number) => Array.from({ length: 6 }, (_, i) => [
  `export async function retryUpload${n}x${i}(file: string, attempts = ${i + 2}) {`,
  `  // retry failed uploads with a backoff (${n}.${i})`,
  '  for (let a = 0; a < attempts; a++) { if (await upload(file)) return true; }',
  '  throw new Error(`upload failed: ${file}`);',
  '}',
  ...Array.from({ length: 43 }, () => ''),
].join('\n')).join('\n');

const FILES: Record<string, string> = {
  'docs/uploads.md': ['# Uploads', '', 'Failed uploads are retried three times.', 'The garden is watered daily.', 'Retry after a failed upload waits a second.', ...Array.from({ length: 20 }, (_, i) => `Filler line ${i} about the meadow.`)].join('\n'),
  'notes/README': 'How to retry an upload that failed.\nNothing else.\n',
};
for (let n = 0; n < 24; n++) FILES[`docs/garden-${String(n).padStart(2, '0')}.md`] = garden(n);
for (let n = 0; n < 12; n++) FILES[`src/upload-${n}.ts`] = code(n);
/** Documents that hold a query word once, in a long line among gardening: their best line is weak. */
for (let n = 0; n < 16; n++) FILES[`docs/weak-${String(n).padStart(2, '0')}.md`] = `${garden(n + 50)}\nThe ${WORDS[n % WORDS.length]} shed got a new upload of seed catalogues, the compost was turned, the orchard was pruned and the meadow mown (${n}).`;
const GARDEN = Object.keys(FILES).filter((p) => p.includes('garden-'));

const t = residentTree(FILES);
const { scan } = t;

const shape = rounded;

/** The indexed answer (which must equal the scan's) and the garden documents it read. */
async function indexed(o: Omit<SearchOptions, 'paths'>): Promise<{ r: SearchResponse; gardenReads: number }> {
  const opts = { ...o, paths: [t.dir] };
  const expected = await scan.search(opts);
  reads.length = 0;
  const r = await t.ws.search(opts);
  expect(r.stats.index?.workspace).toBeDefined();
  expect(shape(r)).toEqual(shape(expected));
  expect(r.stats.files).toBe(expected.stats.files);
  return { r, gardenReads: reads.filter((p) => GARDEN.some((g) => p.endsWith(g))).length };
}

describe('prose files out of reach are not read (issue 30: warm search read every Markdown file)', () => {
  it('top-k bounded: documents holding no query word are skipped unread; the answer is the scan\'s', async () => {
    for (const query of ['retry failed uploads', 'where do we retry a failed upload']) {
      for (const o of [{ topK: 3 }, { topK: 5, nLines: 8, merge: false }, { perFile: 1, topK: 3 }, { filesWithMatches: true }]) {
        const { r, gardenReads } = await indexed({ query, ...o });
        expect(r.results.length).toBeGreaterThan(0);
        expect({ query, o, gardenReads }).toEqual({ query, o, gardenReads: 0 });
      }
    }
  });

  it('top-k unbounded (--max-distance alone) or within reach: every document is ranked, as a scan would', async () => {
    // Ranked from the bytes the build kept (a resident index), not read again.
    const { r: all } = await indexed({ query: 'retry failed uploads', maxDistance: 0.999 });
    // (The answer is the scan's: indexed() checks it; most garden documents have a line under the distance.)
    expect(GARDEN.filter((g) => all.results.some((x) => x.filename.endsWith(g))).length).toBeGreaterThan(GARDEN.length / 2);
    // A query of the documents' own topic: they hold its words and rank first.
    const { r } = await indexed({ query: 'water the tomato garden', topK: 5 });
    expect(r.results[0].filename).toMatch(/garden-\d+\.md$/);
  });

  it('documents holding no query word but within reach are ranked with their kept line terms\' statistics, not counted again first (branch warm30)', async () => {
    const opts = { query: 'retry failed uploads', maxDistance: 0.999 };
    await indexed(opts);
    await keptLinesCounted();
    proseFiles = 0;
    uncounted = 0;
    const { r } = await indexed(opts);
    // The scan (in indexed) counts every document it reads; the resident index none of its kept ones.
    const scanned = uncounted;
    uncounted = 0;
    proseFiles = 0;
    await t.ws.search({ ...opts, paths: [t.dir] });
    expect(GARDEN.filter((g) => r.results.some((x) => x.filename.endsWith(g))).length).toBeGreaterThan(GARDEN.length / 2);
    expect({ scanned, read: proseFiles, uncounted }).toEqual({ scanned: Object.keys(FILES).filter((f) => !f.endsWith('.ts')).length, read: expect.any(Number), uncounted: 0 });
    expect(proseFiles).toBeGreaterThan(GARDEN.length);
  });

  it('a scan keeps the very candidates an unbounded ranking puts first (documents skipped whole or not)', async () => {
    const kept = shardSearchOf(scan);
    const key = (h: { path: string; line: number; distance: number }) => `${h.path}:${h.line}:${h.distance}`;
    // simgrep's own docs: documents of every size that share many words, near the floor and far from it.
    const docs = path.join(repo, 'docs');
    for (const query of ['retry failed uploads', 'which mode should I use to search a document', 'how many tokens does an answer cost']) {
      for (const mode of ['hybrid', 'lexical'] as const) {
        const all = await kept(await sourcesForPaths([docs], {}), { query, mode, maxDistance: 1 });
        for (const topK of [1, 5]) {
          const top = await kept(await sourcesForPaths([docs], {}), { query, mode, topK });
          const limit = candidateLimit(topK, { fileDecay: 0 } as never);
          expect({ query, mode, topK, hits: top.hits.map(key) }).toEqual({ query, mode, topK, hits: all.hits.slice(0, limit).map(key) });
        }
      }
    }
  });

  it('a document read once is kept in memory until the index sees it change (then read again)', async () => {
    const opts = { query: 'retry failed uploads', paths: [t.dir], topK: 40 };
    const uploadReads = () => reads.filter((p) => p.endsWith('docs/uploads.md')).length;
    await t.ws.search(opts);
    reads.length = 0;
    await t.ws.search(opts);
    expect(uploadReads()).toBe(0);
    expect(JSON.stringify((await t.ws.search(opts)).results)).toContain('waits a second');
    writeFileSync(path.join(t.dir, 'docs/uploads.md'), FILES['docs/uploads.md'].replace('waits a second', 'waits a zephyr minute'));
    // A new handle walks and stats the files first (the resident one learns of the change from its watcher).
    const fresh = createWorkspace({ dir: path.join(t.dir, '.ws'), concurrency: 0 });
    try {
      reads.length = 0;
      const r = await fresh.search(opts);
      expect(uploadReads()).toBeGreaterThan(0);
      expect(shape(r)).toEqual(shape(await scan.search(opts)));
      expect(JSON.stringify(r.results)).toContain('zephyr');
    } finally {
      await fresh.close();
    }
  });

  it('lexical mode: a document without the words has no line that can match, even unbounded', async () => {
    const { gardenReads } = await indexed({ query: 'retry failed uploads', mode: 'lexical', maxDistance: 0.999 });
    expect(gardenReads).toBe(0);
  });

  it('a resident index keeps documents\' line terms: one holding a query word whose best line cannot enter the top-k is not read to be scored; the answer is the scan\'s', async () => {
    const query = 'retry failed uploads';
    for (const o of [{ topK: 3 }, { topK: 5, nLines: 8, merge: false }]) {
      await indexed({ query, ...o });
      // The documents a search read are counted after it, in the background.
      await keptLinesCounted();
      proseFiles = 0;
      const { r } = await indexed({ query, ...o });
      // The scan reads every document; the index only those whose best line can enter (uploads.md, README).
      const scanned = proseFiles;
      proseFiles = 0;
      await t.ws.search({ query, ...o, paths: [t.dir] });
      expect({ o, scanned, indexed: proseFiles }).toEqual({ o, scanned: Object.keys(FILES).filter((f) => !f.endsWith('.ts')).length, indexed: expect.any(Number) });
      expect(proseFiles).toBeLessThanOrEqual(2);
      expect(r.results.length).toBeGreaterThan(0);
    }
    // Documents within reach are still read and ranked by their lines, as a scan ranks them.
    proseFiles = 0;
    const { r } = await indexed({ query: 'new seed catalogues in the shed', topK: 5 });
    expect(r.results.map((x) => x.filename).filter((f) => /weak-\d+\.md$/.test(f)), JSON.stringify(r.results.map((x) => x.filename))).not.toEqual([]);
  });
  it('a resident index counts its documents\' line terms as it builds: its first search reads none out of reach (issue 30: the first warm searches read and counted every document)', async () => {
    const own = await makeTree(Object.fromEntries(Object.entries(FILES).filter(([f]) => !f.includes('garden-'))));
    const built = createWorkspace({ dir: path.join(own.dir, '.ws'), concurrency: 0, resident: true });
    try {
      await built.index([own.dir]);
      await keptLinesCounted();
      const opts = { query: 'retry failed uploads', topK: 3, paths: [own.dir] };
      const expected = await scan.search(opts);
      reads.length = 0;
      proseFiles = 0;
      const r = await built.search(opts);
      expect(shape(r)).toEqual(shape(expected));
      const docsRead = reads.filter((p) => !p.endsWith('.ts'));
      // 17 documents hold a query word; only the two whose best line can enter the top 3 are scored, none read.
      expect({ docsRead, scored: proseFiles }).toEqual({ docsRead: [], scored: expect.any(Number) });
      expect(proseFiles).toBeLessThanOrEqual(2);
    } finally {
      await built.close();
      await own.cleanup();
    }
  });

  it('kept documents bounded all at once (rank/prose-sweep.ts): one changed after its lines were counted is bounded by its new lines, before and after the lists are made again', async () => {
    const opts = { query: 'zephyr lantern', topK: 5 };
    await indexed(opts);
    await keptLinesCounted();
    const weak = (r: SearchResponse) => r.results.filter((x) => /weak-0[3-9]\.md$/.test(x.filename)).map((x) => x.filename.slice(-10));
    expect(weak((await indexed(opts)).r)).not.toContain('weak-03.md');
    // A weak document gains the answer's line: the index sees the change, the keeper counts its new lines
    // (bounded on its own: one changed among ~40 does not make the lists again), and its old lines bound nothing.
    const strong = (n: number) => `${garden(n + 50)}\nThe zephyr lantern uploads are retried (${n}).`;
    writeFileSync(path.join(t.dir, 'docs/weak-03.md'), strong(3));
    await t.ws.index([t.dir]);
    expect(weak((await indexed(opts)).r)).toContain('weak-03.md');
    await keptLinesCounted();
    expect(weak((await indexed(opts)).r)).toContain('weak-03.md');
    // Enough changed to make the lists again: the new lines are swept, the old ones gone.
    for (let n = 4; n < 10; n++) writeFileSync(path.join(t.dir, `docs/weak-${String(n).padStart(2, '0')}.md`), strong(n));
    writeFileSync(path.join(t.dir, 'docs/weak-03.md'), FILES['docs/weak-03.md']);
    await t.ws.index([t.dir]);
    await indexed(opts);
    await keptLinesCounted();
    const r = (await indexed(opts)).r;
    expect(weak(r)).toContain('weak-09.md');
    expect(weak(r)).not.toContain('weak-03.md');
    for (let n = 3; n < 10; n++) writeFileSync(path.join(t.dir, `docs/weak-${String(n).padStart(2, '0')}.md`), FILES[`docs/weak-${String(n).padStart(2, '0')}.md`]);
  });
});
