// The covered chunks' cosines for the candidate pass, where a resident process's kernel is ready: all
// of them at once, or upper bounds of them from its int8 copy (cosine-bounds.ts).
import type { Snapshot } from '../snapshot/snapshot.js';
import { cosineKernel, type CosineKernel } from './chunk-cosines.js';
import type { CandidateQuery } from './candidate-query.js';
import { work } from './work-arrays.js';

/** How many chunks the covered files hold. */
export function coveredChunks(s: Snapshot, q: CandidateQuery): number {
  let total = 0;
  for (let f = 0; f < s.files.length; f++) if (q.display[f] !== undefined) total += s.files[f].chunkCount;
  return total;
}

/**
 * Each covered file's chunks' cosines (indexed by chunk) from the kernel, or upper bounds of them where
 * the kernel has them (`bounds`); null when it is not ready.
 */
export function coveredCosines(s: Snapshot, q: CandidateQuery): { values: Float64Array; bounds: boolean; kernel: CosineKernel } | null {
  const kernel = cosineKernel(s.halves, s.dim, q.resident === true);
  if (!kernel) return null;
  const out = work('cosines', Float64Array, s.start.length);
  kernel.setQuery(q.query);
  const fill = kernel.bounds ? kernel.bounds.bind(kernel) : kernel.cosines.bind(kernel);
  // Runs of adjacent covered files in one call each (a search of a directory covers a run of files).
  let from = -1;
  let to = -1;
  for (let f = 0; f < s.files.length; f++) {
    const file = s.files[f];
    if (q.display[f] === undefined || file.chunkCount === 0) continue;
    if (file.firstChunk !== to) { fill(from, to, out); from = file.firstChunk; }
    to = file.firstChunk + file.chunkCount;
  }
  fill(from, to, out);
  return { values: out, bounds: kernel.bounds !== undefined, kernel };
}
