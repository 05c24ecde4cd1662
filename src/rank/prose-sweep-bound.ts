// The memory bound of the prose sweep (prose-sweep.ts): what its lists across documents hold, worked out
// from the documents before they are made, and which documents fit (the oldest kept first, as many as
// fit); the rest are bounded on their own, as a document counted since the last making is.
import { keyCount, type PackedProseLines } from './prose-lines-build.js';

/**
 * Bytes the sweep may hold, the one it answers with and one being made together (the bench tree's 1,387
 * Markdown files, 154k lines, take ~66 MB; their line terms, counted in KEPT_BYTES, another 106 MB).
 */
export const SWEEP_BYTES = 128 << 20;

/** Per line across documents: its slot (Int32). */
export const LINE_BYTES = 4;
/**
 * Lines the walk sums at a time (prose-sweep.ts sweepPlan): its scratch, BLOCK_LINE_BYTES per line of a
 * block (~450 KB), stays in a core's L2 cache.
 */
export const BLOCK_LINES = 1 << 14;
/** Per line of the walk's block: 3 Float64 sums and its place in the list of the lines that hold a term (Int32). */
export const BLOCK_LINE_BYTES = 3 * 8 + 4;
/** Per document: its `none` (Float64) and its place in the documents' array. */
export const DOC_BYTES = 8 + 8;
/** Per entry of a key's, window's or gram's list: the line less its page's first (Uint16) and its part (Float32). */
export const ENTRY_BYTES = 2 + 4;
/** Lines of a page of the lists, in bits (a key's or gram's lines are kept per page, each less the page's first: 16 bits). */
export const GRAM_PAGE_BITS = 16;
let pageBits = GRAM_PAGE_BITS;

/** Sets the pages' lines, in bits, for the sweeps made next (tests: a page's edge within documents); at most GRAM_PAGE_BITS. */
export function setGramPageBits(bits: number): void {
  pageBits = Math.min(bits, GRAM_PAGE_BITS);
}

/** The pages' lines, in bits, of the sweeps made now. */
export const gramPageBits = (): number => pageBits;

/** Pages of `lines` lines (one at least). */
export const pagesOf = (lines: number): number => Math.max(1, Math.ceil(lines / 2 ** pageBits));

/** One document's share of a sweep: lines, key and window list entries, gram list entries. */
export interface SweepShare { lines: number; entries: number; gramEntries: number; maxGram: number }

export function shareOf(t: PackedProseLines): SweepShare {
  const d = t.grams;
  let maxGram = -1;
  for (const g of d.gramId) if (g > maxGram) maxGram = g;
  const entries = t.ownStart[t.ids.length] + t.winStart[t.ids.length];
  return { lines: t.lines, entries, gramEntries: d.lineStart[d.gramId.length], maxGram };
}

/**
 * The bytes a sweep of these totals holds once made, its walk's blocks of `blockLines` lines (per key and
 * page two Int32 starts, per gram and page one; `making`: and while it is made, with the build's
 * counters: per key and page two Int32 fills, per gram and page one, per document its first line).
 */
export function sweepBytesOf(docs: number, lines: number, entries: number, gramEntries: number, maxGram: number, making: boolean, blockLines = BLOCK_LINES): number {
  const keyBuckets = keyCount() * pagesOf(lines);
  const buckets = (maxGram + 1) * pagesOf(lines);
  const made = docs * DOC_BYTES + lines * LINE_BYTES + Math.min(lines, blockLines) * BLOCK_LINE_BYTES + entries * ENTRY_BYTES
    + gramEntries * ENTRY_BYTES + (keyBuckets + 1) * 8 + (buckets + 1) * 4;
  return making ? made + keyBuckets * 8 + buckets * 4 + (docs + 1) * 4 : made;
}

/**
 * The documents a new sweep takes: the first (oldest kept) while the sweep, made, fits in `limit`; and
 * the bytes it holds while it is made. None when not even the first fits.
 */
export function fitting(docs: readonly PackedProseLines[], limit: number, blockLines = BLOCK_LINES): { take: PackedProseLines[]; makingBytes: number } {
  let lines = 0;
  let entries = 0;
  let gramEntries = 0;
  let maxGram = -1;
  let n = 0;
  let makingBytes = 0;
  for (const t of docs) {
    const s = shareOf(t);
    const bytes = sweepBytesOf(n + 1, lines + s.lines, entries + s.entries, gramEntries + s.gramEntries, Math.max(maxGram, s.maxGram), true, blockLines);
    if (bytes > limit) break;
    n++; lines += s.lines; entries += s.entries; gramEntries += s.gramEntries; maxGram = Math.max(maxGram, s.maxGram);
    makingBytes = bytes;
  }
  return { take: docs.slice(0, n), makingBytes };
}
