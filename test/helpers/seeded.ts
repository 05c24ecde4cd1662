// Seeded test data: mulberry32, small and good enough, so a test sees the same numbers every run.
import type { ModelData } from '../../src/types.js';

/** Uniform draws in [0, 1) from `seed`. */
export function mulberry32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A model of `vocab` tokens with a seeded float32 table in a SharedArrayBuffer (as a searcher shares it
 * with its threads); with `rows`, a vocabulary-quantized one: each token mapped to one of `rows` rows,
 * with a weight of its own. No tokenizer: kernels are fed token ids.
 */
export function seededModel(id: string, seed: number, dim: number, vocab: number, o: { rows?: number; normalize: boolean }): ModelData {
  const rand = mulberry32(seed);
  const rows = o.rows ?? vocab;
  const table = new Float32Array(new SharedArrayBuffer(rows * dim * 4));
  for (let i = 0; i < table.length; i++) table[i] = (rand() * 2 - 1) * 0.37;
  const m: ModelData = { id: `${id}-${seed}`, dir: '/nonexistent', tokenizerPath: '/nonexistent/tokenizer.json', table, rows, dim, normalize: o.normalize, maxLength: 512, unkId: null };
  if (o.rows !== undefined) {
    m.mapping = Int32Array.from({ length: vocab }, () => Math.floor(rand() * rows));
    m.weights = Float32Array.from({ length: vocab }, () => 0.05 + rand() * 3);
  }
  return m;
}
