// Upper bounds on a unit query's cosines with a snapshot's chunk vectors, for the candidate pass (issue
// 30): each row kept as int8 codes with a scale and the norm of what the codes miss, the query as int16
// codes, their integer dot products from a WebAssembly SIMD kernel (a quarter of the bytes and a fifth
// of the instructions of the float cosines), then Cauchy-Schwarz on the rest. A bound is within ~0.01 of
// the cosine, so only the chunks whose bound can reach the results get their cosine worked out.
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
  const qAt = align16(values);
  const outAt = align16(qAt + dim * 2);
  const { exports, memory } = instanceWith(module, outAt + n * 4);
  const idots = exports.idots as (q: number, m: number, n: number, dim: number, out: number) => void;
  const codes = new Int8Array(memory.buffer, 0, values);
  const qCodes = new Int16Array(memory.buffer, qAt, dim);
  const dots = new Int32Array(memory.buffer, outAt, n);
  // Per row: s, s |k| and |e| (Infinity for a row with a value that is not finite: no bound).
  const scale = new Float64Array(n);
  const codeNorm = new Float64Array(n);
  const missNorm = new Float64Array(n);
  let t = 0;
  let deltaNorm = 0;
  let queryNorm = 0;
  return {
    quantize(h, from, to) {
      const v = halfValues();
      for (let r = Math.ceil(from / dim); r * dim < to && r < n; r++) {
        const at = r * dim;
        let most = 0;
        for (let d = 0; d < dim; d++) most = Math.max(most, Math.abs(v[h[at + d]]));
        if (!Number.isFinite(most)) { scale[r] = 0; codeNorm[r] = 0; missNorm[r] = Infinity; codes.fill(0, at, at + dim); continue; }
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
        scale[r] = s;
        codeNorm[r] = s * Math.sqrt(kk);
        missNorm[r] = Math.sqrt(ee);
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
      deltaNorm = Math.sqrt(dd);
      queryNorm = Math.sqrt(qq);
    },
    bounds(from, to, out) {
      if (to <= from) return;
      if (!(t >= 0)) { out.fill(Infinity, from, to); return; }
      idots(qAt, from * dim, to - from, dim, outAt + from * 4);
      for (let r = from; r < to; r++) {
        const b = scale[r] * t * dots[r] + deltaNorm * codeNorm[r] + queryNorm * missNorm[r] + BOUND_SLACK;
        out[r] = b === b ? b : Infinity;
      }
    },
  };
}
