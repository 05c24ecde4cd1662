// apache-arrow, the copy LanceDB uses. LanceDB is CommonJS and requires the package's CommonJS build;
// an ESM import of the package would load its ESM build as well: a second copy of every class and
// ~170 ms more for every process that opens an index (measured: LanceDB with its arrow ~190 ms, the
// ESM arrow on top ~170 ms). So simgrep requires the CommonJS build too, and imports arrow from here.
import { createRequire } from 'node:module';
import type * as Arrow from 'apache-arrow';

const arrow: typeof Arrow = createRequire(import.meta.url)('apache-arrow');

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
