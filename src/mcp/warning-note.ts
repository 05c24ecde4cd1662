// The note that tells an MCP client what a search could not use (the warnings the CLI prints on stderr:
// unreadable files, unusable ignore files, too-large files, a timeout, ...), held to a share of the
// answer's budget, and naming only what lies inside the served root (the index's own directory is "the index").
import { CHARS_PER_TOKEN } from '../output/budget.js';
import type { SourceWarning } from '../sources/source.js';
import { isInside } from './scope.js';

/** At most this share of the answer's budget goes to the warning note (the counts by code always show). */
const NOTE_SHARE = 1 / 5;
const MAX_PATH_CHARS = 160;
/** The first few paths are enough to act on; the CLI lists them all. */
const MAX_PATHS = 10;

/**
 * One note for all of a search's warnings, or null when there are none: the count by code, then as
 * many of the first paths (with their codes; ten at most) as fit the note's share of `maxTokens`, then "N more".
 * A file's message is left out: it can name paths outside the root (the index's directory, the cwd).
 * A warning about the whole search (no path: the query searched by its words alone, a query of stop
 * words, a timeout) names no path: its message shows, cut to MAX_PATH_CHARS, before the paths (before
 * trial35 it read "a path outside the root").
 */
export function warningNote(warnings: readonly SourceWarning[], o: { root: string; indexDir?: string; maxTokens: number }): string | null {
  if (warnings.length === 0) return null;
  const byCode = new Map<string, number>();
  for (const w of warnings) byCode.set(w.code, (byCode.get(w.code) ?? 0) + 1);
  const counts = [...byCode].map(([code, n]) => `${n} ${code}`).join(', ');
  const head = `${warnings.length} ${warnings.length === 1 ? 'warning' : 'warnings'} (${counts}): this answer may leave out what they name; the CLI prints them in full`;
  const capChars = Math.floor(o.maxTokens * CHARS_PER_TOKEN * NOTE_SHARE);
  const shown: string[] = [];
  let chars = head.length;
  const searchWide = warnings.filter((w) => w.path === '');
  for (const w of searchWide.length > 0 ? [...searchWide, ...warnings.filter((x) => x.path !== '')] : warnings) {
    const item = `${w.path === '' ? clip(w.message) : nameOf(w.path, o)} (${w.code})`;
    // Room kept for the " and N more" tail.
    if (shown.length === MAX_PATHS || chars + item.length + 2 + 24 > capChars) break;
    shown.push(item);
    chars += item.length + 2;
  }
  const more = warnings.length - shown.length;
  if (shown.length === 0) return more > 0 ? `${head}; raise max_tokens to see which` : head;
  return `${head}: ${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}

/** A search-wide warning's message, its end cut past MAX_PATH_CHARS (a pasted query can be long). */
function clip(message: string): string {
  return message.length > MAX_PATH_CHARS ? `${message.slice(0, MAX_PATH_CHARS)}…` : message;
}

/** A warning's path as an answer may show it: inside the root as is, the index's directory as "the index". */
function nameOf(p: string, o: { root: string; indexDir?: string }): string {
  if (o.indexDir && isInside(o.indexDir, p)) return 'the index';
  if (!isInside(o.root, p)) return 'a path outside the root';
  return p.length > MAX_PATH_CHARS ? `…${p.slice(p.length - MAX_PATH_CHARS)}` : p;
}
