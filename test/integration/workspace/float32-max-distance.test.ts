// --max-distance where no cosine weighs (lexical mode): the pipeline tests the float32 distance, so a chunk
// whose float64 distance is just past the limit but rounds below it is kept by the scan, and must be by the
// index (review of related32: a candidate-pass margin of 1e-9 left it out).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSearcher } from '../../../src/searcher.js';
import { createWorkspace, type Workspace } from '../../../src/workspace/workspace.js';
import { chunkStats } from '../../../src/rank/chunk-scorer.js';
import { lexicalScore, relevance, toDistance } from '../../../src/rank/relevance.js';
import { pathSignals } from '../../../src/rank/path-signals.js';
import { queryMode } from '../../../src/rank/query-mode.js';
import { bundledLexicon } from '../../../src/rank/lexical/lexicon.js';
import { mulberry32 } from '../../helpers/seeded.js';

const QUERY = 'castle river';
let tmp = '';
let tree = '';
let ws: Workspace;
const oneShot = createSearcher({ concurrency: 0 });
const files: { file: string; lines: string[] }[] = [];

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'review-f32-'));
  tree = path.join(tmp, 'tree');
  mkdirSync(tree, { recursive: true });
  const rnd = mulberry32(7);
  const filler = ['alpha', 'omega', 'delta', 'gamma', 'kappa', 'sigma'];
  for (let f = 0; f < 60; f++) {
    const lines: string[] = [];
    const n = 5 + Math.floor(rnd() * 30);
    for (let i = 0; i < n; i++) {
      const words: string[] = [];
      const w = 1 + Math.floor(rnd() * 8);
      for (let j = 0; j < w; j++) { const r = rnd(); words.push(r < 0.12 ? 'castle' : r < 0.2 ? 'river' : filler[Math.floor(rnd() * filler.length)]); }
      lines.push(`// ${words.join(' ')}`);
    }
    const file = path.join(tree, `f${String(f).padStart(2, '0')}.ts`);
    writeFileSync(file, lines.join('\n') + '\n');
    files.push({ file, lines });
  }
  ws = createWorkspace({ dir: path.join(tmp, 'ws'), concurrency: 0 });
  await ws.index([tree]);
});
afterAll(async () => { await ws?.close(); await oneShot.close(); rmSync(tmp, { recursive: true, force: true }); });

const names = (r: { results: { filename: string; match_line: number }[] }) => r.results.map((x) => `${path.basename(x.filename)}:${x.match_line}`).sort();

it('lexical, --max-distance between a chunk\'s float32 and float64 distance: index answer = scan answer', async () => {
  const plan = queryMode(QUERY, 'lexical', true, bundledLexicon()).rank!;
  // Each file's (one) chunk distance in float64, as the workers work it out before the Float32Array.
  // (The ranking reads each path below the searched directory: score45.)
  const d64 = files.map(({ file, lines }) => {
    const rank = path.relative(tree, file);
    const [s] = chunkStats(lines, 0, rank, plan);
    return toDistance(relevance(0, lexicalScore(s.bm25, plan), s.symbol, pathSignals(rank, plan), plan));
  });
  // Check the formula against the scan's (float32) distances.
  const all = await oneShot.search({ query: QUERY, mode: 'lexical', paths: [tree], maxDistance: 0.9999, nLines: 0, merge: false });
  let checked = 0;
  for (const r of all.results) { const i = files.findIndex((x) => x.file === r.filename); expect(r.distance).toBe(Math.fround(d64[i])); checked++; }
  expect(checked).toBeGreaterThan(20);
  // A chunk that is not the best whose float32 distance rounds down by more than 3e-9.
  const least = Math.min(...d64);
  const x = d64.findIndex((d) => d > least && d < 1 && d - Math.fround(d) > 3e-9);
  expect(x).toBeGreaterThanOrEqual(0);
  const maxDistance = d64[x] - 2e-9;
  const opts = { query: QUERY, mode: 'lexical' as const, paths: [tree], maxDistance, nLines: 0 };
  const scan = await oneShot.search(opts);
  const indexed = await ws.search(opts);
  expect(indexed.stats.index?.workspace).toBeDefined();
  expect(names(indexed)).toEqual(names(scan));
});
