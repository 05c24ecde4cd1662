// Arrow record batches for the index tables, built column by column from typed arrays (LanceDB
// ingests these several times faster than row objects). The chunks table keeps what costs something
// to recompute (the vectors); lexical features are read back from the files when needed.
import { Bool, Field, FixedSizeList, Float16, Float64, Int32, RecordBatch, Schema, Struct, Table, Utf8, makeData, makeVector, vectorFromArray, type Vector } from './arrow.js';
import { toFloat16 } from '../packed/float16.js';

export function chunkSchema(dim: number): Schema {
  return new Schema([
    new Field('id', new Utf8(), false),
    new Field('path', new Utf8(), false),
    new Field('start', new Int32(), false),
    new Field('end', new Int32(), false),
    // float16: half the bytes; candidates.ts keeps a margin for the rounding.
    new Field('vector', new FixedSizeList(dim, new Field('item', new Float16(), true)), false),
    new Field('has_tokens', new Bool(), false),
    new Field('hash', new Utf8(), false),
  ]);
}

export const fileSchema = new Schema([
  new Field('path', new Utf8(), false),
  new Field('size', new Float64(), false),
  new Field('mtime', new Float64(), false),
  new Field('hash', new Utf8(), false),
  new Field('kind', new Utf8(), false),
  new Field('lines', new Int32(), false),
  new Field('chunks', new Int32(), false),
  // Nullable: added to an older index's table by store.ts (its rows null, read as UNKNOWN_CTIME), where an
  // older simgrep's writes, which lack it, still go (their rows null too).
  new Field('ctime', new Float64(), true),
]);

export const metaSchema = new Schema([
  new Field('key', new Utf8(), false),
  new Field('value', new Utf8(), false),
]);

/** Column arrays of chunk rows, in schema order. */
export interface ChunkColumns {
  id: string[];
  path: string[];
  start: Int32Array;
  end: Int32Array;
  /** rows x dim, unit length (zero rows for chunks without tokens); float32, or float16 bits already rounded. */
  vector: Float32Array | Uint16Array;
  hasTokens: boolean[];
  hash: string[];
}

export interface FileColumns {
  path: string[];
  size: Float64Array;
  mtime: Float64Array;
  ctime: Float64Array;
  hash: string[];
  kind: string[];
  lines: Int32Array;
  chunks: Int32Array;
}

export function chunkTable(c: ChunkColumns, dim: number): Table {
  const schema = chunkSchema(dim);
  const n = c.id.length;
  const vectorType = schema.fields[4].type as FixedSizeList<Float16>;
  const vector = makeVector(makeData({
    type: vectorType, length: n, nullCount: 0,
    child: makeData({ type: new Float16(), length: n * dim, nullCount: 0, data: c.vector instanceof Uint16Array ? c.vector : toFloat16(c.vector) }),
  }));
  return tableOf(schema, [
    utf8(c.id), utf8(c.path), int32(c.start), int32(c.end), vector, bool(c.hasTokens), utf8(c.hash),
  ]);
}

export function fileTable(f: FileColumns): Table {
  return tableOf(fileSchema, [utf8(f.path), float64(f.size), float64(f.mtime), utf8(f.hash), utf8(f.kind), int32(f.lines), int32(f.chunks), float64(f.ctime)]);
}

export function metaTable(entries: [string, string][]): Table {
  return tableOf(metaSchema, [utf8(entries.map((e) => e[0])), utf8(entries.map((e) => e[1]))]);
}

function tableOf(schema: Schema, columns: Vector[]): Table {
  const children = columns.map((v) => v.data[0]);
  const length = columns[0]?.length ?? 0;
  const struct = makeData({ type: new Struct(schema.fields), length, nullCount: 0, children });
  return new Table(schema, [new RecordBatch(schema, struct)]);
}

const utf8 = (xs: string[]) => vectorFromArray(xs, new Utf8());
const int32 = (xs: Int32Array) => makeVector(xs);
const float64 = (xs: Float64Array) => makeVector(xs);
const bool = (xs: boolean[]) => vectorFromArray(xs, new Bool());
