// The shipped prose line rule (rank/prose.ts: the line's own BM25, its window's, its grams' and the
// cosine) recomputed from a question's per-line counts, for loss-probe.ts's variants (loss-variants.ts).
import type { RankPlan } from '../../src/rank/plan.js';

export interface Q {
  cos: Float64Array; w: number; lens: number[]; tf: Float64Array[]; gtf: Float64Array[];
  lines: string[]; plan: RankPlan; query: string;
  vecs: { v: Float32Array; dim: number; mean: Float64Array }; qv: Float32Array; cos2: Float64Array;
  freq: { docs: number; chars: number; df: Float64Array; gdf: Float64Array };
}

export interface Opts { k1?: number; b?: number; ctx?: number; gramW?: number; gw?: Float64Array; tw?: Float64Array }

export const idfOf = (df: number, n: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));

/** Per line: own BM25, window BM25, gram BM25 (raw), with the norms. */
export function fields(q: Q, o: Opts = {}) {
  const k1 = o.k1 ?? 0.6; const b = o.b ?? 0.5;
  const { docs, chars, df, gdf } = q.freq;
  const n = q.tf.length; const nT = q.tf[0]?.length ?? 0; const nG = q.gtf[0]?.length ?? 0;
  const top = idfOf(0, docs);
  const idf = Array.from(df, (d, t) => idfOf(d, docs) * (o.tw ? o.tw[t] : 1));
  const gidf = Array.from(gdf, (d, g) => idfOf(d, docs) * (o.gw ? o.gw[g] : 1));
  const avg = chars / Math.max(1, docs);
  const bm = (row: (t: number) => number, len: number, w: number[], cnt: number) => {
    const k = k1 * (1 - b + (b * len) / avg);
    let s = 0;
    for (let t = 0; t < cnt; t++) { const f = row(t); if (f > 0) s += w[t] * (f * (k1 + 1)) / (f + k); }
    return s;
  };
  const own = new Float64Array(n); const win = new Float64Array(n); const gram = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    own[i] = bm((t) => q.tf[i][t], q.lens[i], idf, nT);
    if (!(own[i] > 0)) continue;
    const lo = Math.max(0, i - 1); const hi = Math.min(n - 1, i + 1);
    let wl = 0; for (let j = lo; j <= hi; j++) wl += q.lens[j];
    win[i] = bm((t) => { let f = 0; for (let j = lo; j <= hi; j++) f += q.tf[j][t]; return f; }, wl / 3, idf, nT);
    gram[i] = bm((g) => q.gtf[i][g], q.lens[i], gidf, nG);
  }
  return { own, win, gram, norm: (o.tw ? o.tw.reduce((a, x) => a + x, 0) : nT) * top, gnorm: (o.gw ? o.gw.reduce((a, x) => a + x, 0) : nG) * top, idf, gidf };
}

/**
 * The rule before rank31 (each field saturated alone, x / (x + norm), then averaged: 0.772 / 0.859 on
 * ids 0-39 / 40-79, the bench's `--mode hybrid` column then); loss-variants.ts's variants change it.
 */
export function before(q: Q, o: Opts = {}): Float64Array {
  return scored(q, o, (f, i, own, ctx, gw) => {
    const words = (1 - ctx) * (own / (own + f.norm)) + ctx * (f.win[i] / (f.win[i] + f.norm));
    return f.gnorm > 0 ? (1 - gw) * words + gw * (f.gram[i] / (f.gram[i] + f.gnorm)) : words;
  });
}

/** The shipped score (rank/prose.ts proseLexical: the fields over their norms added, then saturated once; the bench's `--mode hybrid` column). */
export function ship(q: Q, o: Opts = {}): Float64Array {
  return scored(q, o, (f, i, own, ctx, gw) => {
    const words = (1 - ctx) * (own / f.norm) + ctx * (f.win[i] / f.norm);
    const sum = f.gnorm > 0 ? (1 - gw) * words + gw * (f.gram[i] / f.gnorm) : words;
    return sum / (sum + 1);
  });
}

/** Each line's score under one lexical rule: the cosine and the rule's lexical part, weighted by q.w (0 where the line holds no term). */
function scored(q: Q, o: Opts, lexical: (f: ReturnType<typeof fields>, i: number, own: number, ctx: number, gw: number) => number): Float64Array {
  const f = fields(q, o);
  const ctx = o.ctx ?? 0.5; const gw = o.gramW ?? 0.5;
  return f.own.map((own, i) => {
    const lex = own > 0 && f.norm > 0 ? lexical(f, i, own, ctx, gw) : 0;
    return q.w * Math.max(0, q.cos[i]) + (1 - q.w) * lex;
  });
}
