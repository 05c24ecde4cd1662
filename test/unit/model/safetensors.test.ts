// safetensors parsing: every supported dtype expands to the same float32 table on a SharedArrayBuffer,
// and every kind of damage is a MODEL_CORRUPT that names the file.
import { simgrepFailure } from '../../helpers/errors.js';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rm } from 'node:fs/promises';
import { halfToFloat } from '../../../src/model/dtype.js';
import { readModelTables } from '../../../src/model/tables.js';
import { openSafetensors } from '../../../src/model/safetensors.js';
import { bytesOf, encode, safetensorsBytes, tempDir, type RawTensor } from './model-files.js';

let dir: string;
let n = 0;
beforeAll(async () => { dir = await tempDir('simgrep-st-'); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

async function write(bytes: Uint8Array): Promise<string> {
  const file = path.join(dir, `m${n++}.safetensors`);
  await writeFile(file, bytes);
  return file;
}

const VALUES = [0, 1, -2, 3.5, -0.25, 100, 7, -8];
const table = (dtype: string, values = VALUES): RawTensor => ({ dtype, shape: [4, 2], data: encode(dtype, values) });

const codeOf = simgrepFailure;

describe('readModelTables: dtypes', () => {
  it.each(['F32', 'F16', 'BF16'])('%s table expands exactly to float32 on a SharedArrayBuffer', async (dtype) => {
    const file = await write(safetensorsBytes({ embeddings: table(dtype) }));
    const t = await readModelTables(file, 'embeddings', 'hint');
    expect({ rows: t.rows, dim: t.dim, values: Array.from(t.table), shared: t.table.buffer instanceof SharedArrayBuffer }).toEqual({
      rows: 4, dim: 2, values: VALUES, shared: true,
    });
  });

  it('I8 table keeps its raw values like Python model2vec (no rescaling), as int8 on a SharedArrayBuffer', async () => {
    const ints = [0, 1, -2, 3, -128, 127, 7, -8];
    const file = await write(safetensorsBytes({ embeddings: table('I8', ints) }));
    const t = (await readModelTables(file, 'embeddings', 'hint')).table;
    expect({ values: Array.from(t), int8: t instanceof Int8Array, shared: t.buffer instanceof SharedArrayBuffer }).toEqual({ values: ints, int8: true, shared: true });
  });

  it('sentence-transformers "embedding.weight" is found when "embeddings" is absent', async () => {
    const file = await write(safetensorsBytes({ 'embedding.weight': table('F32') }));
    expect(Array.from((await readModelTables(file, 'embeddings', 'hint')).table)).toEqual(VALUES);
  });

  it.each([
    ['I32', 'F64'],
    ['I64', 'F32'],
  ])('vocab-quantized: mapping %s and weights %s become Int32Array / Float32Array on SharedArrayBuffers', async (mDtype, wDtype) => {
    const file = await write(safetensorsBytes({
      weights: { dtype: wDtype, shape: [5], data: encode(wDtype, [0.5, 1, 2, 0.25, 4]) },
      embeddings: table('F32'),
      mapping: { dtype: mDtype, shape: [5], data: encode(mDtype, [3, 0, 1, 1, 2]) },
    }));
    const t = await readModelTables(file, 'embeddings', 'hint');
    expect({
      mapping: Array.from(t.mapping ?? []),
      weights: Array.from(t.weights ?? []),
      shared: [t.mapping, t.weights].every((a) => a?.buffer instanceof SharedArrayBuffer),
    }).toEqual({ mapping: [3, 0, 1, 1, 2], weights: [0.5, 1, 2, 0.25, 4], shared: true });
  });

  it('a table larger than one conversion chunk converts completely', async () => {
    const rows = 300_000; // 300k x 8 F16 = 4.8 MB > the 4 MB scratch buffer
    const ints = Array.from({ length: rows * 8 }, (_, i) => (i % 251) - 125);
    const file = await write(safetensorsBytes({ embeddings: { dtype: 'F16', shape: [rows, 8], data: encode('F16', ints) } }));
    const t = await readModelTables(file, 'embeddings', 'hint');
    let mismatches = 0;
    for (let i = 0; i < ints.length; i++) if (t.table[i] !== ints[i]) mismatches++;
    expect({ length: t.table.length, mismatches }).toEqual({ length: ints.length, mismatches: 0 });
  });

  it('halfToFloat decodes subnormals, infinities and NaN', () => {
    expect([0x0001, 0x8000, 0x3c00, 0x7bff, 0x7c00, 0xfc00].map(halfToFloat)).toEqual([2 ** -24, -0, 1, 65504, Infinity, -Infinity]);
    expect(halfToFloat(0x7e00)).toBeNaN();
  });
});

describe('corrupt safetensors -> MODEL_CORRUPT naming the file', () => {
  const good = safetensorsBytes({ embeddings: table('F32') });
  const cases: Array<[string, Uint8Array, RegExp]> = [
    ['shorter than the length prefix', good.subarray(0, 5), /truncated \(5 bytes/],
    ['truncated inside the header', good.subarray(0, 20), /header claims \d+ bytes but the file has 20/],
    ['truncated inside the data', good.subarray(0, good.length - 4), /truncated: tensor "embeddings" ends at byte/],
    ['header is not JSON', (() => { const b = Buffer.from(good); b.write('!', 8); return b; })(), /not valid JSON/],
    ['unknown dtype', safetensorsBytes({ embeddings: table('F32') }, (h) => ({ ...h, embeddings: { ...(h.embeddings as object), dtype: 'Q4' } })), /unknown dtype "Q4"/],
    ['shape does not match the data size', safetensorsBytes({ embeddings: table('F32') }, (h) => ({ ...h, embeddings: { ...(h.embeddings as object), shape: [5, 2] } })), /shape \[5, 2\] \(40 bytes of F32\) but its data_offsets cover 32 bytes/],
    ['no embedding tensor', safetensorsBytes({ other: table('F32') }), /no embedding tensor .*found: other/],
    ['table is 1-D', safetensorsBytes({ embeddings: { dtype: 'F32', shape: [8], data: encode('F32', VALUES) } }), /non-empty 2-D/],
    ['table dtype not supported', safetensorsBytes({ embeddings: { dtype: 'I32', shape: [4, 2], data: encode('I32', VALUES.map(Math.trunc)) } }), /dtype I32; supported: F32, F16, BF16, I8/],
    ['mapping points outside the table', safetensorsBytes({ embeddings: table('F32'), mapping: { dtype: 'I32', shape: [2], data: encode('I32', [0, 4]) } }), /"mapping"\[1\] = 4 is outside the 4-row table/],
    ['mapping and weights differ in length', safetensorsBytes({ embeddings: table('F32'), mapping: { dtype: 'I32', shape: [2], data: encode('I32', [0, 1]) }, weights: { dtype: 'F32', shape: [3], data: encode('F32', [1, 1, 1]) } }), /"mapping" has 2 entries but "weights" has 3/],
  ];
  it.each(cases)('%s', async (_, bytes, pattern) => {
    const file = await write(bytes);
    const err = await codeOf(readModelTables(file, 'embeddings', 'Delete X to re-download.'));
    expect(err.code).toBe('MODEL_CORRUPT');
    expect(err.message).toMatch(pattern);
    expect(err.message.startsWith(`${file}: `)).toBe(true);
    expect(err.message.endsWith('Delete X to re-download.')).toBe(true);
  });

  it('a missing file is MODEL_CORRUPT with the errno', async () => {
    const err = await codeOf(openSafetensors(path.join(dir, 'nope.safetensors')));
    expect(err).toMatchObject({ code: 'MODEL_CORRUPT', message: expect.stringContaining('ENOENT') });
  });
});
