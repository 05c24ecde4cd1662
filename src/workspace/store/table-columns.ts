// Reading columns of LanceDB query results (Arrow tables) into plain arrays, and SQL filters on
// string columns; free of LanceDB itself, so modules that only read results do not load it.
import type { Vector } from 'apache-arrow';

/** An Arrow table or one of its record batches: what the readers below take their columns from. */
export interface ArrowColumns { getChild(name: string): Vector | null }
import { fromFloat16Into, toFloat16Into } from '../packed/float16.js';

/** A SQL `col IN (...)` with quotes escaped. */
export function inList(column: string, values: string[]): string {
  return `${column} IN (${values.map(quote).join(', ')})`;
}

function quote(v: string): string {
  return `'${v.replace(/'/g, "''")}'`;
}

export function strings(t: ArrowColumns, name: string): string[] {
  const col = t.getChild(name);
  if (!col) return [];
  const out = new Array<string>(col.length);
  for (let i = 0; i < col.length; i++) out[i] = col.get(i) as string;
  return out;
}

export function numbers<T extends Float64Array | Int32Array>(t: ArrowColumns, name: string, Ctor: { new(n: number): T; from(x: ArrayLike<number>): T }): T {
  const col = t.getChild(name);
  if (!col) return new Ctor(0);
  return Ctor.from(col.toArray() as ArrayLike<number>);
}

/** A nullable number column: `missing` where a row holds null, and for every row of a table without the column. */
export function numbersOr(t: ArrowColumns, name: string, rows: number, missing: number): Float64Array {
  const col = t.getChild(name);
  const out = new Float64Array(rows).fill(missing);
  if (!col) return out;
  const values = col.toArray() as ArrayLike<number>;
  for (let i = 0; i < rows; i++) if (col.isValid(i)) out[i] = values[i];
  return out;
}

export function bools(t: ArrowColumns, name: string): boolean[] {
  const col = t.getChild(name);
  const out = new Array<boolean>(col?.length ?? 0);
  for (let i = 0; i < out.length; i++) out[i] = col!.get(i) === true;
  return out;
}

/** The vector column as one flat Float32Array (rows x dim). */
export function vectorColumn(t: ArrowColumns, dim: number): Float32Array {
  const out = new Float32Array((t.getChild('vector')?.length ?? 0) * dim);
  eachVectorPart(t, dim, (values, at) => { if (values instanceof Uint16Array) fromFloat16Into(values, out, at); else out.set(values, at); });
  return out;
}

/** The vector column as float16 bits (rows x dim): as stored, without widening (a float32 column is rounded). */
export function halvesColumn(t: ArrowColumns, dim: number): Uint16Array {
  const out = new Uint16Array((t.getChild('vector')?.length ?? 0) * dim);
  eachVectorPart(t, dim, (values, at) => { if (values instanceof Uint16Array) out.set(values, at); else toFloat16Into(values, out, at); });
  return out;
}

/** The vector column's values batch by batch, with where each starts in the flat rows x dim array. */
function eachVectorPart(t: ArrowColumns, dim: number, put: (values: Float32Array | Uint16Array, at: number) => void): void {
  const col = t.getChild('vector');
  if (!col) return;
  let at = 0;
  for (const data of col.data) {
    const child = data.children[0];
    const from = child.offset + data.offset * dim;
    const raw = child.values as Float32Array | Uint16Array;
    put(raw.subarray(from, from + data.length * dim), at);
    at += data.length * dim;
  }
}
