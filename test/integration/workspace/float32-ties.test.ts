// The candidate pass keeps every chunk the pipeline could keep where no cosine weighs (lexical mode): two
// chunks whose float64 distances differ by more than 1e-9 but round to one float32, at the edge of the heap
// (top 3: a heap of 22), tie in the pipeline, which breaks the tie by path (review of related32: a margin of
// 1e-9 left the earlier path out, and the top result flipped).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createSearcher } from '../../../src/searcher.js';
import { createWorkspace, type Workspace } from '../../../src/workspace/workspace.js';
import { chunkStats } from '../../../src/rank/chunk-scorer.js';
import { lexicalScore, relevance, toDistance } from '../../../src/rank/relevance.js';
import { pathSignals } from '../../../src/rank/path-signals.js';
import { queryMode } from '../../../src/rank/query-mode.js';
import { bundledLexicon } from '../../../src/rank/lexical/lexicon.js';
import { rounded } from '../../helpers/rounded.js';

const QUERY = 'castle river';
const tmp = mkdtempSync(path.join(tmpdir(), 'review-tie-'));
const tree = path.join(tmp, 'tree');
let ws: Workspace | undefined;
const oneShot = createSearcher({ concurrency: 0 });
afterAll(async () => { await ws?.close(); await oneShot.close(); rmSync(tmp, { recursive: true, force: true }); });

it('lexical top 3: a float32 tie at the heap\'s edge, index answer = scan answer', async () => {
  mkdirSync(tree, { recursive: true });
  const plan = queryMode(QUERY, 'lexical', true, bundledLexicon()).rank!;
  const dist = (lines: string[], first: number, file: string) => {
    const [s] = chunkStats(lines, first, file, plan);
    return toDistance(relevance(0, lexicalScore(s.bm25, plan), s.symbol, pathSignals(file, plan), plan));
  };
  const aa = path.join(tree, 'aa.ts');
  const zz = path.join(tree, 'zz.ts');
  const body = (f1: number, f2: number, L: number) => [...Array(f1).fill('// castle'), ...Array(f2).fill('// river'), `// ${'x'.repeat(L)}`];
  const cands: { d: number; key: [number, number, number] }[] = [];
  for (let f1 = 1; f1 <= 3; f1++) for (let f2 = 0; f2 <= 3; f2++) for (let L = 200; L < 3000; L++) cands.push({ d: dist(body(f1, f2, L), 48, aa), key: [f1, f2, L] });
  cands.sort((x, y) => x.d - y.d);
  let pick = -1;
  for (let i = 0; i + 1 < cands.length; i++) {
    const a = cands[i].d; const b = cands[i + 1].d;
    if (b - a > 5e-9 && Math.fround(a) === Math.fround(b) && a > 0.75) { pick = i; break; }
  }
  expect(pick).toBeGreaterThanOrEqual(0);
  const A = body(...cands[pick].key); const B = body(...cands[pick + 1].key);
  const dA = dist(A, 48, zz); const dB = dist(B, 48, aa);
  expect(Math.fround(dA)).toBe(Math.fround(dB));
  expect(dB - dA).toBeGreaterThan(1e-9);
  // aa.ts and zz.ts: a strong first chunk (48 lines), then A (zz, the better) or B (aa, the earlier path).
  const head = Array.from({ length: 48 }, (_, i) => (i % 2 ? '// castle river castle' : '// river'));
  writeFileSync(zz, [...head, ...A].join('\n') + '\n');
  writeFileSync(aa, [...head, ...B].join('\n') + '\n');
  // 19 chunks better than A and B, each its own file; 10 worse.
  for (let f = 0; f < 19; f++) {
    const lines = ['// castle river', '// castle', `// ${'y'.repeat(20 + f)}`];
    expect(dist(lines, 0, path.join(tree, `m${String(f).padStart(2, '0')}.ts`))).toBeLessThan(dA - 1e-4);
    writeFileSync(path.join(tree, `m${String(f).padStart(2, '0')}.ts`), lines.join('\n') + '\n');
  }
  for (let f = 0; f < 10; f++) {
    const lines = ['// river', `// ${'z'.repeat(3000 + 50 * f)}`];
    expect(dist(lines, 0, path.join(tree, `w${f}.ts`))).toBeGreaterThan(dB + 1e-4);
    writeFileSync(path.join(tree, `w${f}.ts`), lines.join('\n') + '\n');
  }
  ws = createWorkspace({ dir: path.join(tmp, 'ws'), concurrency: 0 });
  await ws.index([tree]);
  const opts = { query: QUERY, mode: 'lexical' as const, paths: [tree], topK: 3, nLines: 0 };
  const scan = await oneShot.search(opts);
  const indexed = await ws.search(opts);
  expect(indexed.stats.index?.workspace).toBeDefined();
  expect(rounded(indexed)).toEqual(rounded(scan));
});
