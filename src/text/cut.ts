// Text cut to a length for messages and answers, never inside a surrogate pair (mend35: a cut emoji or
// Gothic letter is not well-formed text, which strict clients refuse).

/**
 * `s` held to `max` UTF-16 units, then "…" (before it when `keepEnd`: the end kept), cut on a code point
 * boundary: never half a surrogate pair (an emoji, a Gothic letter), which is not well-formed text and
 * which a strict client refuses.
 */
export function cutText(s: string, max: number, keepEnd = false): string {
  if (s.length <= max) return s;
  if (keepEnd) {
    let from = s.length - max;
    if (isLowSurrogate(s.charCodeAt(from)) && from > 0 && isHighSurrogate(s.charCodeAt(from - 1))) from++;
    return `…${s.slice(from)}`;
  }
  let to = max;
  if (to > 0 && isHighSurrogate(s.charCodeAt(to - 1)) && isLowSurrogate(s.charCodeAt(to))) to--;
  return `${s.slice(0, to)}…`;
}

const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** How much of a query a message quotes: a longer one is cut (cutText), so the advice after it shows. */
export const QUOTED_QUERY_CHARS = 60;

/** A query as a message quotes it: in double quotes, cut to QUOTED_QUERY_CHARS with an ellipsis. */
export const quotedQuery = (query: string): string => `"${cutText(query, QUOTED_QUERY_CHARS)}"`;

/** `n unit`, the unit in the plural unless n is 1 ("1 file", "2 files"): for counts in messages. */
export function counted(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}
