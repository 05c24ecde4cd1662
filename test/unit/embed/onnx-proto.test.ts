// The hand-written protobuf encoder, pinned byte for byte on tiny messages.
import { describe, expect, it } from 'vitest';
import { ElemType, encodeModel, float, type GraphSpec } from '../../../src/embed/onnx-proto.js';

const empty: GraphSpec = { name: 'g', inputs: [], outputs: [], nodes: [], initializers: [] };
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('encodeModel', () => {
  it('writes ir_version, producer, graph and opset_import in field order', () => {
    expect(hex(encodeModel(empty, { irVersion: 8, opset: 18 }))).toBe(
      '0808' // 1: ir_version = 8
      + '1207' + hex(new TextEncoder().encode('simgrep')) // 2: producer_name
      + '3a03' + '120167' // 7: graph { 2: name = "g" }
      + '4204' + '0a00' + '1012', // 8: opset_import { 1: domain = "", 2: version = 18 }
    );
  });

  it('encodes node attributes: negative int64 as 10-byte two\'s complement, float as fixed32, ints', () => {
    const graph: GraphSpec = { ...empty, name: '', nodes: [{ op: 'X', inputs: ['a'], outputs: ['b'],
      attrs: { i: -1, f: float(1), v: [1, 300] } }] };
    const bytes = hex(encodeModel(graph, { irVersion: 8, opset: 18 }));
    expect(bytes).toContain('0a0169' + '18ffffffffffffffffff01' + 'a00102'); // name "i", i = -1, type INT
    expect(bytes).toContain('0a0166' + '150000803f' + 'a00101'); // name "f", f = 1.0f, type FLOAT
    expect(bytes).toContain('0a0176' + '4001' + '40ac02' + 'a00107'); // name "v", ints 1, 300, type INTS
  });

  it('encodes value infos with fixed and symbolic dims, and initializers', () => {
    const graph: GraphSpec = { ...empty, name: '',
      inputs: [{ name: 'x', elemType: ElemType.FLOAT, shape: [3, 'n'] }],
      initializers: [{ name: 'k', elemType: ElemType.INT64, dims: [1], values: [2] }] };
    const bytes = hex(encodeModel(graph, { irVersion: 8, opset: 18 }));
    // 11: input { 1: "x", 2: type { 1: tensor_type { 1: FLOAT, 2: shape { dim 3, dim "n" } } } }
    expect(bytes).toContain('5a14' + '0a0178' + '120f' + '0a0d' + '0801' + '1209' + '0a020803' + '0a0312016e');
    // 5: initializer { 1: dims 1, 2: INT64, 8: name "k", 7: int64_data 2 }
    expect(bytes).toContain('2a09' + '0801' + '1007' + '42016b' + '3802');
  });
});
