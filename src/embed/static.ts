// Pure-TypeScript pooling kernel: mean of (weighted) token rows read straight from the shared table.
// score() skips lines that provably cannot beat `maxDistance` (see prune-basis.ts) — exact results.
import type { ModelData, TokenizedBatch } from '../types.js';
import type { PoolingKernel } from './embedder.js';
import { cachedPrincipalDirections } from './directions-cache.js';
import { queryBasis } from './prune-basis.js';
import { sameFloats } from './unit.js';
import { directionsSlot, sharedDirections } from './shared-directions.js';
import { makeWasmPooler, sharedWasmPooler, type WasmPooler } from './wasm-pooler.js';
import { sharedCoordsFiller, type CoordsFiller } from './coords-wasm.js';

/** Directions besides the query used for the pruning bound: more = tighter bound, costlier tokens. */
const PRUNE_DIRECTIONS = 24;
/** Coordinates of the first, looser bound (see cosineBound): it settles ~2 texts in 3 on the bench tree. */
const FIRST_DIRECTIONS = 8;
/** Texts with at least this many tokens are pooled per distinct token (see countDistinct). */
const DISTINCT_FROM_TOKENS = 32;
/** Safety margin on the cosine bound against float rounding. */
const BOUND_MARGIN = 1e-4;

interface QueryState {
  query: Float32Array;
  k: number;
  /**
   * coords[(at[row] - 1) * k + j] = table row . basis[j], filled lazily per row, in the order rows are met
   * (at[row] 0: not yet): a scan meets ~2,000 of the bench model's 29,528 rows, whose coordinates then lie
   * in the table's first ~50 pages, not spread over all its ~720 (each page's first write a fault, ~14 us
   * here; the pages never written are never faulted in).
   */
  coords: Float32Array;
  at: Int32Array;
  filled: number;
  basis: Float64Array[];
  /** The kernel's WebAssembly filler, holding this basis (null: the loop fills). */
  filler: CoordsFiller | null;
}

export function createStaticKernel(model: ModelData): PoolingKernel {
  const { table, dim, rows, mapping, weights, normalize } = model;
  let acc: Float64Array = new Float64Array(dim);
  /**
   * The pooling in WebAssembly: over a searcher's shared memory from the start (pool-memory.ts), else once
   * asked for (prepare) and ready; `acc` is then its sum (wasm-pooler.ts).
   */
  let fast: WasmPooler | null = null;
  let preparing: Promise<boolean> | null = null;
  // A searcher's threads pool from one shared copy of the table (pool-memory.ts), from the start.
  const shared = model.poolMemory ? sharedWasmPooler(model.poolMemory, dim) : null;
  if (shared) { fast = shared; acc = shared.acc; preparing = Promise.resolve(true); }
  // Its slot's scratch holds the basis for the coordinates' fill in WebAssembly (coords-wasm.ts), made once needed.
  let filler: CoordsFiller | null | undefined = shared?.scratchAt === undefined ? null : undefined;
  let directions: Float64Array[] | null = null;
  let state: QueryState | null = null;

  // Long texts (chunks of 48 lines, long lines) repeat tokens: their rows are summed once per distinct
  // token, times its count. Same sum, a different float order (Float64: ~1e-16 apart).
  const counts = new Int32Array(weights ? weights.length : mapping ? mapping.length : rows);
  const distinct = new Int32Array(counts.length);

  /**
   * For a long text: collects text i's distinct ids into `distinct` with their counts in `counts`, and
   * returns how many (clearDistinct(n) undoes it). A short text is summed token by token: -1.
   */
  function countDistinct(batch: TokenizedBatch, i: number): number {
    if (batch.lineStarts[i + 1] - batch.lineStarts[i] < DISTINCT_FROM_TOKENS) return -1;
    let n = 0;
    for (let t = batch.lineStarts[i]; t < batch.lineStarts[i + 1]; t++) {
      const id = batch.ids[t];
      if (counts[id]++ === 0) distinct[n++] = id;
    }
    return n;
  }

  function clearDistinct(n: number): void {
    for (let j = 0; j < n; j++) counts[distinct[j]] = 0;
  }

  function addRow(id: number, w: number): void {
    const base = (mapping ? mapping[id] : id) * dim;
    let d = 0;
    for (; d + 3 < dim; d += 4) {
      acc[d] += w * table[base + d];
      acc[d + 1] += w * table[base + d + 1];
      acc[d + 2] += w * table[base + d + 2];
      acc[d + 3] += w * table[base + d + 3];
    }
    for (; d < dim; d++) acc[d] += w * table[base + d];
  }

  /** Sums the weighted rows of text i into acc (`n`: countDistinct's answer for it); returns the token count. */
  function accumulate(batch: TokenizedBatch, i: number, n: number): number {
    acc.fill(0);
    const from = batch.lineStarts[i];
    const to = batch.lineStarts[i + 1];
    if (fast) {
      // The same rows with the same weights in the same order as below: the same sum.
      if (n < 0) {
        for (let t = from; t < to; t++) { const id = batch.ids[t]; fast.push(mapping ? mapping[id] : id, weights ? weights[id] : 1); }
      } else {
        for (let j = 0; j < n; j++) { const id = distinct[j]; fast.push(mapping ? mapping[id] : id, (weights ? weights[id] : 1) * counts[id]); }
      }
      fast.flush();
      return to - from;
    }
    if (n < 0) {
      for (let t = from; t < to; t++) { const id = batch.ids[t]; addRow(id, weights ? weights[id] : 1); }
    } else {
      for (let j = 0; j < n; j++) { const id = distinct[j]; addRow(id, (weights ? weights[id] : 1) * counts[id]); }
    }
    return to - from;
  }


  /** The pruning directions: from the searcher's shared slot, or read from the cache or worked out here (the first thread to need them). */
  function directionsOf(): Float64Array[] {
    const m = directionCount(dim);
    return (directions ??= sharedDirections(model.pruneDirections, m, dim, () => cachedPrincipalDirections(model, m)));
  }

  function stateFor(query: Float32Array): QueryState {
    if (state && sameFloats(state.query, query)) return state;
    const basis = queryBasis(query, directionsOf());
    if (filler === undefined) filler = sharedCoordsFiller(model.poolMemory!.memory, shared!.scratchAt!, dim);
    const fills = filler !== null && filler.setBasis(basis) ? filler : null;
    state = { query: Float32Array.from(query), k: basis.length, coords: new Float32Array(rows * basis.length), at: new Int32Array(rows), filled: 0, basis, filler: fills };
    return state;
  }

  /**
   * Fills row `row`'s coordinates, the same floats from the WebAssembly filler as from the loop
   * (coords-wasm.ts); returns where they are in s.coords.
   */
  function fillCoords(s: QueryState, row: number): number {
    const { k } = s;
    const at = s.filled * k;
    s.at[row] = ++s.filled;
    if (s.filler) {
      s.filler.fill(row, s.coords, at);
      return at;
    }
    const base = row * dim;
    for (let j = 0; j < k; j++) {
      const b = s.basis[j];
      let c = 0;
      for (let d = 0; d < dim; d++) c += table[base + d] * b[d];
      s.coords[at + j] = c;
    }
    return at;
  }

  /**
   * Upper bound of text i's cosine to the query, from its coordinates in the query basis (`n` as for
   * accumulate). The first FIRST_DIRECTIONS coordinates alone give a looser bound (a projection on
   * fewer orthonormal directions is no longer); most texts fall below `floorCos` on it, and only the
   * others pay for the rest.
   */
  function cosineBound(s: QueryState, batch: TokenizedBatch, i: number, n: number, c: Float64Array, floorCos: number): number {
    c.fill(0);
    const m = Math.min(s.k, FIRST_DIRECTIONS);
    if (m === FIRST_DIRECTIONS) addFirstCoords(s, batch, i, n, c);
    else addAllCoords(s, batch, i, n, c, 0, m);
    const first = boundOf(c, m);
    if (m === s.k || first < floorCos - BOUND_MARGIN) return first;
    addAllCoords(s, batch, i, n, c, m, s.k);
    return boundOf(c, s.k);
  }

  /** Adds coordinates [from, to) of text i's weighted rows to c. */
  function addAllCoords(s: QueryState, batch: TokenizedBatch, i: number, n: number, c: Float64Array, from: number, to: number): void {
    if (n < 0) {
      for (let t = batch.lineStarts[i]; t < batch.lineStarts[i + 1]; t++) { const id = batch.ids[t]; addCoords(s, id, weights ? weights[id] : 1, c, from, to); }
    } else {
      for (let j = 0; j < n; j++) { const id = distinct[j]; addCoords(s, id, (weights ? weights[id] : 1) * counts[id], c, from, to); }
    }
  }

  /**
   * addAllCoords of coordinates [0, FIRST_DIRECTIONS) (8), each summed in a local, not in c (a typed array
   * V8 loads and stores at every token): the same products added in the same order, so the same floats
   * (a weight times 1 is that weight).
   */
  function addFirstCoords(s: QueryState, batch: TokenizedBatch, i: number, n: number, c: Float64Array): void {
    // Every property read whichever kind the text is (a scan's first texts are long ones: code compiled
    // on those alone had no feedback for a short one's and was thrown away at its first).
    const { k, at: rowAt, coords: co } = s;
    const { ids: textIds, lineStarts } = batch;
    const ids = n < 0 ? textIds : distinct;
    const from = n < 0 ? lineStarts[i] : 0;
    const to = n < 0 ? lineStarts[i + 1] : n;
    let c0 = 0; let c1 = 0; let c2 = 0; let c3 = 0; let c4 = 0; let c5 = 0; let c6 = 0; let c7 = 0;
    for (let t = from; t < to; t++) {
      const id = ids[t];
      const w = (weights ? weights[id] : 1) * (n < 0 ? 1 : counts[id]);
      const row = mapping ? mapping[id] : id;
      const filled = rowAt[row];
      const at = filled === 0 ? fillCoords(s, row) : (filled - 1) * k;
      c0 += w * co[at]; c1 += w * co[at + 1]; c2 += w * co[at + 2]; c3 += w * co[at + 3];
      c4 += w * co[at + 4]; c5 += w * co[at + 5]; c6 += w * co[at + 6]; c7 += w * co[at + 7];
    }
    c[0] = c0; c[1] = c1; c[2] = c2; c[3] = c3; c[4] = c4; c[5] = c5; c[6] = c6; c[7] = c7;
  }

  function addCoords(s: QueryState, id: number, w: number, c: Float64Array, from: number, to: number): void {
    const row = mapping ? mapping[id] : id;
    const filled = s.at[row];
    const at = filled === 0 ? fillCoords(s, row) : (filled - 1) * s.k;
    const { coords } = s;
    for (let j = from; j < to; j++) c[j] += w * coords[at + j];
  }

  return {
    id: `static:${model.id}`,
    dim,
    prepareBound() {
      directionsOf();
    },
    prepare() {
      // An int8 table is summed by the loop.
      preparing ??= table instanceof Float32Array
        ? makeWasmPooler(table, dim).then((p) => { if (p) { fast = p; acc = p.acc; } return p !== null; }, () => false)
        : Promise.resolve(false);
      return preparing;
    },
    async embed(batch, sums) {
      const n = batch.lineStarts.length - 1;
      const out = new Float32Array(n * dim);
      for (let i = 0; i < n; i++) {
        const distinctIds = countDistinct(batch, i);
        const count = accumulate(batch, i, distinctIds);
        clearDistinct(distinctIds);
        if (count === 0) continue;
        if (sums) sums.set(acc, i * dim);
        let scale = 1 / count;
        if (normalize) {
          let sq = 0;
          for (let d = 0; d < dim; d++) sq += acc[d] * acc[d];
          scale = sq > 0 ? 1 / Math.sqrt(sq) : 0;
        }
        const base = i * dim;
        for (let d = 0; d < dim; d++) out[base + d] = acc[d] * scale;
      }
      return out;
    },
    async score(batch, query, maxDistance, sums) {
      const n = batch.lineStarts.length - 1;
      const out = new Float32Array(n);
      const perLine = typeof maxDistance === 'object' ? maxDistance : null;
      const single = typeof maxDistance === 'number' ? 1 - maxDistance : -Infinity;
      const floorAt = (i: number) => (perLine ? 1 - perLine[i] : single);
      let prunable = single > BOUND_MARGIN;
      if (perLine) for (let i = 0; i < n && !prunable; i++) prunable = 1 - perLine[i] > BOUND_MARGIN;
      const s = prunable ? stateFor(query) : null;
      const c = new Float64Array(s ? s.k : 0);
      for (let i = 0; i < n; i++) {
        if (batch.lineStarts[i] === batch.lineStarts[i + 1]) { out[i] = NaN; continue; }
        const floorCos = floorAt(i);
        // A long text's distinct tokens are counted once, for both the bound and the exact sum.
        const distinctIds = countDistinct(batch, i);
        if (s && floorCos > BOUND_MARGIN && cosineBound(s, batch, i, distinctIds, c, floorCos) < floorCos - BOUND_MARGIN) out[i] = Infinity;
        else {
          accumulate(batch, i, distinctIds);
          out[i] = sumDistance(acc, 0, query);
          if (sums) sums.set(acc, i * dim);
        }
        clearDistinct(distinctIds);
      }
      return out;
    },
  };
}

/** How many directions besides the query the pruning bound uses for a model of `dim` coordinates. */
function directionCount(dim: number): number {
  return Math.min(PRUNE_DIRECTIONS, Math.max(0, dim - 1));
}

/**
 * The model with a slot in which the threads of one searcher share the kernel's pruning directions
 * (shared-directions.ts): the in-process kernel and every worker's read the same floats, computed once.
 */
export function withSharedDirections(model: ModelData): ModelData {
  return model.pruneDirections ? model : { ...model, pruneDirections: directionsSlot(directionCount(model.dim), model.dim) };
}

/**
 * 1 - the cosine of a weighted row sum (at `at` in `sums`) to a unit query: the kernel's exact distance,
 * the same floats in the same order wherever the sum was kept (embed/kept-chunks.ts). NaN for a zero sum.
 */
export function sumDistance(sums: Float64Array, at: number, query: Float32Array): number {
  const dim = query.length;
  let dot = 0;
  let sq = 0;
  for (let d = 0; d < dim; d++) { const a = sums[at + d]; dot += a * query[d]; sq += a * a; }
  return sq > 0 ? 1 - dot / Math.sqrt(sq) : NaN;
}

/** The cosine bound from the first m coordinates (c[0] is along the query). */
function boundOf(c: Float64Array, m: number): number {
  if (c[0] <= 0) return c[0] < 0 ? -1 : 0;
  let proj = 0;
  for (let j = 0; j < m; j++) proj += c[j] * c[j];
  return c[0] / Math.sqrt(proj);
}

