// The Embedder seam: lines in, vectors or query distances out. Implementations: static.ts (pure
// TypeScript kernel) and onnx.ts (onnxruntime-node); both pass test/contract/pooling-kernel.contract.test.ts.
import type { TokenizedBatch } from '../types.js';

/**
 * Pools token ids into line vectors. Kernels see token ids only (tokenization happens once, before),
 * with unknown tokens already dropped and each line truncated to the model's maxLength.
 */
export interface PoolingKernel {
  readonly id: string;
  readonly dim: number;
  /**
   * n x dim row-major mean vectors (L2-normalised when the model says so); zero rows for empty lines.
   * `sums` (n x dim, optional): as for score(), a kernel that pools by weighted row sums writes there each
   * line's sum, the very floats score() would sum for it (an index build hands them to a resident scorer).
   */
  embed(batch: TokenizedBatch, sums?: Float64Array): Promise<Float32Array>;
  /**
   * Cosine distance (1 - cos) of each line to `query` (unit length). NaN for lines with no tokens:
   * they are not candidates. With `maxDistance`, a kernel may return +Infinity for lines it can prove
   * are farther than that (they could not enter the results); every other line is exact.
   * `maxDistance` may also give one limit per line.
   * `sums` (n x dim, optional): a kernel that pools by weighted row sums (static.ts) writes there the sum
   * each exactly scored line's distance was taken from (static.ts's sumDistance gives it again); rows
   * it did not write are left as they were.
   */
  score(batch: TokenizedBatch, query: Float32Array, maxDistance?: number | Float32Array, sums?: Float64Array): Promise<Float32Array>;
  /**
   * Optional: the caller will score with this kernel many times (a resident process's in-process
   * scorer), so it may make a faster path in the background (static.ts: pooling in WebAssembly) that
   * gives the same floats; settles with whether it did (once it is in use).
   */
  prepare?(): Promise<boolean>;
  /**
   * Optional: works out now what its pruning bound needs whatever the query (static.ts: the pruning
   * directions, into the model's shared slot when it has one), so that the first search that prunes
   * need not: a searcher warming up before its first search.
   */
  prepareBound?(): void;
  close?(): Promise<void>;
}
