// Strings measured and cut by code point, as Python's str is, without copying a long string into an
// array of characters (Array.from of 50 MB took 4 s and ~1 GB for `state.s[:30]`): a string without
// surrogates (nearly every one) is indexed by UTF-16 unit, one with them is walked only as far as needed.
const SURROGATE = /[\uD800-\uDFFF]/;

export function hasSurrogates(s: string): boolean {
  return SURROGATE.test(s);
}

/** A surrogate pair starts at UTF-16 offset i (a lone surrogate counts as one code point, as Array.from does). */
function pairAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff) return false;
  const d = s.charCodeAt(i + 1);
  return d >= 0xdc00 && d <= 0xdfff;
}

const PAIR = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

/** The surrogate pairs in s (the regex engine scans; a loop of charCodeAt over 50 MB took a second). */
function countPairs(s: string): number {
  let n = 0;
  PAIR.lastIndex = 0;
  while (PAIR.exec(s)) n++;
  return n;
}

/** The UTF-16 offset k code points after offset from (or the end): a window of k units holds at least
 *  k/2 code points, so a few windows reach it, each counted by countPairs. */
function advance(s: string, from: number, k: number): number {
  let i = from;
  let left = k;
  while (left > 0 && i < s.length) {
    const j = Math.min(s.length, i + left);
    left -= j - i - countPairs(s.slice(i, j));
    // A pair cut by the window's end was counted as one code point: take its second half too.
    i = pairAt(s, j - 1) ? j + 1 : j;
  }
  return Math.min(i, s.length);
}

/** len(s): its code points. */
export function cpLength(s: string): number {
  return hasSurrogates(s) ? s.length - countPairs(s) : s.length;
}

/** s[start:end] by code points (0 <= start <= end; an end past the string stops at its end). */
export function cpSlice(s: string, start: number, end: number): string {
  if (end <= start) return '';
  if (!hasSurrogates(s)) return s.slice(start, end);
  const a = advance(s, 0, start);
  return s.slice(a, advance(s, a, end - start));
}

/** The first n code points of s, walking only those (no scan of the rest). */
export function cpPrefix(s: string, n: number): string {
  return s.slice(0, advance(s, 0, Math.max(0, n)));
}
