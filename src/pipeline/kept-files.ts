// A scan in a resident process while its index builds (issue 30): the files the build already pooled have
// their chunks' exact sums kept by the searcher's in-process scorer. A scanned file whose bytes hash to the
// content the build pooled gets that state as its pieces' key, and its batches bring the kept sums along, so
// a worker scores those chunks by one dot product each instead of tokenizing and pooling them again. Any
// other content (a file changed since, one the build has not reached) is scored as it was read. A prose
// document the build kept, its line terms counted, gets its statistics and a bound on its best line from
// them (as an index search's prose source does) instead of being counted again.
import { createHash } from 'node:crypto';
import { WHOLE_READ_BYTES } from '../sources/source.js';
import { proseBest, proseReach } from '../rank/prose-lines.js';
import type { RankPlan } from '../rank/plan.js';
import type { ProseLineTerms } from '../types.js';
import type { Batch } from '../text/batch-packer.js';

export interface KeptFiles {
  /**
   * The state a file's chunk sums are kept under, with the sha256 (hex) of the bytes they were pooled from;
   * for a prose file the build kept, its line terms once counted (rank/prose-lines.ts).
   */
  stateOf(path: string): { state: string; sha256: string; lines?: () => ProseLineTerms | null | undefined } | undefined;
  /** The exact pooled sum kept under a chunk's key (chunk-scoring.ts), if any. */
  sumOf(key: string): Float64Array | undefined;
}

/** What a resident process's index build registers of a file it pooled (code) or kept (prose) for the scans meanwhile. */
export interface PooledFile {
  /** Its state as indexed (the chunk keys' file part), ending in its content's sha256. */
  state: string;
  /** A kept prose document's line terms once counted. */
  lines?: () => ProseLineTerms | null | undefined;
}

/**
 * The file's bytes passed on unchanged, the first of them only once all are read (up to WHOLE_READ_BYTES)
 * and hashed: `onSame` is called before anything is passed on when they hash to `sha256`. A bigger file
 * is passed on unkeyed. The source is closed however its reader stops (early, or on an error); a read
 * error passes on the bytes read before it first, as a plain read would have.
 */
export async function* hashedFirst(raw: AsyncIterable<Uint8Array>, sha256: string, onSame: () => void): AsyncIterable<Uint8Array> {
  const parts: Uint8Array[] = [];
  let bytes = 0;
  let passed = false;
  const it = raw[Symbol.asyncIterator]();
  try {
    try {
      for (let r = await it.next(); !r.done; r = await it.next()) {
        parts.push(r.value);
        bytes += r.value.length;
        if (bytes > WHOLE_READ_BYTES) {
          passed = true;
          yield* parts;
          for (let rest = await it.next(); !rest.done; rest = await it.next()) yield rest.value;
          return;
        }
      }
    } catch (e) {
      if (!passed) { passed = true; yield* parts; }
      throw e;
    }
    const hash = createHash('sha256');
    for (const p of parts) hash.update(p);
    if (hash.digest('hex') === sha256) onSame();
    passed = true;
    yield* parts;
  } finally {
    await it.return?.();
  }
}

/**
 * The kept sums of a batch's keyed chunks (its keyed segments' score ranges cut where chunk scoring cuts
 * them: at file lines that are multiples of `chunkLines`), or undefined when none is kept. What the request
 * carries names a segment by its index, not by its state (~170 characters: cloning the states' keys for
 * every chunk cost the main thread ~0.3 s a scan of the bench tree): `rangeKeys` per score range, and the
 * keys chunk scoring then makes of them, `${case}${range}:${firstLine}:${lines}`.
 */
export function keptSumsOf(batch: Batch, kept: KeptFiles, chunkLines: number, ignoreCase: boolean): { rangeKeys: string[]; keys: string[]; sums: Float64Array } | undefined {
  const keys: string[] = [];
  const found: Float64Array[] = [];
  const prefix = ignoreCase ? 'i' : 'c';
  batch.segments.forEach((seg, r) => {
    const state = seg.piece.key;
    if (state === undefined) return;
    const start = seg.firstLine + (seg.scoreFrom - seg.from);
    const end = start + (seg.scoreTo - seg.scoreFrom);
    for (let a = start; a < end;) {
      const b = Math.min(end, a + chunkLines - (a % chunkLines));
      const sum = kept.sumOf(`${prefix}${state}:${a}:${b - a}`);
      if (sum) { keys.push(`${prefix}${r}:${a}:${b - a}`); found.push(sum); }
      a = b;
    }
  });
  if (found.length === 0) return undefined;
  const dim = found[0].length;
  const sums = new Float64Array(found.length * dim);
  found.forEach((s, i) => sums.set(s, i * dim));
  return { rangeKeys: batch.segments.map((seg, r) => (seg.piece.key === undefined ? '' : String(r))), keys, sums };
}

/**
 * Whether no line of a prose document can enter the top-k, from its counted line terms (the bounds an
 * index search's prose source skips a document by, at a cosine of 1: rank/prose-lines.ts); the floor only
 * falls, so its lines would all be dropped.
 */
export function proseOutOfReach(lines: ProseLineTerms, plan: RankPlan, path: string, floor: number): boolean {
  return proseReach(lines, plan, path) > floor || proseBest(lines, plan, path, undefined, floor) > floor;
}
