// A source that knows its entries' path facts (a workspace's coverage: Entry.facts) hands them to the
// scorer with each range (ChunkRequest.rangeFacts), which ranks by them instead of working them out from
// the path again (rank/path-signals.ts pathFacts: its regular expressions per file, ~60 files a warm
// search). The facts are the path's own in every real source; here a path is given another path's facts,
// so a test that the scorer took them can see it.
import { describe, expect, it } from 'vitest';
import { scoreChunks } from '../../../src/embed/chunk-scoring.js';
import type { PoolingKernel } from '../../../src/embed/embedder.js';
import type { ChunkRequest, ScoreRequest } from '../../../src/embed/requests.js';
import { bundledLexicon } from '../../../src/rank/lexical/lexicon.js';
import { pathFacts } from '../../../src/rank/path-signals.js';
import { queryMode } from '../../../src/rank/query-mode.js';
import { runPipeline } from '../../../src/pipeline.js';
import type { Executor } from '../../../src/pool.js';
import type { Source } from '../../../src/sources/source.js';
import type { Piece } from '../../../src/text/line-splitter.js';
import type { PathFacts } from '../../../src/types.js';

const tokenize = (): never => { throw new Error('a lexical ranking tokenized'); };
const kernel = {} as PoolingKernel;
const LINES = ['export class BoundedHeap {', '  offer(distance: number) {', '    if (distance < this.floor) this.push(distance);', '  }', '}'];
const QUERY = 'bounded heap offer floor distance';
// A path the test-file prior (pathPriors) weighs down (a test/ directory); the others differ from it in
// directory names of the same length that hold no query term, so their path terms count the same.
const TEST_PATH = 'test/a/bounded_heap.ts';

function piece(): Piece {
  const enc = new TextEncoder();
  const parts = LINES.map((l) => enc.encode(`${l}\n`));
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  const offsets = new Uint32Array(parts.length + 1);
  parts.forEach((p, i) => { bytes.set(p, offsets[i]); offsets[i + 1] = offsets[i] + p.length; });
  return { bytes, offsets, firstLine: 0, scoreFrom: 0, scoreTo: LINES.length };
}

async function scored(file: string, facts?: PathFacts): Promise<number[]> {
  const plan = queryMode(QUERY, 'lexical', true, bundledLexicon()).rank!;
  const { bytes, offsets } = piece();
  const c: ChunkRequest = { plan, rangeFirstLines: Uint32Array.of(0), rangePaths: [file], ...(facts && { rangeFacts: [facts] }) };
  const req: ScoreRequest = { bytes, offsets, scoreRanges: Uint32Array.of(0, LINES.length), query: new Float32Array(8), queryKey: 'q', ignoreCase: false, exhaustive: true, chunks: c };
  return [...(await scoreChunks(req, c, tokenize, kernel))].filter((d) => d === d);
}

async function searched(path: string, facts?: PathFacts): Promise<number[]> {
  const plan = queryMode(QUERY, 'lexical', true, bundledLexicon()).rank!;
  const executor: Executor = { capacity: 1, score: async (req) => scoreChunks(req, req.chunks!, tokenize, kernel), embedTexts: async () => { throw new Error('a lexical ranking embedded'); } };
  const source: Source = {
    small: true,
    async *list() { yield facts ? { path, size: 100, facts } : { path, size: 100 }; },
    read: async () => { throw new Error('read through pieces()'); },
    async pieces() { return [piece()]; },
  };
  const r = await runPipeline({ sources: [source], executor, query: new Float32Array(8), queryKey: QUERY, topK: 3, nLines: 1, ignoreCase: false, rank: plan });
  return r.hits.map((h) => h.distance);
}

describe("the scorer takes a range's path facts where its source gave them", () => {
  it('scores a range by the facts it carries, not by its path', async () => {
    expect(queryMode(QUERY, 'lexical', true, bundledLexicon()).rank!.pathPriors).toBe(true);
    const asTest = await scored(TEST_PATH);
    // Each path asked once (the path's signals are kept per plan by path: its facts are its own in every real source).
    const plain = await scored('libs/b/bounded_heap.ts');
    expect(plain).not.toEqual(asTest);
    expect(await scored('libs/c/bounded_heap.ts', pathFacts(TEST_PATH))).toEqual(asTest);
    expect(await scored('libs/d/bounded_heap.ts', pathFacts('libs/d/bounded_heap.ts'))).toEqual(plain);
  });

  it("passes an entry's facts through the pipeline to the scorer (Entry.facts -> rangeFacts)", async () => {
    const asTest = await searched('test/e/bounded_heap.ts');
    const plain = await searched('libs/f/bounded_heap.ts');
    expect(asTest.length).toBeGreaterThan(0);
    expect(plain).not.toEqual(asTest);
    expect(await searched('libs/g/bounded_heap.ts', pathFacts('test/e/bounded_heap.ts'))).toEqual(asTest);
  });
});
