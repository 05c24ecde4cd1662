// The candidate pass works out the term chunks' BM25s from the query terms' postings a term at a time
// (term-counts.ts termBm25s) where a plan has at most WALK_TERMS terms, and lays the counts out per chunk
// past it: either way it picks the same chunks with the same counts, and where it walks (a compacted
// snapshot, or an appended one whose changed files sit after the last chunk) it lays out no entry per chunk.
import { afterEach, describe, expect, it } from 'vitest';
import { bundledLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan } from '../../../src/rank/plan.js';
import { toFloat16 } from '../../../src/workspace/packed/float16.js';
import { cosineKernelNow } from '../../../src/workspace/search/chunk-cosines.js';
import { selectCandidates, type CandidateCounts } from '../../../src/workspace/search/candidates.js';
import { setTermWalk, WALK_TERMS } from '../../../src/workspace/search/term-counts.js';
import { emptySnapshot, patchSnapshot, type ChunkRow, type Snapshot } from '../../../src/workspace/snapshot/snapshot.js';
import { TermCollector } from '../../../src/workspace/snapshot/term-collector.js';
import { mulberry32 } from '../../helpers/seeded.js';
import { idents } from '../../helpers/snapshots.js';

const DIM = 32;
const WORDS = ['retry', 'upload', 'failed', 'config', 'parse', 'session', 'token', 'cache', 'file', 'handler', 'request', 'queue', 'worker'];
const rnd = mulberry32(31);
const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
const unit = (v: Float32Array) => { const norm = Math.hypot(...v); return v.map((x) => x / norm); };
const centers = Array.from({ length: 5 }, () => Float32Array.from({ length: DIM }, () => rnd() - 0.5));

/** Chunks of the files: some words repeated (a count past 1), some paths holding query words. */
function changes(keys: string[], dropped: Set<string>) {
  const terms = new TermCollector();
  const rows: ChunkRow[] = [];
  for (const key of keys) {
    const center = pick(centers);
    for (let c = 0; c < 3; c++) {
      const text = Array.from({ length: Math.floor(rnd() * 6) }, () => (rnd() < 0.6 ? pick(WORDS) : `x${Math.floor(rnd() * 40)}`)).join(' ');
      const defs = rnd() < 0.2 ? [`${pick(WORDS)}Handler`] : [];
      terms.add(rows.length, idents(terms, `${text} ${defs.join(' ')}`));
      terms.addDefs(rows.length, defs);
      rows.push({ path: key, start: c * 48, end: c * 48 + 48, hasTokens: rnd() > 0.05, chars: 100 + Math.floor(rnd() * 1200), blank: rnd() < 0.03, defs, halves: toFloat16(unit(center.map((x) => x + 0.8 * (rnd() - 0.5)))) });
    }
  }
  const files = keys.map((key) => ({ key, size: 1, mtime: 2, hash: `${key}${rows.length}`, kind: 'text' as const, lines: 144 }));
  return { dropChunksOf: dropped, dropFiles: new Set<string>(), files, rows, terms };
}

// In key order, as an index lists them: each term's postings then ascend by chunk.
const keys = Array.from({ length: 150 }, (_, f) => `/t/${f % 5 === 0 ? `${pick(WORDS)}-dir` : `mod-${f % 7}`}/${f % 3 === 0 ? pick(WORDS) : 'part'}-${f}.ts`).sort();
const compacted = patchSnapshot(emptySnapshot(DIM, '1.1'), changes(keys, new Set()), '1.1');
// A few files changed: their new chunks appended after the last one, the files no longer in chunk order.
const changed = keys.filter((_, f) => f % 17 === 3);
const appended = patchSnapshot(compacted, changes(changed, new Set(changed)), '1.2', { compactAbove: 0.5 });

afterEach(() => setTermWalk(true));

function run(s: Snapshot, text: string, mode: 'hybrid' | 'semantic' | 'lexical', heapSize: number, query: Float32Array, walk: boolean) {
  setTermWalk(walk);
  const counts = {} as CandidateCounts;
  const display = s.files.map((f) => f.key.slice(3));
  const picked = selectCandidates(s, { plan: buildRankPlan(text, mode, bundledLexicon(), 1, 64), query, display, heapSize, resident: true }, counts);
  return { picked, counts };
}

describe('the candidate pass walks the term postings in chunk order', () => {
  it('picks what laying the counts out per chunk picks, with the same counts, and lays none out where it walks', () => {
    expect(cosineKernelNow(compacted.halves, DIM)).not.toBeNull();
    expect(appended.files.some((f, i) => i > 0 && f.firstChunk < appended.files[i - 1].firstChunk)).toBe(true);
    // Past WALK_TERMS terms (a plan of more than the default 24): laid out per chunk.
    const long = [...WORDS, ...Array.from({ length: WALK_TERMS }, (_, i) => `zeta${String.fromCharCode(97 + i)}word`)].join(' ');
    expect(buildRankPlan(long, 'hybrid', bundledLexicon(), 1, 64).terms.length).toBeGreaterThan(WALK_TERMS);
    let walked = 0;
    let laidOut = 0;
    for (const [name, s] of [['compacted', compacted], ['appended', appended]] as const) {
      for (const text of ['retry failed uploads', 'parse the config file', 'session token cache handler', 'upload', 'RetryHandler', long]) {
        for (const mode of ['hybrid', 'semantic', 'lexical'] as const) {
          for (const heapSize of [4, 15, 60]) {
            const query = unit(pick(centers).map((x) => x + 0.5 * (rnd() - 0.5)));
            const a = run(s, text, mode, heapSize, query, true);
            const b = run(s, text, mode, heapSize, query, false);
            const what = `${name} ${mode} "${text.slice(0, 30)}" heap ${heapSize}`;
            expect(a.picked, what).toEqual(b.picked);
            expect({ ...a.counts, laidOut: 0 }, what).toEqual({ ...b.counts, laidOut: 0 });
            if (mode === 'semantic') continue;
            expect(b.counts.laidOut, what).toBeGreaterThan(0);
            // Walked: a plan of at most WALK_TERMS terms, over a compacted or an appended snapshot.
            if (text !== long) { expect(a.counts.laidOut, what).toBe(0); walked++; } else { expect(a.counts.laidOut, what).toBe(b.counts.laidOut); laidOut++; }
          }
        }
      }
    }
    expect(walked).toBe(60);
    expect(laidOut).toBe(12);
  });
});
