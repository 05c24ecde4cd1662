// A lexical ranking's chunk whose distance the index knows exactly (candidates.ts: best case = worst case
// where no cosine weighs) is not counted line by line by the chunk scorer: its distance is written at the
// chunk's first line (the pipeline later counts the lines of the chunks it shows: pipeline/scoring.ts
// withBestLines). The distance is the one counting its lines gives, as a Float32; a range of more than
// one chunk, or a plan that embeds, is counted as before.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreChunks } from '../../../src/embed/chunk-scoring.js';
import type { PoolingKernel } from '../../../src/embed/embedder.js';
import type { ChunkRequest, ScoreRequest } from '../../../src/embed/requests.js';
import { chunkStats } from '../../../src/rank/chunk-scorer.js';
import { lexicalScore, relevance, toDistance } from '../../../src/rank/relevance.js';
import { bundledLexicon } from '../../../src/rank/lexical/lexicon.js';
import { pathSignals } from '../../../src/rank/path-signals.js';
import { queryMode } from '../../../src/rank/query-mode.js';
import { runPipeline } from '../../../src/pipeline.js';
import type { Executor } from '../../../src/pool.js';
import type { Hit } from '../../../src/rank/windows.js';
import type { Source } from '../../../src/sources/source.js';
import type { Piece } from '../../../src/text/line-splitter.js';
import { repoRoot } from '../../helpers/shared.js';

const FILE = readFileSync(path.join(repoRoot, 'src/workspace/search/threshold.ts'), 'utf8').split('\n');
const PATH = 'src/workspace/search/threshold.ts';
// Lexical ranking neither tokenizes nor pools: these are never called.
const tokenize = (): never => { throw new Error('a lexical ranking tokenized'); };
const kernel = {} as PoolingKernel;

function request(lines: string[], firstLine: number, mode: 'lexical' | 'hybrid', distance?: number): { req: ScoreRequest; c: ChunkRequest } {
  const enc = new TextEncoder();
  const parts = lines.map((l) => enc.encode(`${l}\n`));
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  const offsets = new Uint32Array(lines.length + 1);
  parts.forEach((p, i) => { bytes.set(p, offsets[i]); offsets[i + 1] = offsets[i] + p.length; });
  const plan = queryMode('bounded heap offer floor distance', mode, true, bundledLexicon()).rank!;
  const c: ChunkRequest = { plan, rangeFirstLines: Uint32Array.of(firstLine), rangePaths: [PATH], ...(distance !== undefined && { rangeDistances: Float64Array.of(distance) }) };
  return { req: { bytes, offsets, scoreRanges: Uint32Array.of(0, lines.length), query: new Float32Array(8), queryKey: 'q', ignoreCase: false, exhaustive: true, chunks: c }, c };
}

/** The non-NaN entries of a scorer's output: [line, distance]. */
const written = (out: Float32Array): [number, number][] => [...out].flatMap((d, i) => (d === d ? [[i, d] as [number, number]] : []));

describe('chunk scoring with distances known beforehand', () => {
  const size = queryMode('x', 'lexical', true, bundledLexicon()).rank!.chunkLines;
  // The file's chunk whose best line is farthest from its first: a known distance then shows where it was written.
  const starts = Array.from({ length: Math.ceil(FILE.length / size) }, (_, k) => k * size);

  it('writes a known chunk at its first line, the distance counting its lines gives', async () => {
    let checked = 0;
    for (const from of starts) {
      const lines = FILE.slice(from, from + size);
      const counted = request(lines, from, 'lexical');
      const full = written(await scoreChunks(counted.req, counted.c, tokenize, kernel));
      if (full.length !== 1 || full[0][0] === 0) continue;
      const { plan } = counted.c;
      const signals = pathSignals(PATH, plan);
      const [k] = chunkStats(lines, from, PATH, plan, signals);
      const d = toDistance(relevance(0, lexicalScore(k.bm25, plan), k.symbol, signals, plan));
      const known = request(lines, from, 'lexical', d);
      expect(written(await scoreChunks(known.req, known.c, tokenize, kernel))).toEqual([[0, full[0][1]]]);
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('counts the lines of a range of two chunks, known distance or not', async () => {
    const lines = FILE.slice(size - 4, size + 4);
    const counted = request(lines, size - 4, 'lexical');
    const known = request(lines, size - 4, 'lexical', 0.5);
    expect(written(await scoreChunks(known.req, known.c, tokenize, kernel))).toEqual(written(await scoreChunks(counted.req, counted.c, tokenize, kernel)));
  });
});

// The pipeline over pieces of one chunk each (as the index's candidate source hands them over): with their
// distances known, only the hits shown have their lines counted, and the answer is the one counting every
// chunk's lines gives, byte for byte (lines, windows, distances, order).
const FILES = ['src/workspace/search/threshold.ts', 'src/workspace/search/candidates.ts', 'src/rank/topk.ts', 'src/rank/diversify.ts', 'src/pipeline/scoring.ts'];

async function answer(query: string, topK: number, known: boolean, maxDistance?: number): Promise<{ hits: Hit[]; closestMiss: Hit | null; ranges: number; counted: number }> {
  const plan = queryMode(query, 'lexical', true, bundledLexicon()).rank!;
  const size = plan.chunkLines;
  const texts = new Map(FILES.map((f) => [f, readFileSync(path.join(repoRoot, f), 'utf8')]));
  const enc = new TextEncoder();
  let ranges = 0;
  let counted = 0;
  const executor: Executor = {
    capacity: 2,
    score: async (req) => {
      const c = req.chunks!;
      for (let r = 0; r < req.scoreRanges.length; r += 2) {
        ranges++;
        const d = c.rangeDistances?.[r >> 1];
        if (d === undefined || d !== d) counted++;
      }
      return scoreChunks(req, c, tokenize, kernel);
    },
    embedTexts: async () => { throw new Error('a lexical ranking embedded'); },
  };
  const source: Source = {
    small: true,
    async *list() { for (const f of FILES) yield { path: f, size: texts.get(f)!.length }; },
    read: async () => { throw new Error('read through pieces()'); },
    async pieces(entry, contextLines) {
      const lines = texts.get(entry.path)!.split('\n');
      const out: Piece[] = [];
      for (let start = 0; start < lines.length; start += size) {
        const end = Math.min(lines.length, start + size);
        const from = Math.max(0, start - contextLines);
        const to = Math.min(lines.length, end + contextLines);
        const parts = lines.slice(from, to).map((l) => enc.encode(`${l}\n`));
        const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
        const offsets = new Uint32Array(parts.length + 1);
        parts.forEach((p, i) => { bytes.set(p, offsets[i]); offsets[i + 1] = offsets[i] + p.length; });
        const piece: Piece = { bytes, offsets, firstLine: from, scoreFrom: start - from, scoreTo: end - from };
        if (known) {
          const signals = pathSignals(entry.path, plan);
          const [k] = chunkStats(lines.slice(start, end), start, entry.path, plan, signals);
          const d = toDistance(relevance(0, lexicalScore(k.bm25, plan), k.symbol, signals, plan));
          if (d < 1) piece.distance = d;
        }
        out.push(piece);
      }
      return out;
    },
  };
  const r = await runPipeline({ sources: [source], executor, query: new Float32Array(8), queryKey: query, topK, maxDistance, nLines: 2, ignoreCase: false, rank: plan });
  return { hits: r.hits, closestMiss: r.closestMiss, ranges, counted };
}

describe('the pipeline with distances known beforehand', () => {
  for (const [query, topK] of [['bounded heap offer floor distance', 3], ['candidate chunks threshold limit', 5], ['spread files decay coherence', 2]] as const) {
    it(`answers "${query}" as counting every chunk does, counting only the chunks it might show`, async () => {
      const all = await answer(query, topK, false);
      const few = await answer(query, topK, true);
      expect(all.hits.length).toBeGreaterThan(0);
      expect(JSON.stringify(few.hits)).toBe(JSON.stringify(all.hits));
      expect(all.counted).toBe(all.ranges);
      // Every chunk of no relevance is counted still (it has no known distance), the others are not.
      expect(few.counted).toBeLessThan(all.counted);
      // Some shown hit is not on its chunk's first line: the lines of the shown were counted.
      expect(few.hits.some((h) => h.line % queryMode(query, 'lexical', true, bundledLexicon()).rank!.chunkLines !== 0)).toBe(true);
    });
  }

  it('shows the closest miss at its best line when --max-distance leaves nothing', async () => {
    const all = await answer('spread files decay coherence', 3, false, 0.01);
    const few = await answer('spread files decay coherence', 3, true, 0.01);
    expect(all.hits).toEqual([]);
    expect(all.closestMiss).not.toBeNull();
    expect(few.closestMiss).toEqual(all.closestMiss);
    expect(few.closestMiss!.line % queryMode('x', 'lexical', true, bundledLexicon()).rank!.chunkLines).not.toBe(0);
  });
});
