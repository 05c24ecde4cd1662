// The candidate pass (issue 30) passes over what cannot reach the results (a file's term-free chunks
// as a whole, term chunks one by one, on their best case) and picks exactly the chunks it picks when it
// bounds every chunk: every mode, heap size and --max-distance, whole and partial coverage, cosines from
// the SIMD kernel (bounds of them first) or the float16 rows. And it does pass over most of them, and
// works out few cosines where the kernel bounds them.
import { describe, expect, it } from 'vitest';
import { bundledLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan } from '../../../src/rank/plan.js';
import { toFloat16 } from '../../../src/workspace/packed/float16.js';
import { cosineKernelNow } from '../../../src/workspace/search/chunk-cosines.js';
import { selectCandidates, type CandidateCounts } from '../../../src/workspace/search/candidates.js';
import { definitionBounds, setMergedNames } from '../../../src/workspace/search/definition-bounds.js';
import { emptySnapshot, patchSnapshot, type ChunkRow } from '../../../src/workspace/snapshot/snapshot.js';
import { TermCollector } from '../../../src/workspace/snapshot/term-collector.js';
import { mulberry32 } from '../../helpers/seeded.js';
import { idents } from '../../helpers/snapshots.js';

const DIM = 32;
const WORDS = ['retry', 'upload', 'failed', 'config', 'parse', 'session', 'token', 'cache', 'file', 'handler', 'request', 'queue', 'worker'];
const NAMES = ['retryUpload', 'parseConfig', 'SessionStore', 'cacheToken', 'upload_file', 'handleRequest', 'QueueWorker'];

function unit(v: Float32Array): Float32Array {
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

function snapshot() {
  const rnd = mulberry32(30);
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
  const centers = Array.from({ length: 6 }, () => Float32Array.from({ length: DIM }, () => rnd() - 0.5));
  const terms = new TermCollector();
  const rows: ChunkRow[] = [];
  const keys: string[] = [];
  for (let f = 0; f < 240; f++) {
    // Paths that hold query words (in the directory or the name) and paths that hold none.
    const dir = f % 4 === 0 ? `how-to-${pick(WORDS)}-${f % 7}` : f % 4 === 1 ? `tests/mod-${f % 9}` : `mod-${f % 11}`;
    const key = `/t/${dir}/${f % 5 === 0 ? pick(WORDS) : 'file'}-${f}.${pick(['ts', 'py', 'go'])}`;
    keys.push(key);
    const center = pick(centers);
    for (let c = 0; c < 4; c++) {
      // Most chunks hold a query term or two; some none, some blank or without tokens.
      const text = Array.from({ length: Math.floor(rnd() * 4) }, () => (rnd() < 0.5 ? pick(WORDS) : `x${Math.floor(rnd() * 50)}`)).join(' ');
      const defs = rnd() < 0.2 ? [pick(NAMES)] : [];
      terms.add(rows.length, idents(terms, `${text} ${defs.join(' ')}`));
      terms.addDefs(rows.length, defs);
      const v = unit(center.map((x) => x + 0.8 * (rnd() - 0.5)));
      rows.push({ path: key, start: c * 48, end: c * 48 + 48, hasTokens: rnd() > 0.05, chars: 200 + Math.floor(rnd() * 1500), blank: rnd() < 0.03, defs, halves: toFloat16(v) });
    }
  }
  const files = keys.map((key) => ({ key, size: 1, mtime: 1, hash: key, kind: 'text' as const, lines: 192 }));
  return { snap: patchSnapshot(emptySnapshot(DIM, '1.1'), { dropChunksOf: new Set(), dropFiles: new Set(), files, rows, terms }, '1.1'), centers, rnd };
}

describe('selectCandidates by bounds', () => {
  it('picks what bounding every chunk picks, and bounds few chunks exactly', () => {
    const { snap, centers, rnd } = snapshot();
    const all = snap.files.map((f) => f.key.slice(3));
    const gaps = all.map((p, i) => (i % 7 < 2 ? undefined : p));
    // The same rows in an array of their own, which never gets a kernel: cosines read one by one.
    const rows = { ...snap, halves: Uint16Array.from(snap.halves) };
    expect(cosineKernelNow(snap.halves, DIM)).not.toBeNull();
    const total = { chunks: 0, bounded: 0, skippedFiles: 0, skippedTermChunks: 0, compared: 0, kernelChunks: 0, kernelCosines: 0 };
    for (const text of ['retry failed uploads', 'parse the config file', 'RetryUpload', 'upload', 'session token cache handler', 'tests for the queue worker']) {
      for (const mode of ['hybrid', 'semantic', 'lexical'] as const) {
        const plan = buildRankPlan(text, mode, bundledLexicon());
        for (const display of [all, gaps]) {
          for (const [heapSize, maxDistance] of [[5, undefined], [21, undefined], [60, undefined], [Infinity, 0.7], [Infinity, undefined], [10, 0.6]] as const) {
            const query = unit(centers[total.compared % centers.length].map((x) => x + 0.5 * (rnd() - 0.5)));
            for (const s of [snap, rows]) {
              const o = { plan, query, display, heapSize, maxDistance, resident: s === snap };
              const counts = {} as CandidateCounts;
              const picked = selectCandidates(s, o, counts);
              expect(picked, `${mode} "${text}" heap ${heapSize}`).toEqual(selectCandidates(s, { ...o, exhaustive: true }));
              total.compared++;
              if (Number.isFinite(heapSize)) {
                total.chunks += counts.chunks;
                total.bounded += counts.bounded;
                total.skippedFiles += counts.skippedFiles;
                total.skippedTermChunks += counts.skippedTermChunks;
                if (s === snap && mode !== 'lexical') { total.kernelChunks += counts.chunks; total.kernelCosines += counts.cosines; }
              }
            }
          }
        }
      }
    }
    expect(total.compared).toBe(432);
    // With a bounded heap, most chunks are passed over, whole files' term-free chunks and term chunks alike.
    expect(total.bounded).toBeLessThan(total.chunks * 0.5);
    expect(total.skippedFiles).toBeGreaterThan(1000);
    expect(total.skippedTermChunks).toBeGreaterThan(100);
    // With the kernel's bounds of the cosines, few chunks have their cosine worked out (main: every covered one).
    expect(total.kernelCosines).toBeLessThan(total.kernelChunks * 0.3);
  });

  it('keeps no float16 margin where no cosine weighs (lexical mode, a pasted block of names): the heap\'s worst cases and the chunks that can beat them, and no more', () => {
    const { snap, centers } = snapshot();
    const display = snap.files.map((f) => f.key.slice(3));
    // find_related's chunk: names and words, ranked by its words alone (semantic weight 0).
    const pasted = 'parseConfig handleRequest upload_file cacheToken retry failed uploads session token cache QueueWorker request queue worker handler config file parse the';
    expect(buildRankPlan(pasted, 'hybrid', bundledLexicon()).weights.semantic).toBe(0);
    let probes = 0;
    let picks = 0;
    let heaps = 0;
    for (const [text, mode] of [['retry failed uploads', 'lexical'], ['parse the config file', 'lexical'], ['RetryUpload', 'lexical'], ['session token cache handler', 'lexical'], [pasted, 'hybrid'], [pasted, 'lexical']] as const) {
      const plan = buildRankPlan(text, mode, bundledLexicon());
      for (const heapSize of [5, 21, 60]) {
        const o = { plan, query: centers[0], display, heapSize };
        const picked = selectCandidates(snap, o);
        // As bounding every chunk picks; and the chunks that can enter a heap one larger include these (the threshold only falls with a smaller heap).
        expect(picked, `${mode} "${text.slice(0, 20)}" heap ${heapSize}`).toEqual(selectCandidates(snap, { ...o, exhaustive: true }));
        const more = new Set(selectCandidates(snap, { ...o, heapSize: heapSize + 1 }));
        expect(picked.every((c) => more.has(c))).toBe(true);
        probes++;
        picks += picked.length;
        heaps += heapSize;
      }
    }
    expect(probes).toBe(18);
    // The heap's chunks (this seeded tree has no ties at a heap's edge): the float16 margin (~1e-3 of a
    // distance) kept 12 more of 516. That no chunk the pipeline keeps is left out (it ranks float32
    // distances): float32-ties.test.ts and equivalence.test.ts.
    expect(picks - heaps).toBe(0);
  });

  it('bounds the definition boosts by merging the terms\' defined-name lists as the per-name sums do', () => {
    const { snap, centers, rnd } = snapshot();
    const display = snap.files.map((f) => f.key.slice(3));
    let compared = 0;
    let boosted = 0;
    // A pasted block's 24 terms (find_related's chunk) merge 24 lists; a symbol query offers no definition boost but its symbols' certain bounds.
    const pasted = 'parseConfig handleRequest upload_file cacheToken retry failed uploads session token cache QueueWorker request queue worker handler config file parse the';
    for (const text of ['retry failed uploads', 'RetryUpload', 'parseConfig handleRequest', 'upload_file cacheToken', 'session token cache', 'QueueWorker request', pasted]) {
      for (const mode of ['hybrid', 'lexical'] as const) {
        const plan = buildRankPlan(text, mode, bundledLexicon());
        // A symbol no chunk defines: no boost of its own.
        const summed = { ...plan, symbols: [...plan.symbols, { name: 'nochunkdefinesthis', strength: 1 }] };
        const bounds = (p: typeof plan, merged: boolean) => {
          setMergedNames(merged);
          try {
            const got = definitionBounds(snap, { plan: p, query: centers[0], display, heapSize: 10 }, p);
            return got && { possible: Array.from(got.possible), certain: Array.from(got.certain) };
          } finally {
            setMergedNames(true);
          }
        };
        const merged = bounds(plan, true);
        expect(merged, `${mode} "${text}"`).toEqual(bounds(plan, false));
        expect(bounds(summed, true), `${mode} "${text}" with a symbol`).toEqual(bounds(summed, false));
        if (merged && merged.possible.some((v) => v > 0)) boosted++;
        for (const heapSize of [3, 8, 21, 60]) {
          const query = unit(centers[compared % centers.length].map((x) => x + 0.5 * (rnd() - 0.5)));
          const o = { query, display, heapSize, resident: true };
          const a = {} as CandidateCounts;
          const b = {} as CandidateCounts;
          expect(selectCandidates(snap, { ...o, plan }, a), `${mode} "${text}" heap ${heapSize}`).toEqual(selectCandidates(snap, { ...o, plan: summed }, b));
          expect(a).toEqual(b);
          compared++;
        }
      }
    }
    expect(boosted).toBeGreaterThan(5);
  });
});
