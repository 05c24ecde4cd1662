// What an MCP answer may say of a warning: its path and its message with every path inside the served
// root made relative to it, the index's own directory called "the index", and anything else that names
// a place (an absolute path elsewhere, a home directory, the working directory, another root, a URI, a
// path going up with ..) replaced by "[outside the root]": an agent learns what went wrong and how to
// fix it, and nothing of what lies outside the root.
import path from 'node:path';
import { isInside } from './scope.js';

export interface Redaction {
  /** The served root's real path (and, when it was given through a link, as given). */
  root: string;
  rootGiven?: string;
  /** The workspace's directory, when an index answered: called "the index". */
  indexDir?: string;
}

export const OUTSIDE = '[outside the root]';
/** Characters around a path in a message (a path is cut at them; one with spaces is named by its warning's path). */
const STOP = `\\s'"()<>,;\`\\[\\]{}`;
const ENDS = `(?=[:.]?(?:[${STOP}]|$))`;
/** Any token that holds a separator (or is a URI): a place, unless it was made relative above. */
const PLACE = new RegExp(`[^${STOP}]*[\\\\/][^${STOP}]*?${ENDS}|~[^${STOP}]*?${ENDS}`, 'g');

const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A path as an answer shows it: relative to the root inside it, the index's directory as "the index", else OUTSIDE. */
export function shownPath(p: string, o: Redaction): string {
  if (o.indexDir && isInside(o.indexDir, p)) return 'the index';
  for (const r of [o.root, o.rootGiven]) if (r && isInside(r, p)) return path.relative(r, p) || '.';
  return OUTSIDE;
}

/**
 * A warning's message as an answer may show it. `exact` (the warning's own path, which may hold spaces)
 * is replaced whole first; then every token starting with the index's directory or the root; then any
 * other token that names a place goes.
 */
export function redactMessage(message: string, o: Redaction, exact?: string): string {
  const kept: string[] = [];
  // Placeholders hold what may show (NUL never occurs in a message that names a real path).
  const keep = (s: string) => `\u0000${kept.push(s) - 1}\u0000`;
  let m = message.replaceAll('\u0000', '');
  if (exact && path.isAbsolute(exact)) m = m.replaceAll(exact, () => keep(shownPath(exact, o)));
  for (const dir of [o.indexDir, o.root, o.rootGiven]) {
    if (!dir) continue;
    const re = new RegExp(`(?<![^${STOP}])${escaped(dir)}(?:[\\\\/][^${STOP}]*?)?${ENDS}`, 'g');
    m = m.replace(re, (p) => keep(isInside(dir, p) ? shownPath(p, o) : OUTSIDE));
  }
  m = m.replace(PLACE, (p) => (/^[^\\/]*\u0000\d+\u0000[^\\/]*$/.test(p) ? p : OUTSIDE));
  return m.replace(/\u0000(\d+)\u0000/g, (_, i: string) => kept[Number(i)]);
}
