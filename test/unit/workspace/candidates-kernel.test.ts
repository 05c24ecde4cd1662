// The candidate pass (issue 30) picks the same chunks whether its cosines come from the SIMD kernel over
// the float32 copy or from the float16 rows: over every file and over runs of covered files with gaps.
import { describe, expect, it } from 'vitest';
import { bundledLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan } from '../../../src/rank/plan.js';
import { toFloat16 } from '../../../src/workspace/packed/float16.js';
import { cosineKernel, cosineKernelNow } from '../../../src/workspace/search/chunk-cosines.js';
import { selectCandidates } from '../../../src/workspace/search/candidates.js';
import { emptySnapshot, patchSnapshot, type ChunkRow } from '../../../src/workspace/snapshot/snapshot.js';
import { TermCollector } from '../../../src/workspace/snapshot/term-collector.js';

function unit(v: Float32Array): Float32Array {
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

describe('selectCandidates with the cosine kernel', () => {
  it('keeps the same chunks as the scalar loop, for whole and partial coverage and several heap sizes', () => {
    const dim = 256;
    // Near-duplicate directions, so many chunks sit close to the threshold.
    const base = Float32Array.from({ length: dim }, (_, d) => Math.sin(d));
    const rows: ChunkRow[] = [];
    for (let f = 0; f < 120; f++) {
      for (let c = 0; c < 3; c++) {
        const v = unit(base.map((x, d) => x + 0.3 * Math.sin(f * 7.1 + c * 3.3 + d * 0.37)));
        rows.push({ path: `/t/src/file-${String(f).padStart(3, '0')}.ts`, start: c * 48, end: c * 48 + 48, hasTokens: (f + c) % 11 !== 0, chars: 900, blank: false, defs: [], halves: toFloat16(v) });
      }
    }
    const files = [...new Set(rows.map((r) => r.path))].map((key) => ({ key, size: 1, mtime: 1, hash: key, kind: 'text' as const, lines: 144 }));
    const snap = patchSnapshot(emptySnapshot(dim, '1.1'), { dropChunksOf: new Set(), dropFiles: new Set(), files, rows, terms: new TermCollector() }, '1.1');
    const all = snap.files.map((f) => f.key.slice(3));
    const gaps = all.map((p, i) => (i % 7 < 3 || (i > 40 && i < 70) ? undefined : p));
    // The same rows in an array of their own, which never gets a kernel: the scalar loop's.
    const plain = { ...snap, halves: Uint16Array.from(snap.halves) };
    expect(cosineKernelNow(snap.halves, dim)).not.toBeNull();
    let compared = 0;
    let narrowed = 0;
    for (const q of ['retry failed uploads', 'file']) {
      for (const mode of ['hybrid', 'semantic'] as const) {
        const plan = buildRankPlan(q, mode, bundledLexicon());
        for (const display of [all, gaps]) {
          for (const heapSize of [5, 21, 60, Infinity]) {
            // A query of its own each time (the pass reuses its work arrays from query to query).
            const query = unit(base.map((x, d) => x + 0.25 * Math.cos(d * 0.11 + compared + heapSize % 7)));
            const o = { plan, query, display, heapSize };
            const scalar = selectCandidates(plain, { ...o, resident: false });
            expect(cosineKernel(plain.halves, dim, false)).toBeNull();
            const simd = selectCandidates(snap, { ...o, resident: true });
            expect(simd).toEqual(scalar);
            compared++;
            if (scalar.length > 0 && scalar.length < 300) narrowed++;
          }
        }
      }
    }
    expect(narrowed).toBeGreaterThan(8);
  });
});
