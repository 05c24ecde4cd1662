// A missing or broken onnxruntime-node binding is a typed setup error that says how to fix it.
import { describe, expect, it, vi } from 'vitest';
import { createOnnxKernel } from '../../../src/embed/onnx.js';
import type { ModelData } from '../../../src/types.js';

vi.mock('onnxruntime-node', () => {
  throw new Error('libonnxruntime.so.1: cannot open shared object file: No such file or directory');
});

const model: ModelData = {
  id: 'tiny', dir: '', tokenizerPath: '', table: new Float32Array(new SharedArrayBuffer(16)), rows: 2, dim: 2,
  normalize: true, maxLength: 512, unkId: null,
};

describe('createOnnxKernel without a working runtime', () => {
  it('rejects with EMBEDDER_UNAVAILABLE, the cause, and both fixes', async () => {
    const error = await createOnnxKernel(model).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'SimgrepError', code: 'EMBEDDER_UNAVAILABLE' });
    const message = (error as Error).message;
    expect(message).toContain('cannot open shared object file');
    expect(message).toContain('npm install onnxruntime-node');
    expect(message).toContain('--embedder static');
  });
});
