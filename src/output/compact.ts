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
  /** The enclosing definition's line, trimmed, when the hunk shows one above the match (null otherwise). */
  signature: string | null;
}

export function compactOf(r: SearchResult): CompactMatch {
  const at = r.match_line - r.start;
  const line = clip(r.lines[at] ?? '');
  // Enclosing: indented less than the match line (a `const` inside the same body encloses nothing; a
  // definition at the left margin has nothing around it).
  const depth = indent(r.lines[at] ?? '');
  for (let i = at - 1; i >= 0; i--) {
    const text = r.lines[i];
    if (text.trim() !== '' && indent(text) < depth && definedName(text) !== null) return { line, signature: clip(text.trim()) };
  }
  return { line, signature: null };
}

function indent(s: string): number {
  return s.length - s.trimStart().length;
}

function clip(s: string): string {
  return cutText(s, MAX_LINE_CHARS);
}
