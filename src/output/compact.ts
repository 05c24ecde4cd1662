// The compact form of a result, for answers on a token budget: the match line, and the signature of the
// definition that encloses it (the nearest line above it in the hunk, indented less, that defines a
// name as the ranker sees definitions), so a reader still knows where the line lives. A match line that
// is itself a definition still has one when it is nested (a method in its class, a local in its function).
import { definedName } from '../rank/definitions.js';
import type { SearchResult } from '../rank/windows.js';
import { cutText } from '../text/cut.js';

const MAX_LINE_CHARS = 240;

export interface CompactMatch {
  /** The match line's text (cut at 240 characters). */
  line: string;
  /** The enclosing definition's line, trimmed, when the hunk (or the file, given) shows one above the match (null otherwise). */
  signature: string | null;
}

/** How far above the hunk `fileLines` is searched for the enclosing definition. */
const MAX_LINES_ABOVE = 2000;

/**
 * `fileLines`: the result's whole file as lines, or null (unreadable): where the hunk shows no enclosing
 * definition, the lines above it are searched too, when the file still holds the match line as the hunk does
 * (a 7-line hunk rarely reaches its function's first line: agent47 found most compact matches inside a body
 * without one, so an agent saw `return x` alone).
 */
export function compactOf(r: SearchResult, o: { fileLines?: (path: string) => string[] | null } = {}): CompactMatch {
  const at = r.match_line - r.start;
  const line = clip(r.lines[at] ?? '');
  // Enclosing: indented less than the match line (a `const` inside the same body encloses nothing; a
  // definition at the left margin has nothing around it).
  const depth = depthOf(r.lines[at] ?? '');
  const inHunk = enclosing(r.lines, at, depth, 0);
  if (inHunk !== null || depth === 0 || !o.fileLines) return { line, signature: inHunk };
  const file = o.fileLines(r.filename);
  if (file === null || file[r.match_line] !== r.lines[at]) return { line, signature: null };
  // From the match line, not the hunk's first: a block line in the hunk (`if __name__ == "__main__":`) lowers the
  // indent a definition must have, which a search restarted above the hunk would forget (it gave the function
  // above the block).
  return { line, signature: enclosing(file, r.match_line, depth, Math.max(0, r.start - MAX_LINES_ABOVE)) };
}

/**
 * The definition whose block holds line `at` (searched up to `floor`), trimmed and clipped: the nearest line above
 * indented less that defines a name. A line indented less that defines nothing (an `if`, a closing `}`) is the
 * block the line is in: the definition must be indented less still (before agent47 any definition indented less
 * was taken: a top-level function's doc comment got the type declared above it, `if` blocks the function before).
 */
function enclosing(lines: string[], at: number, depth: number, floor: number): string | null {
  let d = depth;
  for (let i = at - 1; i >= floor && d > 0; i--) {
    const text = lines[i];
    // A signature's continuation (`) -> None:`, `): void {`, a brace on its own line, a Rust `where`, a
    // destructured parameter's `}: Props) {`) belongs to the definition above it: no block of its own.
    if (text.trim() === '' || CONTINUATION.test(text)) continue;
    const n = depthOf(text);
    if (n >= d) continue;
    if (definedName(text) !== null) return clip(text.trim());
    d = n;
  }
  return null;
}

/**
 * A line that continues a signature: led by `)` or `]`; a lone `{` (Allman, PSR-12); a `where` clause; led by `}`
 * then `:` or `)` and ending in `{` (`}: ButtonProps) {`; not `} else {`, which ends a block and opens another).
 */
const CONTINUATION = /^\s*(?:[)\]]|\{\s*$|where\b|\}\s*[:)].*\{\s*$)/;

/** A line's indent; a doc comment's ` * ` line counts as its `/**` (one less), so a top-level one is at the margin. */
function depthOf(s: string): number {
  const trimmed = s.trimStart();
  const n = s.length - trimmed.length;
  return trimmed.startsWith('*') && n > 0 ? n - 1 : n;
}

function clip(s: string): string {
  return cutText(s, MAX_LINE_CHARS);
}
