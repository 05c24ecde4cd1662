// One query through every configuration must print the same thing: in-process vs 1 or 2 workers,
// any batch size, and the pruned top-k path vs an exhaustive scan (pruning must be exact).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearcher } from '../../src/searcher.js';
import { type SearchResponse } from '../../src/searcher/api.js';
import { makeTree } from '../helpers/tree.js';
import { CANDIDATES_PER_RESULT, spreadAcrossFiles } from '../../src/rank/diversify.js';
import { RANK_DEFAULTS } from '../../src/rank/plan.js';

const WORDS = ['retry', 'upload', 'failed', 'parse', 'config', 'json', 'user', 'name', 'cache', 'timeout', 'error', 'file',
  'open', 'close', 'socket', 'server', 'request', 'response', 'token', 'list', 'map', 'index', 'query', 'table', 'render'];

function corpus(seed: number, files: number, lines: number): Record<string, string> {
  let s = seed;
  const rnd = () => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return s / 4294967296; };
  const pick = () => WORDS[Math.floor(rnd() * WORDS.length)];
  const out: Record<string, string> = {};
  for (let f = 0; f < files; f++) {
    const body = Array.from({ length: lines }, () => {
      const r = rnd();
      if (r < 0.1) return '';
      if (r < 0.2) return '}';
      return `  ${pick()}${pick()[0].toUpperCase()}${pick().slice(1)}(${pick()}); // ${pick()} ${pick()} ${pick()}`;
    });
    out[`d${f % 7}/f${f}.ts`] = body.join('\n');
  }
  return out;
}

let dir = '';
let cleanup = async () => {};
let expectedLines = 0;
beforeAll(async () => {
  const files = corpus(42, 60, 80);
  // A final empty line after the last newline is not a line (as in wc -l plus an unterminated tail).
  expectedLines = Object.values(files).reduce((n, t) => n + t.split('\n').length - (t.endsWith('\n') ? 1 : 0), 0);
  ({ dir, cleanup } = await makeTree(files));
});
afterAll(() => cleanup());

const strip = (r: SearchResponse) => r.results.map((x) => [x.filename, x.start, x.end, x.match_line, x.distance, x.lines.join('\n')]);

describe('determinism', () => {
  it.each(['line', 'semantic', 'hybrid', 'lexical'] as const)('%s: prints the same results for every executor, batch size and with or without pruning', async (mode) => {
    const query = { query: 'retry the failed upload after a timeout', paths: [dir], topK: 7, nLines: 1, mode };
    const runs: SearchResponse[] = [];
    for (const [concurrency, batchLines] of [[0, 2048], [0, 7], [1, 64], [2, 13], [2, 4096]] as const) {
      const s = createSearcher({ concurrency });
      try { runs.push(await s.search({ ...query, batchLines })); } finally { await s.close(); }
    }
    const exhaustive = createSearcher({ concurrency: 0 });
    try {
      // maxDistance 2 admits every line, so nothing can be pruned; then keep the best 7 by hand (chunk
      // modes: chosen from the same candidate pool the pipeline keeps, spread across files as it does).
      const all = await exhaustive.search({ ...query, topK: undefined, maxDistance: 2, merge: false });
      const ranked = all.results.map((r) => ({ path: r.filename, line: r.match_line, distance: r.distance, start: r.start, lines: r.lines }));
      const picked = mode === 'line' ? ranked.slice(0, 7)
        : spreadAcrossFiles(ranked.slice(0, 7 * CANDIDATES_PER_RESULT + 10), 7, RANK_DEFAULTS.fileDecay, RANK_DEFAULTS.fileCoherence);
      const best = picked.map((r) => [r.path, r.line, r.distance]);
      const pruned = runs[0];
      const prunedHits = pruned.results.flatMap((r) => r.matches.map((m) => [r.filename, m.line, m.distance]))
        .sort((a, b) => (a[2] as number) - (b[2] as number) || String(a[0]).localeCompare(String(b[0])) || (a[1] as number) - (b[1] as number));
      expect(prunedHits).toEqual(best);
    } finally { await exhaustive.close(); }
    expect(runs[0].results.length).toBeGreaterThan(0);
    for (const r of runs.slice(1)) expect(strip(r)).toEqual(strip(runs[0]));
    expect(runs.map((r) => r.stats.lines)).toEqual(runs.map(() => expectedLines));
  });
});
