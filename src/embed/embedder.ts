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
  /** n x dim row-major mean vectors (L2-normalised when the model says so); zero rows for empty lines. */
  embed(batch: TokenizedBatch): Promise<Float32Array>;
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
   * Optional (static.ts): the coordinates of tokens in the basis its pruning bound works in, for `query`,
   * so that a caller can bound a text's cosine before making its ids (word-bound.ts).
   */
  boundCoords?(query: Float32Array): TokenCoords;
  close?(): Promise<void>;
}

/**
 * Tokens' weighted coordinates in a pruning basis whose first vector is the query: a text's cosine to
 * the query is at most boundOf (prune-basis.ts) of the sum of its tokens' coordinates.
 */
export interface TokenCoords {
  /** Coordinates per token. */
  readonly k: number;
  /** How many make the first, looser bound (the kernel's first stage). */
  readonly first: number;
  /** Adds `times` x token id's weighted coordinates [from, to) to c[at + from, at + to). */
  add(id: number, times: number, c: Float64Array, at: number, from: number, to: number): void;
}
