// apache-arrow, the copy LanceDB uses (see lancedb.ts): import arrow from here, never the package.
import type * as Arrow from 'apache-arrow';
import { arrow } from './lancedb.js';

export const {
  Binary, Bool, Field, FixedSizeList, Float16, Float32, Float64, Int32, RecordBatch, Schema, Struct, Table, Utf8,
  makeData, makeVector, vectorFromArray,
} = arrow;
export type Schema = Arrow.Schema;
export type Table = Arrow.Table;
export type FixedSizeList<T extends Arrow.DataType = any> = Arrow.FixedSizeList<T>;
export type Float16 = Arrow.Float16;
export type Float32 = Arrow.Float32;
export type { Vector } from 'apache-arrow';
