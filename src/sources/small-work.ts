// Whether a search's local paths are small work: the text files a walk of them lists (the search's own
// filters and ignore rules) total under a byte bound. The walk stops as soon as a bound is passed: the
// bytes, the files, or the directory entries it has listed (filters that leave out most of a big tree
// list few files, but the walk still lists every directory: past maxEntries the work counts as big), so
// a big tree costs at most its first maxEntries entries' listing and its first files' sizes.
import { looksBinary } from '../text/decode.js';
import { utf16Bom } from '../text/encoding.js';
import { createFsSource } from './fs.js';
import type { PathSourceOptions } from './resolve.js';
import { isRemoteUri } from './uri.js';

export interface SmallWorkLimits {
  /** The files' bytes must total less than this. */
  maxBytes: number;
  /** At most this many files (bounds the walk and its stats on a tree of many tiny files). */
  maxFiles: number;
  /** At most this many directory entries listed, whatever the filters keep (bounds the walk of a big tree that they mostly leave out). */
  maxEntries: number;
}

/** Thrown from the walk's listing hook to end it once past maxEntries. */
const PAST_ENTRIES = Symbol('past maxEntries');

/** A file this big is looked at (its first 8 KiB) before it counts: a binary one is skipped unscored. */
const PEEK_FROM_BYTES = 64 << 10;
const PEEK_BYTES = 8192;

/**
 * True when every path is local and the files a walk of them lists (with `o`'s filters) are at most
 * `maxFiles` and their bytes total under `maxBytes`, a file of PEEK_FROM_BYTES or more counting nothing
 * where its first 8 KiB hold a NUL and no UTF-16 mark (the search skips it as binary, unscored); false at the first file
 * past either bound, once the walk has listed more than `maxEntries` directory entries, for a remote URI, a
 * pipe, or a file whose size cannot be known; true once `signal` is aborted (the search that asked stops
 * anyway: no pool is started for it). The walk's warnings are dropped: the search's own walk says them.
 */
export async function localWorkWithin(paths: string[], o: PathSourceOptions, limits: SmallWorkLimits, signal?: AbortSignal): Promise<boolean> {
  if (paths.some(isRemoteUri)) return false;
  const { remote: _, onListed: __, ...walk } = o;
  let entries = 0;
  const source = createFsSource({ ...walk, paths, onListed: (_dir, _rules, n) => { if ((entries += n) > limits.maxEntries) throw PAST_ENTRIES; } });
  let files = 0;
  let bytes = 0;
  try {
    for await (const entry of source.list(signal)) {
      const size = source.sizeOf(entry);
      if (size === undefined || ++files > limits.maxFiles) return false;
      if (size >= PEEK_FROM_BYTES) {
        const head = source.headOf(entry, PEEK_BYTES);
        if (head === undefined) return false;
        if (looksBinary(head) && !utf16Bom(head)) continue;
      }
      bytes += size;
      if (bytes >= limits.maxBytes) return false;
    }
  } catch (e) {
    if (e === PAST_ENTRIES) return false;
    throw e;
  }
  return true;
}
