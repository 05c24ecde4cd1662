// The model2vec pooling graphs run by the ONNX kernel, built as ModelProto bytes at runtime. The
// embedding table is a graph INPUT, not an initializer, so every worker reads the one shared copy.
import { ElemType, encodeModel, type GraphSpec, type Initializer, type NodeSpec } from './onnx-proto.js';

/** Opset 18: every Reduce* op (ReduceSum, ReduceSumSquare) takes its axes as an input. */
export const POOLING_OPSET = 18;
const IR_VERSION = 8;

/** Graph input names, shared by both graphs. */
export const PoolingInputs = {
  /** [rows, dim] float: the embedding table, fed as a view over the shared buffer. */
  table: 'table',
  /** [lines, len] int32: table rows per token (mapping already applied), padded with row 0. */
  rows: 'rows',
  /** [lines, len] float: weights[id] / tokenCount per token, 0 for padding. */
  weights: 'weights',
  /** [dim] float: the unit-length query (score graph only). */
  query: 'query',
} as const;

export const PoolingOutputs = { embeddings: 'embeddings', scores: 'scores' } as const;

/**
 * Smallest norm used when L2-normalising; an all-zero (empty) line stays zero instead of NaN.
 * Far below any real mean vector's norm, so it never changes a non-empty line.
 */
const NORM_FLOOR = 1e-30;

interface Dims { rows: number; dim: number }

const CONSTANTS: Initializer[] = [
  { name: 'axis1', elemType: ElemType.INT64, dims: [1], values: [1] },
  { name: 'axis2', elemType: ElemType.INT64, dims: [1], values: [2] },
  { name: 'one', elemType: ElemType.FLOAT, dims: [], values: [1] },
  { name: 'norm_floor', elemType: ElemType.FLOAT, dims: [], values: [NORM_FLOOR] },
];

/** Only the constants the nodes read (ORT warns about unused initializers). */
function constantsFor(nodes: NodeSpec[]): Initializer[] {
  const used = new Set(nodes.flatMap((n) => n.inputs));
  return CONSTANTS.filter((c) => used.has(c.name));
}

/**
 * sum[b, :] = sum_l weights[b, l] * table[rows[b, l], :]  ->  [lines, dim].
 * Weights carry 1/count, so this is already the (weighted) mean.
 */
function pooledSum(): NodeSpec[] {
  const { table, rows, weights } = PoolingInputs;
  return [
    { op: 'Gather', inputs: [table, rows], outputs: ['tokens'], attrs: { axis: 0 } },
    { op: 'Unsqueeze', inputs: [weights, 'axis2'], outputs: ['weights3'] },
    { op: 'Mul', inputs: ['tokens', 'weights3'], outputs: ['weighted'] },
    { op: 'ReduceSum', inputs: ['weighted', 'axis1'], outputs: ['mean'], attrs: { keepdims: 0 } },
  ];
}

function baseInputs(d: Dims): GraphSpec['inputs'] {
  return [
    { name: PoolingInputs.table, elemType: ElemType.FLOAT, shape: [d.rows, d.dim] },
    { name: PoolingInputs.rows, elemType: ElemType.INT32, shape: ['lines', 'len'] },
    { name: PoolingInputs.weights, elemType: ElemType.FLOAT, shape: ['lines', 'len'] },
  ];
}

/** lines -> [lines, dim] mean vectors, L2-normalised when `normalize`. */
export function buildEmbedGraph(d: Dims & { normalize: boolean }): Uint8Array {
  const nodes = pooledSum();
  let out = 'mean';
  if (d.normalize) {
    nodes.push(
      { op: 'ReduceSumSquare', inputs: ['mean', 'axis1'], outputs: ['sq'], attrs: { keepdims: 1 } },
      { op: 'Sqrt', inputs: ['sq'], outputs: ['norm'] },
      { op: 'Max', inputs: ['norm', 'norm_floor'], outputs: ['safe_norm'] },
      { op: 'Div', inputs: ['mean', 'safe_norm'], outputs: ['unit'] },
    );
    out = 'unit';
  }
  nodes.push({ op: 'Identity', inputs: [out], outputs: [PoolingOutputs.embeddings] });
  return encodeModel({
    name: 'simgrep_embed',
    inputs: baseInputs(d),
    outputs: [{ name: PoolingOutputs.embeddings, elemType: ElemType.FLOAT, shape: ['lines', d.dim] }],
    nodes,
    initializers: constantsFor(nodes),
  }, { irVersion: IR_VERSION, opset: POOLING_OPSET });
}

/**
 * lines -> [lines] cosine distance 1 - (mean . query) / |mean|, for a unit query. A zero mean gives
 * 0/0 = NaN, which is exactly the "not a candidate" value the kernel contract asks for.
 */
export function buildScoreGraph(d: Dims): Uint8Array {
  const nodes = pooledSum();
  nodes.push(
    { op: 'MatMul', inputs: ['mean', PoolingInputs.query], outputs: ['dot'] },
    { op: 'ReduceSumSquare', inputs: ['mean', 'axis1'], outputs: ['sq'], attrs: { keepdims: 0 } },
    { op: 'Sqrt', inputs: ['sq'], outputs: ['norm'] },
    { op: 'Div', inputs: ['dot', 'norm'], outputs: ['cos'] },
    { op: 'Sub', inputs: ['one', 'cos'], outputs: [PoolingOutputs.scores] },
  );
  return encodeModel({
    name: 'simgrep_score',
    inputs: [
      ...baseInputs(d),
      { name: PoolingInputs.query, elemType: ElemType.FLOAT, shape: [d.dim] },
    ],
    outputs: [{ name: PoolingOutputs.scores, elemType: ElemType.FLOAT, shape: ['lines'] }],
    nodes,
    initializers: constantsFor(nodes),
  }, { irVersion: IR_VERSION, opset: POOLING_OPSET });
}
