// The note that tells an MCP client what a search could not use (the warnings the CLI prints on stderr:
// unreadable files, unusable ignore files, too-large files, a timeout, a query searched by its words alone, ...) and what to do about it (their
// messages), held to a share of the answer's budget, and naming only what lies inside the served root,
// relative to it (redact.ts: the index's own directory is "the index", anything else "[outside the root]").
import { CHARS_PER_TOKEN } from '../output/budget.js';
import { cutText } from '../text/cut.js';
import { WHOLE_SEARCH_CODES, type SourceWarning } from '../sources/source.js';
import { redactMessage, shownPath, type Redaction } from './redact.js';
import { toolTerms } from './tool-terms.js';

/** At most this share of the answer's budget goes to the warning note (the counts by code always show). */
const NOTE_SHARE = 1 / 5;
const MAX_PATH_CHARS = 160;
/** A longer message is cut (the CLI prints it whole). */
const MAX_MESSAGE_CHARS = 300;
/** The first few paths are enough to act on; the CLI lists them all. */
const MAX_PATHS = 10;

/**
 * One note for all of a search's warnings, or null when there are none: the count by code, then as
 * many of the first warnings (ten at most) as fit the note's share of `maxTokens`, each its code and its
 * message (redacted: redact.ts), then "N more". A warning about the whole search (WHOLE_SEARCH_CODES: the
 * query searched by its words alone, a query of stop words or numbers, -J capped) comes first, its code and
 * message; any other warning with no path (a worker's error, a missing path given as '') only its code: its
 * message may name what lies outside the root in words no redaction knows.
 */
export function warningNote(warnings: readonly SourceWarning[], o: Redaction & { maxTokens: number }): string | null {
  if (warnings.length === 0) return null;
  const byCode = new Map<string, number>();
  for (const w of warnings) byCode.set(w.code, (byCode.get(w.code) ?? 0) + 1);
  const counts = [...byCode].map(([code, n]) => `${n} ${code}`).join(', ');
  const head = `${warnings.length} ${warnings.length === 1 ? 'warning' : 'warnings'} (${counts}): this answer may leave out what they name; the CLI prints them in full`;
  const capChars = Math.floor(o.maxTokens * CHARS_PER_TOKEN * NOTE_SHARE);
  const shown: string[] = [];
  let chars = head.length;
  const searchWide = warnings.filter(wholeSearch);
  for (const w of searchWide.length > 0 ? [...searchWide, ...warnings.filter((x) => !wholeSearch(x))] : warnings) {
    const item = itemOf(w, o);
    // Room kept for the " and N more" tail.
    if (shown.length === MAX_PATHS || chars + item.length + 2 + 24 > capChars) break;
    shown.push(item);
    chars += item.length + 2;
  }
  const more = warnings.length - shown.length;
  if (shown.length === 0) return more > 0 ? `${head}; raise max_tokens to see which` : head;
  return `${head}: ${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}

/** One warning: its code and redacted message, led by its path when the message does not name it. */
function itemOf(w: SourceWarning, o: Redaction): string {
  if (wholeSearch(w)) {
    // In the tools' terms after the cut (which finds the quoted query by its first and last double quote),
    // the cut leaving room for what the terms add.
    const message = redactMessage(w.message, o);
    return `${w.code}: ${toolTerms(cutQuoted(message, MAX_MESSAGE_CHARS - (toolTerms(message).length - message.length)))}`;
  }
  if (w.path === '') return w.code;
  const name = cutText(shownPath(w.path, o), MAX_PATH_CHARS, true);
  const message = cutText(redactMessage(w.message, o, w.path), MAX_MESSAGE_CHARS);
  // The root is '.', which any message with a dot in it "includes": named all the same (WATCH_OFF's path is the walk's).
  return name !== '.' && message.includes(name) ? `${w.code}: ${message}` : `${w.code}: ${name}: ${message}`;
}

const wholeSearch = (w: SourceWarning): boolean => w.path === '' && WHOLE_SEARCH_CODES.has(w.code);

/**
 * A whole-search message held to `max`: the query it quotes (from its first double quote to its last) is
 * cut, so that the advice after it still shows; a message with no quote, or too long still, is cut at its end.
 */
function cutQuoted(s: string, max: number): string {
  if (s.length <= max) return s;
  const open = s.indexOf('"');
  const close = s.lastIndexOf('"');
  const over = s.length - max;
  if (open >= 0 && close - open - 1 > over) {
    const quoted = cutText(s.slice(open + 1, close), close - open - 1 - over - 1);
    return cutText(`${s.slice(0, open + 1)}${quoted}${s.slice(close)}`, max);
  }
  return cutText(s, max);
}
