// The model2vec pooling graphs run by the ONNX kernel, built as ModelProto bytes at runtime. The
// embedding table is not an initializer (that would copy it per worker): each run feeds a small
// worker-local cache of the rows it needs (see onnx-row-cache.ts).
import { ElemType, encodeModel, type GraphSpec, type Initializer, type NodeSpec } from './onnx-proto.js';

/** Opset 18: every Reduce* op used here (ReduceSumSquare too) takes its axes as an input. */
export const POOLING_OPSET = 18;
const IR_VERSION = 8;

/** Graph input names, shared by both graphs. */
export const PoolingInputs = {
  /** [cached, dim] float: the worker-local row cache (onnx-row-cache.ts) the ids index. */
  rowTable: 'row_table',
  /** [lines, len] int32: row_table row per token, 0 for padding. */
  rowIds: 'row_ids',
  /** [lines, len] float: weights[id] / tokenCount per token, 0 for padding. */
  weights: 'weights',
  /** [dim] float: the unit-length query (score graph only). */
  query: 'query',
} as const;

export const PoolingOutputs = { embeddings: 'embeddings', scores: 'scores' } as const;

/**
 * Smallest norm used when L2-normalising, so an all-zero line stays zero instead of 0/0 = NaN.
 * Far below any real mean vector's norm, so it never changes a non-empty line.
 */
const NORM_FLOOR = 1e-30;

const CONSTANTS: Initializer[] = [
  { name: 'axis1', elemType: ElemType.INT64, dims: [1], values: [1] },
  { name: 'one', elemType: ElemType.FLOAT, dims: [], values: [1] },
  { name: 'norm_floor', elemType: ElemType.FLOAT, dims: [], values: [NORM_FLOOR] },
];

/** Only the constants the nodes read (ORT warns about unused initializers). */
function constantsFor(nodes: NodeSpec[]): Initializer[] {
  const used = new Set(nodes.flatMap((n) => n.inputs));
  return CONSTANTS.filter((c) => used.has(c.name));
}

/**
 * mean[b, :] = sum_l weights[b, l] * row_table[row_ids[b, l], :]  ->  [lines, dim].
 * A batched [1, len] x [len, dim] MatMul per line measured faster than Mul + ReduceSum(axis 1).
 */
function pooledMean(): NodeSpec[] {
  const { rowTable, rowIds, weights } = PoolingInputs;
  return [
    { op: 'Gather', inputs: [rowTable, rowIds], outputs: ['tokens'], attrs: { axis: 0 } },
    { op: 'Unsqueeze', inputs: [weights, 'axis1'], outputs: ['weights_row'] },
    { op: 'MatMul', inputs: ['weights_row', 'tokens'], outputs: ['mean3'] },
    { op: 'Squeeze', inputs: ['mean3', 'axis1'], outputs: ['mean'] },
  ];
}

function baseInputs(dim: number): GraphSpec['inputs'] {
  return [
    { name: PoolingInputs.rowTable, elemType: ElemType.FLOAT, shape: ['uniq', dim] },
    { name: PoolingInputs.rowIds, elemType: ElemType.INT32, shape: ['lines', 'len'] },
    { name: PoolingInputs.weights, elemType: ElemType.FLOAT, shape: ['lines', 'len'] },
  ];
}

function model(name: string, dim: number, extraInputs: GraphSpec['inputs'], outputs: GraphSpec['outputs'],
  nodes: NodeSpec[]): Uint8Array {
  return encodeModel(
    { name, inputs: [...baseInputs(dim), ...extraInputs], outputs, nodes, initializers: constantsFor(nodes) },
    { irVersion: IR_VERSION, opset: POOLING_OPSET },
  );
}

/** lines -> [lines, dim] mean vectors, L2-normalised when `normalize`. */
export function buildEmbedGraph(opts: { dim: number; normalize: boolean }): Uint8Array {
  const nodes = pooledMean();
  let out = 'mean';
  if (opts.normalize) {
    nodes.push(
      { op: 'ReduceSumSquare', inputs: ['mean', 'axis1'], outputs: ['sq'], attrs: { keepdims: 1 } },
      { op: 'Sqrt', inputs: ['sq'], outputs: ['norm'] },
      { op: 'Max', inputs: ['norm', 'norm_floor'], outputs: ['safe_norm'] },
      { op: 'Div', inputs: ['mean', 'safe_norm'], outputs: ['unit'] },
    );
    out = 'unit';
  }
  nodes.push({ op: 'Identity', inputs: [out], outputs: [PoolingOutputs.embeddings] });
  const outputs = [{ name: PoolingOutputs.embeddings, elemType: ElemType.FLOAT, shape: ['lines', opts.dim] }];
  return model('simgrep_embed', opts.dim, [], outputs, nodes);
}

/**
 * lines -> [lines] cosine distance 1 - (mean . query) / |mean| for a unit query. A zero mean gives
 * 0/0 = NaN, the "not a candidate" value the kernel contract asks for.
 */
export function buildScoreGraph(opts: { dim: number }): Uint8Array {
  const nodes = pooledMean();
  nodes.push(
    { op: 'MatMul', inputs: ['mean', PoolingInputs.query], outputs: ['dot'] },
    { op: 'ReduceSumSquare', inputs: ['mean', 'axis1'], outputs: ['sq'], attrs: { keepdims: 0 } },
    { op: 'Sqrt', inputs: ['sq'], outputs: ['norm'] },
    { op: 'Div', inputs: ['dot', 'norm'], outputs: ['cos'] },
    { op: 'Sub', inputs: ['one', 'cos'], outputs: [PoolingOutputs.scores] },
  );
  const query = [{ name: PoolingInputs.query, elemType: ElemType.FLOAT, shape: [opts.dim] }];
  const outputs = [{ name: PoolingOutputs.scores, elemType: ElemType.FLOAT, shape: ['lines'] }];
  return model('simgrep_score', opts.dim, query, outputs, nodes);
}
