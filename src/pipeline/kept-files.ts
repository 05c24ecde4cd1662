// A scan in a resident process while its index builds (issue 30): the files the build already pooled have
// their chunks' exact sums kept by the searcher's in-process scorer. A scanned file whose bytes hash to the
// content the build pooled gets that state as its pieces' key, and its batches bring the kept sums along, so
// a worker scores those chunks by one dot product each instead of tokenizing and pooling them again. Any
// other content (a file changed since, one the build has not reached) is scored as it was read.
import { createHash } from 'node:crypto';
import { WHOLE_READ_BYTES } from '../sources/source.js';
import type { Batch } from '../text/batch-packer.js';

export interface KeptFiles {
  /** The state a file's chunk sums are kept under, with the sha256 (hex) of the bytes they were pooled from. */
  stateOf(path: string): { state: string; sha256: string } | undefined;
  /** The exact pooled sum kept under a chunk's key (chunk-scoring.ts), if any. */
  sumOf(key: string): Float64Array | undefined;
}

/**
 * The file's bytes passed on unchanged, the first of them only once all are read (up to WHOLE_READ_BYTES)
 * and hashed: `onSame` is called before anything is passed on when they hash to `sha256`. A bigger file
 * is passed on unkeyed.
 */
export async function* hashedFirst(raw: AsyncIterable<Uint8Array>, sha256: string, onSame: () => void): AsyncIterable<Uint8Array> {
  const parts: Uint8Array[] = [];
  let bytes = 0;
  const it = raw[Symbol.asyncIterator]();
  for (let r = await it.next(); !r.done; r = await it.next()) {
    parts.push(r.value);
    bytes += r.value.length;
    if (bytes > WHOLE_READ_BYTES) {
      yield* parts;
      for (let rest = await it.next(); !rest.done; rest = await it.next()) yield rest.value;
      return;
    }
  }
  const hash = createHash('sha256');
  for (const p of parts) hash.update(p);
  if (hash.digest('hex') === sha256) onSame();
  yield* parts;
}

/**
 * The kept sums of a batch's keyed chunks (its keyed segments' score ranges cut where chunk scoring cuts
 * them: at file lines that are multiples of `chunkLines`), or undefined when none is kept.
 */
export function keptSumsOf(batch: Batch, kept: KeptFiles, chunkLines: number, ignoreCase: boolean): { keys: string[]; sums: Float64Array } | undefined {
  const keys: string[] = [];
  const found: Float64Array[] = [];
  for (const seg of batch.segments) {
    const state = seg.piece.key;
    if (state === undefined) continue;
    const start = seg.firstLine + (seg.scoreFrom - seg.from);
    const end = start + (seg.scoreTo - seg.scoreFrom);
    for (let a = start; a < end;) {
      const b = Math.min(end, a + chunkLines - (a % chunkLines));
      const key = `${ignoreCase ? 'i' : 'c'}${state}:${a}:${b - a}`;
      const sum = kept.sumOf(key);
      if (sum) { keys.push(key); found.push(sum); }
      a = b;
    }
  }
  if (found.length === 0) return undefined;
  const dim = found[0].length;
  const sums = new Float64Array(found.length * dim);
  found.forEach((s, i) => sums.set(s, i * dim));
  return { keys, sums };
}
