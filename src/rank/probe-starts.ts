// Where the identifiers that hold one of a plan's probes start, found in one pass over a text (issue 30):
// a pasted chunk's query (find_related) has ~24 probes, and a search of the scored ranges' text per probe
// read each range 24 times. The probes as one regular expression (their alternation: the engine's one
// pass), each identifier it meets in taken once.
import { isDigit, isIdentChar } from './term-index.js';

const LOWER_IDENT = /^[a-z0-9_]+$/;
const NON_ASCII = /[^\x00-\x7f]/;

/** Per probes array (a plan's are made once), the alternation of its probes, or null (see probesPattern). */
const patterns = new WeakMap<readonly string[], RegExp | null>();

/** A pattern that matches nothing: every probe holds a character no ASCII text has. */
const NOTHING = /(?!)/g;

/**
 * The probes' alternation, or null when a probe is empty or holds an ASCII character that is not a
 * lower-case identifier's: the caller searches for each probe then. A probe holding a non-ASCII character
 * is left out: the texts searched are ASCII (the callers' rule), where it is never found.
 */
export function probesPattern(probes: readonly string[]): RegExp | null {
  let made = patterns.get(probes);
  if (made === undefined) patterns.set(probes, (made = makePattern(probes)));
  return made;
}

function makePattern(probes: readonly string[]): RegExp | null {
  if (probes.length === 0) return null;
  const ascii = probes.filter((p) => !NON_ASCII.test(p));
  if (!ascii.every((p) => LOWER_IDENT.test(p))) return null;
  return ascii.length > 0 ? new RegExp(ascii.join('|'), 'g') : NOTHING;
}

/**
 * The starts, ascending and each once, of the identifiers of an ASCII `text` (`lower`: it lower-cased)
 * that hold a probe of `pattern` (probesPattern), where an identifier's leading digits are not part of
 * it (words.ts: its start past them, as term-index.ts reads it); null when none does. A probe holds
 * identifier characters only, so each of its places lies within one identifier: once one is found in an
 * identifier, the search goes on after it.
 */
export function probeStarts(text: string, lower: string, pattern: RegExp): number[] | null {
  let spans: number[] | null = null;
  pattern.lastIndex = 0;
  for (let m = pattern.exec(lower); m !== null; m = pattern.exec(lower)) {
    let s = m.index;
    while (s > 0 && isIdentChar(text.charCodeAt(s - 1))) s--;
    let e = pattern.lastIndex;
    while (e < text.length && isIdentChar(text.charCodeAt(e))) e++;
    pattern.lastIndex = e;
    while (s < e && isDigit(text.charCodeAt(s))) s++;
    (spans ??= []).push(s);
  }
  return spans;
}
