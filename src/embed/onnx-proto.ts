// A minimal protobuf writer for the handful of ONNX messages simgrep builds at runtime (ModelProto,
// GraphProto, NodeProto, ...), so the pooling graph needs neither a committed .onnx file nor a
// protobuf dependency. Field numbers follow onnx/onnx.proto.

/** ONNX TensorProto.DataType values used here. */
export const ElemType = { FLOAT: 1, INT32: 6, INT64: 7 } as const;
export type ElemType = (typeof ElemType)[keyof typeof ElemType];

/** A graph input/output: a dimension is a fixed size or a symbolic name. */
export interface ValueInfo { name: string; elemType: ElemType; shape: Array<number | string> }

export type AttrValue = number | number[] | string;

export interface NodeSpec {
  op: string;
  inputs: string[];
  outputs: string[];
  /** Integers become INT attributes; use `float()` for a FLOAT attribute. */
  attrs?: Record<string, AttrValue | FloatAttr>;
}

/** Small constant tensors only (axes, scalars): big tables stay graph inputs. */
export interface Initializer { name: string; elemType: ElemType; dims: number[]; values: number[] }

export interface GraphSpec {
  name: string;
  inputs: ValueInfo[];
  outputs: ValueInfo[];
  nodes: NodeSpec[];
  initializers: Initializer[];
}

export interface FloatAttr { readonly float: number }
export const float = (value: number): FloatAttr => ({ float: value });

/** Protobuf wire writer: varints, length-delimited fields and fixed32 floats. */
class Writer {
  private readonly out: number[] = [];

  /** Non-negative values only (negatives go through negativeVarint); safe integers, so no BigInt. */
  private rawVarint(v: number): void {
    let n = v;
    while (n >= 0x80) {
      this.out.push((n % 0x80) | 0x80);
      n = Math.floor(n / 0x80);
    }
    this.out.push(n);
  }

  private tag(field: number, wireType: number): void { this.rawVarint(field * 8 + wireType); }

  varint(field: number, v: number): this {
    if (!Number.isSafeInteger(v)) throw new RangeError(`protobuf varint out of range: ${v}`);
    this.tag(field, 0);
    if (v < 0) this.negativeVarint(v);
    else this.rawVarint(v);
    return this;
  }

  /** Two's-complement 64-bit encoding of a negative int64 (always 10 bytes). */
  private negativeVarint(v: number): void {
    let big = BigInt.asUintN(64, BigInt(v));
    for (let i = 0; i < 9; i++) {
      this.out.push(Number(big & 0x7fn) | 0x80);
      big >>= 7n;
    }
    this.out.push(Number(big));
  }

  bytes(field: number, data: ArrayLike<number>): this {
    this.tag(field, 2);
    this.rawVarint(data.length);
    for (let i = 0; i < data.length; i++) this.out.push(data[i]);
    return this;
  }

  string(field: number, s: string): this { return this.bytes(field, new TextEncoder().encode(s)); }

  message(field: number, sub: Writer): this { return this.bytes(field, sub.out); }

  float32(field: number, v: number): this {
    this.tag(field, 5);
    const b = new Uint8Array(new Float32Array([v]).buffer);
    for (const x of b) this.out.push(x);
    return this;
  }

  finish(): Uint8Array { return Uint8Array.from(this.out); }
}

const AttrType = { FLOAT: 1, INT: 2, STRING: 3, INTS: 7 } as const;

function encodeAttribute(name: string, value: AttrValue | FloatAttr): Writer {
  const w = new Writer().string(1, name);
  if (typeof value === 'string') return w.string(4, value).varint(20, AttrType.STRING);
  if (typeof value === 'number') return w.varint(3, value).varint(20, AttrType.INT);
  if (Array.isArray(value)) {
    for (const v of value) w.varint(8, v);
    return w.varint(20, AttrType.INTS);
  }
  return w.float32(2, value.float).varint(20, AttrType.FLOAT);
}

function encodeNode(node: NodeSpec, index: number): Writer {
  const w = new Writer();
  for (const i of node.inputs) w.string(1, i);
  for (const o of node.outputs) w.string(2, o);
  w.string(3, `${node.op.toLowerCase()}_${index}`).string(4, node.op);
  for (const [k, v] of Object.entries(node.attrs ?? {})) w.message(5, encodeAttribute(k, v));
  return w;
}

function encodeValueInfo(v: ValueInfo): Writer {
  const shape = new Writer();
  for (const d of v.shape) {
    shape.message(1, typeof d === 'number' ? new Writer().varint(1, d) : new Writer().string(2, d));
  }
  const tensorType = new Writer().varint(1, v.elemType).message(2, shape);
  return new Writer().string(1, v.name).message(2, new Writer().message(1, tensorType));
}

function encodeInitializer(t: Initializer): Writer {
  const w = new Writer();
  for (const d of t.dims) w.varint(1, d);
  w.varint(2, t.elemType).string(8, t.name);
  // Non-packed repeated fields are always accepted by proto2 parsers, packed or not.
  if (t.elemType === ElemType.FLOAT) for (const v of t.values) w.float32(4, v);
  else if (t.elemType === ElemType.INT32) for (const v of t.values) w.varint(5, v);
  else for (const v of t.values) w.varint(7, v);
  return w;
}

function encodeGraph(g: GraphSpec): Writer {
  const w = new Writer();
  g.nodes.forEach((n, i) => w.message(1, encodeNode(n, i)));
  w.string(2, g.name);
  for (const t of g.initializers) w.message(5, encodeInitializer(t));
  for (const v of g.inputs) w.message(11, encodeValueInfo(v));
  for (const v of g.outputs) w.message(12, encodeValueInfo(v));
  return w;
}

/** Serialises a single-graph model for the default ONNX domain at `opset`. */
export function encodeModel(graph: GraphSpec, opts: { irVersion: number; opset: number }): Uint8Array {
  const opsetId = new Writer().string(1, '').varint(2, opts.opset);
  return new Writer()
    .varint(1, opts.irVersion)
    .string(2, 'simgrep')
    .message(7, encodeGraph(graph))
    .message(8, opsetId)
    .finish();
}
