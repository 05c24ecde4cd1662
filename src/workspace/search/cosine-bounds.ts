// Upper bounds on a unit query's cosines with a snapshot's chunk vectors, for the candidate pass (issue
// 30): each row kept as int8 codes with a scale and the norm of what the codes miss, the query as int16
// codes, their integer dot products from a WebAssembly SIMD kernel (a quarter of the bytes and a fifth
// of the instructions of the float cosines), then Cauchy-Schwarz on the rest, summed by the kernel too (a
// loop here over the ~21,000 covered rows cost ~0.2 ms a search). A bound is within ~0.01 of the cosine,
// so only the chunks whose bound can reach the results get their cosine worked out.
import { halfValues } from '../packed/float16.js';
import { align16, compileOnce, instanceWith } from '../../wasm-simd.js';
import { boundDotsModuleBytes } from './bound-dots-wasm.js';

/**
 * Rows' bounds for one query. With a row x = s k + e (s its scale, k its int8 codes, e what they miss)
 * and the query q = t j + δ (t its scale, j its int16 codes), q.x = s t (j.k) + s (δ.k) + q.e, so
 *   q.x <= s t (j.k) + |δ| s |k| + |q| |e|
 * with j.k exact in int32. The float64 arithmetic of the bound and of the float cosine (chunk-cosines.ts:
 * a sum of exact products, ~1e-14 off the real dot product at most) is covered by a margin of 1e-9.
 */
export interface CosineBounds {
  /** Quantizes the rows whose first value is in [from, to) of the float16 values (a background slice). */
  quantize(h: Uint16Array, from: number, to: number): void;
  /** The query the next `bounds` calls use (dim numbers). */
  setQuery(query: Float32Array): void;
  /** out[r] >= the cosine of the query with row r, for rows r in [from, to). */
  bounds(from: number, to: number, out: Float64Array): void;
}

/** Slack of a bound over the float cosine, for the roundings of both (see CosineBounds). */
export const BOUND_SLACK = 1e-9;

const compiled = compileOnce(boundDotsModuleBytes);

/**
 * Bounds for `values` float16 values of rows of `dim`, before their rows are quantized; null where the
 * kernel does not fit (no WebAssembly SIMD, a dimension that is not a multiple of 16).
 */
export function emptyCosineBounds(values: number, dim: number): CosineBounds | null {
  const module = dim > 0 && dim % 16 === 0 ? compiled() : null;
  if (!module) return null;
  const n = values / dim;
  // The query's codes keep every row's sum (at most dim x 127 x qMax) inside int32.
  const qMax = Math.min(32767, Math.floor(0x7fffffff / (dim * 127)));
  // The memory: the rows' codes, the query's codes, the query's numbers (t, |δ|, |q|, slack), each row's
  // s, s |k| and |e| (Infinity for a row with a value that is not finite: no bound), the bounds.
  const qAt = align16(values);
  const pAt = align16(qAt + dim * 2);
  const rowsAt = pAt + 32;
  const outAt = align16(rowsAt + n * 24);
  const { exports, memory } = instanceWith(module, outAt + n * 8);
  const ibounds = exports.ibounds as (q: number, m: number, n: number, dim: number, out: number, rows: number, p: number) => void;
  const codes = new Int8Array(memory.buffer, 0, values);
  const qCodes = new Int16Array(memory.buffer, qAt, dim);
  const numbers = new Float64Array(memory.buffer, pAt, 4);
  const rows = new Float64Array(memory.buffer, rowsAt, n * 3);
  const bounded = new Float64Array(memory.buffer, outAt, n);
  let t = 0;
  return {
    quantize(h, from, to) {
      const v = halfValues();
      for (let r = Math.ceil(from / dim); r * dim < to && r < n; r++) {
        const at = r * dim;
        let most = 0;
        for (let d = 0; d < dim; d++) most = Math.max(most, Math.abs(v[h[at + d]]));
        if (!Number.isFinite(most)) { rows[3 * r] = 0; rows[3 * r + 1] = 0; rows[3 * r + 2] = Infinity; codes.fill(0, at, at + dim); continue; }
        const s = most / 127;
        // Any integer codes make the bound hold (e is what they miss, whatever they are): the nearest, near enough.
        const inverse = s > 0 ? 1 / s : 0;
        let kk = 0;
        let ee = 0;
        for (let d = 0; d < dim; d++) {
          const x = v[h[at + d]];
          const k = Math.max(-127, Math.min(127, Math.round(x * inverse)));
          codes[at + d] = k;
          kk += k * k;
          ee += (x - s * k) ** 2;
        }
        rows[3 * r] = s;
        rows[3 * r + 1] = s * Math.sqrt(kk);
        rows[3 * r + 2] = Math.sqrt(ee);
      }
    },
    setQuery(query) {
      let most = 0;
      let qq = 0;
      for (let d = 0; d < dim; d++) { most = Math.max(most, Math.abs(query[d])); qq += query[d] * query[d]; }
      t = Number.isFinite(most) ? most / qMax : NaN;
      let dd = 0;
      for (let d = 0; d < dim; d++) {
        const j = t > 0 ? Math.max(-qMax, Math.min(qMax, Math.round(query[d] / t))) : 0;
        qCodes[d] = j;
        dd += (query[d] - t * j) ** 2;
      }
      numbers[0] = t;
      numbers[1] = Math.sqrt(dd);
      numbers[2] = Math.sqrt(qq);
      numbers[3] = BOUND_SLACK;
    },
    bounds(from, to, out) {
      if (to <= from) return;
      if (!(t >= 0)) { out.fill(Infinity, from, to); return; }
      // Each row's bound, b = s t (j.k) + |δ| s |k| + |q| |e| + BOUND_SLACK (Infinity where NaN), summed in the kernel.
      ibounds(qAt, from * dim, to - from, dim, outAt + from * 8, rowsAt + from * 24, pAt);
      out.set(bounded.subarray(from, to), from);
    },
  };
}
