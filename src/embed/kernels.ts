// Picks the pooling kernel implementation by name.
import type { EmbedderKind, ModelData } from '../types.js';
import type { PoolingKernel } from './embedder.js';
import { createStaticKernel } from './static.js';

export async function createKernel(model: ModelData, kind: EmbedderKind): Promise<PoolingKernel> {
  if (kind === 'onnx') {
    const { createOnnxKernel } = await import('./onnx.js');
    return createOnnxKernel(model);
  }
  return createStaticKernel(model);
}
