// The shipped prose line rule with the query's numbers (rank/prose.ts), recomputed from a question's
// per-line counts (loss-fields.ts `fields`), and the table of its variants that grid-probe.ts measures
// (one-step moves of each constant here; grid-variants.ts adds others).
import { textNumbers } from '../../src/rank/lexical/words.js';
import { fields, type Opts, type Q } from './loss-fields.js';
import { fileFrequencies } from './probe-table.js';

export interface GridOpts extends Opts { wx?: number }

/** The shipped rule (fields added over their norms, saturated once, fused with the cosine) under `o`. */
export function rule(q: Q, o: GridOpts = {}): Float64Array {
  const f = fields(q, o);
  const ctx = o.ctx ?? 0.5; const gw = o.gramW ?? 0.5; const w = q.w * (o.wx ?? 1);
  return f.own.map((own, i) => {
    let lex = 0;
    if (own > 0 && f.norm > 0) {
      const words = (1 - ctx) * (own / f.norm) + ctx * (f.win[i] / f.norm);
      const sum = f.gnorm > 0 ? (1 - gw) * words + gw * (f.gram[i] / f.gnorm) : words;
      lex = sum / (sum + 1);
    }
    return w * Math.max(0, q.cos[i]) + (1 - w) * lex;
  });
}

/** The question's numbers (textNumbers, distinct) as terms after the plan's, as rank/prose.ts counts them. */
export function withNumbers(q: Q): Q {
  const nums = [...new Set(textNumbers(q.query))];
  if (nums.length === 0) return q;
  const at = new Map(nums.map((n, k) => [n, k]));
  const nT = q.plan.terms.length;
  const tf = q.tf.map((row, i) => {
    const out = new Float64Array(nT + nums.length); out.set(row);
    if (q.lens[i] === 0) return out;
    for (const n of textNumbers(q.lines[i])) { const k = at.get(n); if (k !== undefined) out[nT + k]++; }
    return out;
  });
  return { ...q, tf, freq: fileFrequencies({ lens: q.lens, tf, gtf: q.gtf }) };
}

export const GRID_VARIANTS: Record<string, (q: Q) => Float64Array> = { ship: (q) => rule(q) };
const V = GRID_VARIANTS;
for (const wx of [0, 2, 3, 4]) V[`wx${wx}`] = (q) => rule(q, { wx });
for (const ctx of [0.3, 0.4, 0.6]) V[`ctx${ctx}`] = (q) => rule(q, { ctx });
for (const gramW of [0.3, 0.4, 0.6]) V[`gw${gramW}`] = (q) => rule(q, { gramW });
for (const k1 of [0.4, 0.9, 1.2]) V[`k1-${k1}`] = (q) => rule(q, { k1 });
for (const b of [0.3, 0.75]) V[`b${b}`] = (q) => rule(q, { b });
