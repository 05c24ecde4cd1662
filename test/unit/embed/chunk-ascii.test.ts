// A scan's chunk scorer says whether a scored range's lines are all ASCII from the bytes it decodes them from
// (chunk-scoring.ts: node:buffer isAscii over the range's bytes), and the term counting takes its word for it
// (chunk-scorer.ts asciiLineHits). The test must cover the whole range: a range whose first lines are ASCII and
// a later one not (`retryé`: the fast path would count `retry` there, a word of another script's letters does
// not; `İ`: lower-cased, a longer text) is counted as the lines say, the same as when nothing is said.
import { describe, expect, it } from 'vitest';
import { scoreChunks } from '../../../src/embed/chunk-scoring.js';
import type { PoolingKernel } from '../../../src/embed/embedder.js';
import type { ChunkRequest, ScoreRequest } from '../../../src/embed/requests.js';
import { chunkStats } from '../../../src/rank/chunk-scorer.js';
import { lexicalScore, relevance, toDistance } from '../../../src/rank/relevance.js';
import { bundledLexicon } from '../../../src/rank/lexical/lexicon.js';
import { pathSignals } from '../../../src/rank/path-signals.js';
import { queryMode } from '../../../src/rank/query-mode.js';

// Lexical ranking neither tokenizes nor pools: these are never called.
const tokenize = (): never => { throw new Error('a lexical ranking tokenized'); };
const kernel = {} as PoolingKernel;

/** Each range: its file and lines (each range a file's first lines). */
const RANGES: [string, string[]][] = [
  ['src/net/client.ts', ['function send(x) {', '  return retry(upload(x));', '}']],
  ['src/net/queue.ts', ['// upload the queued files', 'const n = 1;', 'retryé upload', 'retryé']],
  ['src/net/places.ts', ['const retries = 3;', 'upload(x);', 'İİİİİİ upload', 'retry(x)']],
  ['src/net/plain.ts', ['retry the failed uploads', 'retry(upload)']],
];

describe("chunk scoring: whether a range's lines are ASCII", () => {
  it('is said of the whole range: a non-ASCII line after ASCII ones is counted as if nothing were said', async () => {
    const plan = queryMode('retry failed uploads', 'lexical', true, bundledLexicon()).rank!;
    const enc = new TextEncoder();
    const lines = RANGES.flatMap(([, l]) => l);
    const parts = lines.map((l) => enc.encode(`${l}\n`));
    const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    const offsets = new Uint32Array(lines.length + 1);
    parts.forEach((p, i) => { bytes.set(p, offsets[i]); offsets[i + 1] = offsets[i] + p.length; });
    const scoreRanges = new Uint32Array(RANGES.length * 2);
    let at = 0;
    RANGES.forEach(([, l], r) => { scoreRanges[2 * r] = at; at += l.length; scoreRanges[2 * r + 1] = at; });
    const c: ChunkRequest = { plan, rangeFirstLines: new Uint32Array(RANGES.length), rangePaths: RANGES.map(([p]) => p) };
    const req: ScoreRequest = { bytes, offsets, scoreRanges, query: new Float32Array(8), queryKey: 'q', ignoreCase: false, exhaustive: true, chunks: c };
    const got = await scoreChunks(req, c, tokenize, kernel);

    // What the chunk scorer writes from chunkStats when `ascii` is left undefined (the lines tested).
    const want = new Float32Array(lines.length).fill(NaN);
    RANGES.forEach(([file, l], r) => {
      const signals = pathSignals(file, plan);
      for (const k of chunkStats(l, 0, file, plan, signals)) {
        const line = k.best >= 0 ? k.best : k.first;
        if ((k.bm25 > 0 || k.symbol > 0) && line >= 0) want[scoreRanges[2 * r] + k.from + line] = toDistance(relevance(0, lexicalScore(k.bm25, plan), k.symbol, signals, plan));
      }
    });
    expect(Array.from(got)).toEqual(Array.from(want));
    // Every range is written, and the fast path's count of the `retryé` range is another (the test can tell).
    RANGES.forEach((_, r) => expect(Array.from(got.subarray(scoreRanges[2 * r], scoreRanges[2 * r + 1])).some((d) => d === d), `range ${r}`).toBe(true));
    const [file, queued] = RANGES[1];
    expect(chunkStats(queued, 0, file, plan, pathSignals(file, plan), true)[0].bm25).not.toBe(chunkStats(queued, 0, file, plan)[0].bm25);
  });
});
