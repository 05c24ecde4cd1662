// A prose file of one piece is counted where it is scored (issue 30: counting every Markdown file's
// document frequencies was a quarter of the scan's main thread): the pipeline sends it whole without
// its statistics (rank/prose-file.ts) and the scorer counts them (embed/prose-counting.ts). Its lines
// get the very distances they get with the statistics counted by the pipeline, and a file none of
// whose lines can beat pruneAbove is left unscored, as the pipeline leaves it unsent.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLineScorer, type LineScorer } from '../../../src/embed/line-scorer.js';
import type { ScoreRequest } from '../../../src/embed/requests.js';
import { normalizeInPlace } from '../../../src/embed/unit.js';
import { bundledModelDir } from '../../../src/model/default-model.js';
import { loadModel } from '../../../src/model/load.js';
import { bundledLexicon } from '../../../src/rank/lexical/lexicon.js';
import { ProseCounter } from '../../../src/rank/prose-counter.js';
import { ProseFile } from '../../../src/rank/prose-file.js';
import type { ProseStats } from '../../../src/rank/prose.js';
import { queryMode } from '../../../src/rank/query-mode.js';
import { decodeLines } from '../../../src/text/decode.js';
import type { Piece } from '../../../src/text/line-splitter.js';
import { repoRoot } from '../../helpers/shared.js';

const DOCS = ['README.md', 'docs/agents.md', 'docs/cli.md', 'docs/models.md'].map((f) => readFileSync(path.join(repoRoot, f), 'utf8').split('\n').slice(0, 160));
const QUERIES = ['how does an agent get its first answer', 'install the command line tool', 'model download cache'];

function encode(lines: string[]): { bytes: Uint8Array; offsets: Uint32Array } {
  const enc = new TextEncoder();
  const parts = lines.map((l) => enc.encode(`${l}\n`));
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  const offsets = new Uint32Array(lines.length + 1);
  parts.forEach((p, i) => { bytes.set(p, offsets[i]); offsets[i + 1] = offsets[i] + p.length; });
  return { bytes, offsets };
}

/** The documents as one batch, one score range each; their statistics given (`stats`) or to be counted by the scorer. */
function request(query: Float32Array, queryText: string, stats: ProseStats[] | 'count', pruneAbove?: number): ScoreRequest {
  const { bytes, offsets } = encode(DOCS.flat());
  const ranges: number[] = [];
  let at = 0;
  for (const d of DOCS) { ranges.push(at, at + d.length); at += d.length; }
  const plan = queryMode(queryText, 'hybrid', true, bundledLexicon()).rank!;
  return {
    bytes, offsets, scoreRanges: Uint32Array.from(ranges), query, queryKey: queryText, ignoreCase: false,
    pruneAbove, exhaustive: pruneAbove === undefined,
    chunks: {
      plan, rangeFirstLines: new Uint32Array(DOCS.length), rangePaths: DOCS.map((_, i) => `docs/doc${i}.md`),
      rangeProse: stats === 'count' ? DOCS.map(() => null) : stats, rangeLines: Uint32Array.from(ranges),
      ...(stats === 'count' && { rangeCount: new Uint8Array(DOCS.length).fill(1) }),
    },
  };
}

/** Each document's statistics as the pipeline counts a file counted whole. */
function counted(queryText: string): ProseStats[] {
  const plan = queryMode(queryText, 'hybrid', true, bundledLexicon()).rank!;
  return DOCS.map((d) => { const c = new ProseCounter(plan); c.add(d); return c.stats(); });
}

describe('prose files counted where they are scored', () => {
  let scorer: LineScorer;
  beforeAll(async () => { scorer = await createLineScorer(await loadModel(bundledModelDir()), 'static'); });

  it('gives every line the distance it has with the statistics counted by the pipeline', async () => {
    for (const q of QUERIES) {
      const query = normalizeInPlace(await scorer.embedTexts([q]));
      const given = await scorer.score(request(query, q, counted(q)));
      const here = await scorer.score(request(query, q, 'count'));
      expect(given.some((d) => d < 1)).toBe(true);
      expect([...here]).toEqual([...given]);
    }
  });

  it('leaves a document none of whose lines can beat pruneAbove unscored, and scores the others as the pipeline would', async () => {
    let skipped = 0;
    for (const q of QUERIES) {
      const query = normalizeInPlace(await scorer.embedTexts([q]));
      const all = await scorer.score(request(query, q, counted(q)));
      // A floor between the documents' best lines: some cannot reach it.
      const bests = DOCS.map((_, k) => Math.min(...[...all.subarray(...bounds(k))].filter((d) => d === d)));
      const prune = [...bests].sort((a, b) => a - b)[1];
      const given = await scorer.score(request(query, q, counted(q), prune));
      const here = await scorer.score(request(query, q, 'count', prune));
      for (let i = 0; i < here.length; i++) {
        // What the pipeline keeps (a distance under the floor) is the same; what is unscored here could not beat it.
        if (given[i] < prune || here[i] < prune) expect(here[i]).toBe(given[i]);
      }
      for (let k = 0; k < DOCS.length; k++) if ([...here.subarray(...bounds(k))].every((d) => d !== d)) skipped++;
    }
    expect(skipped).toBeGreaterThan(0);
  });
});

describe('ProseFile', () => {
  const plan = queryMode('first answer', 'hybrid', true, bundledLexicon()).rank!;
  const piece = (lines: string[], firstLine: number): Piece => ({ ...encode(lines), firstLine, scoreFrom: 0, scoreTo: lines.length });

  it('releases a file of one piece uncounted, for the scorer to count', () => {
    const f = new ProseFile(plan);
    expect(f.push(piece(DOCS[1], 0))).toEqual([]);
    const out = f.end();
    expect(out).toHaveLength(1);
    expect(f.countWhereScored).toBe(true);
    expect(f.stats).toBeNull();
    expect(f.bestDistance('docs/agents.md')).toBe(0);
  });

  it('counts a file of several pieces itself, the first piece too', () => {
    const f = new ProseFile(plan);
    const [a, b] = [DOCS[1].slice(0, 80), DOCS[1].slice(80)];
    expect(f.push(piece(a, 0))).toEqual([]);
    expect(f.push(piece(b, 80))).toEqual([]);
    expect(f.end()).toHaveLength(2);
    expect(f.countWhereScored).toBe(false);
    const c = new ProseCounter(plan);
    c.add(decodeLines(encode(DOCS[1]).bytes, encode(DOCS[1]).offsets, 0, DOCS[1].length));
    expect(f.stats).toEqual(c.stats());
  });
});

function bounds(k: number): [number, number] {
  const from = DOCS.slice(0, k).reduce((n, d) => n + d.length, 0);
  return [from, from + DOCS[k].length];
}
