// What an MCP answer may say of a warning: its path and its message with every path inside the served
// root made relative to it, the index's own directory called "the index", and anything else that names
// a place (an absolute path elsewhere, a home directory, the working directory, another root, a URI, a
// path going up with .., credentials user:pass@, a %2F-encoded path) replaced by "[outside the root]":
// an agent learns what went wrong and how to fix it, and nothing of what lies outside the root.
//
// The places the server knows (the root, the index, and `outside`: the home directory, $SIMGREP_HOME,
// the model's folder, the temp and socket directories and the folders above them, outside-places.ts)
// are found first as whole strings, longest first, spaces and all. Then the message is read as tokens:
// runs of characters between spaces, quotes, brackets, `,` and `;`; a quoted span that starts like a
// path (/, \, ~, C:\) is one token, judged whole. With keepRelative (a tool error's), an outside path
// goes on across up to three such characters on one line (not `;`) while at most two words follow it
// (none after a `,`; after ` (word`, only across its closing bracket), and after a `.` or `:` only into
// a piece with a separator: /home/me/John, Smith. Private/x goes whole; `/srv/m, see src/a.ts` keeps
// `, see src/a.ts` (mend37). The limit:
// an outside path none of those places holds, ending in a word without a separator (/home/x/John
// Smith does not exist), keeps that word (no reader can tell it from the message's own).
//
// Linear in the message's length (one pass for the places, one over the tokens), and the message is cut to
// MAX_INPUT_CHARS first (a message may quote a query of 100,000 characters), never inside a place it knows.
import os from 'node:os';
import path from 'node:path';
import { isInside } from './scope.js';

export interface Redaction {
  /** The served root's real path (and, when it was given through a link, as given). */
  root: string;
  rootGiven?: string;
  /** The workspace's directory, when an index answered: called "the index". */
  indexDir?: string;
  /** Paths inside the root shown as they are (an error's), not relative to it (a warning's). */
  absoluteInside?: boolean;
  /**
   * A relative path that does not go up (`src/**`, `-g/--glob`) shown as it is: an error's message echoes
   * the agent's own arguments that way; every place the server names is absolute.
   */
  keepRelative?: boolean;
  /**
   * Strings shown exactly as they are where a message quotes them (`"…"`, as JSON or as given): the
   * call's own arguments, which the agent wrote (`globs "/src/["`, trial36's review).
   */
  verbatim?: readonly string[];
  /**
   * The places outside the root the server knows (outside-places.ts: the home directory, $SIMGREP_HOME,
   * the model's folder, ...), each in its forms: replaced as whole strings before any word is judged.
   */
  outside?: readonly string[];
}

export const OUTSIDE = '[outside the root]';
/** A message is cut to this many characters before it is redacted (a note shows 300 of it at most). */
export const MAX_INPUT_CHARS = 2000;
/** Characters around a path in a message (a path is cut at them; one with spaces is named by its warning's path). */
const STOP = `\\s'"()<>,;\`\\[\\]{}`;
/** A token: a quoted span that starts like a path (spaces and all), else a run between STOP characters. */
const TOKEN = new RegExp(`"(?:[/\\\\~\u0001]|[A-Za-z]:[/\\\\])[^"\\n]*"|'(?:[/\\\\~\u0001]|[A-Za-z]:[/\\\\])[^'\\n]*'|[^${STOP}]+`, 'g');
/** Inside a token, a further path after `:`, `=`, `|` or `→` is judged on its own (not a drive's C:\ or a URI's ://). */
const JOINS = '[:=|→]';
const JOINED = new RegExp(`(?<=${JOINS})(?<!^[A-Za-z]:)(?=[\\\\~\u0001]|/(?!/))`);
/** user:pass@ in a token. */
const CREDENTIALS = /^[^@/\\:]*:[^@/\\]*@/;
/** A separator percent-encoded. */
const ENCODED = /%(?:2f|5c)/i;

/**
 * A relative path as keepRelative keeps it: not absolute on this platform, nor ~, a drive (C:) or a
 * scheme (file:etc/passwd), nor a UNC or Windows root path (\\\\server\\share, \\Users): a leading \\
 * only escapes a glob's special character (`\\[`); no URI.
 */
const relativeKept = (s: string): boolean =>
  !path.isAbsolute(s) && !/^(?:~|[A-Za-z][A-Za-z0-9+.-]*:|\\(?=[^[\]{}()*?!]))/.test(s) && !s.includes('://');
/** A `..` step. */
const UP = /(?:^|[\\/])\.\.(?:[\\/]|$)/;

const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `p` within `dir` once normalized (not `dir/../x`, which isInside's string prefix takes). */
function within(dir: string, p: string): boolean {
  if (!isInside(dir, p)) return false;
  const rel = path.relative(dir, p);
  return !(rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel));
}

/** A path as an answer shows it: relative to the root inside it, the index's directory as "the index", else OUTSIDE. */
export function shownPath(p: string, o: Redaction): string {
  if (o.indexDir && within(o.indexDir, p)) return 'the index';
  for (const r of [o.root, o.rootGiven]) if (r && within(r, p)) return o.absoluteInside ? p : path.relative(r, p) || '.';
  return OUTSIDE;
}

/**
 * Cut to `max` characters, not inside a surrogate pair nor inside any of `whole` (the places the server
 * knows, the warning's own path, the call's quoted arguments): one cut there would be judged word by
 * word (`… [outside the root] Smith'…`), so the cut moves to where it starts.
 */
function cutInput(s: string, max: number, whole: readonly string[]): string {
  if (s.length <= max) return s;
  let end = max;
  for (let moved = true; moved;) {
    moved = false;
    for (const w of whole) {
      const i = w.length > 1 ? s.indexOf(w, Math.max(0, end - w.length + 1)) : -1;
      if (i >= 0 && i < end) { end = i; moved = true; }
    }
  }
  if (end > 0 && /[\uD800-\uDBFF]/.test(s[end - 1])) end -= 1;
  return `${s.slice(0, end)}…`;
}

/**
 * A warning's message as an answer may show it. `exact` (the warning's own path, which may hold spaces)
 * is replaced whole first; then the index's directory and the root, where a token starts with them, are
 * marked; then every token (split where a further path follows `:`, `=`, `|` or `→`) is judged: one
 * starting with a marked directory shows as shownPath does, one holding a separator, starting with `~`,
 * holding credentials or an encoded separator goes, any other shows as it is.
 */
export function redactMessage(message: string, o: Redaction, exact?: string): string {
  const kept: string[] = [];
  // Placeholders: \0n\0 for what may show, \x01i\x01 for dirs[i] (neither occurs in a message that names a real path).
  const keep = (s: string) => `\u0000${kept.push(s) - 1}\u0000`;
  const quotedArgs = [...new Set((o.verbatim ?? []).filter((v) => v !== '').flatMap((v) => [JSON.stringify(v), `"${v}"`]))];
  const dirs = [o.indexDir, o.root, o.rootGiven, ...(o.outside ?? [])].filter((d): d is string => !!d);
  let m = cutInput(message, MAX_INPUT_CHARS, [...quotedArgs, ...(exact ? [exact] : []), ...dirs]).replace(/[\u0000\u0001]/g, '');
  for (const q of quotedArgs.sort((a, b) => b.length - a.length)) m = m.replaceAll(q, () => keep(q));
  if (exact && path.isAbsolute(exact)) m = m.replaceAll(exact, () => keep(shownPath(exact, o)));
  // The places the server knows, longest first (the root before the home directory that holds it; ties
  // in this order): each is marked where it is a whole path or a path's start, spaces and all.
  const { re, index } = markerOf(dirs);
  m = m.replace(re, (d) => `\u0001${index.get(d)}\u0001`);
  const out: string[] = [];
  // keepRelative: where a place that goes (outside, the index, the root itself) opened a path that may
  // go on across a few stop characters (a path with a space, a comma, an apostrophe, parentheses:
  // /home/me/My Documents/x), the index in `out` of its piece, else -1; `open` says what may go on: after
  // a word, more words or the path's rest (a piece with a separator); after a `.` or `:` (/home/x/a. b/c),
  // only the path's rest, at once.
  // After two words carried (`/home/me/John Smith's home/x`), only the path's rest; after a word carried
  // through ` (`, only through a closing bracket (`/home/me/x (y)/z`, not `/srv/m (see src/a.ts)`).
  let run = -1;
  let open: Open = 'words';
  let carried = 0;
  let at = 0;
  for (const t of m.matchAll(TOKEN)) {
    const gap = m.slice(at, t.index);
    at = t.index + t[0].length;
    out.push(gap);
    const quoted = /^["']/.test(t[0]);
    if (quoted) {
      out.push(t[0][0] + t[0].slice(1, -1).split(JOINED).map((piece) => judged(piece, dirs, o).text).join('') + t[0][0]);
      run = -1;
      continue;
    }
    const follows = o.keepRelative === true && run >= 0 && bridges(gap, open);
    const pieces = t[0].split(JOINED).map((piece) => judged(piece, dirs, o));
    pieces.forEach((p, k) => {
      const next = k === 0 && follows;
      // The rest of that path (a piece with a separator; or one that starts with one right after a
      // bracket or quote: /home/me/(John)/x): the run from its place to here goes as one, and may go on.
      if (next && (p.kind === 'relative' || (p.kind === 'place' && !/\s/.test(gap)))) {
        out.splice(run);
        out.push(OUTSIDE + p.tail);
        run = out.length - 1;
        open = p.tail ? 'tail' : 'words';
        carried = 0;
        return;
      }
      out.push(p.text);
      if (p.kind === 'place') {
        run = out.length - 1;
        open = p.tail ? 'tail' : 'words';
        carried = 0;
      } else if (next && p.kind === 'word' && open === 'words' && pieces.length === 1 && !gap.includes(',')) {
        // A word the path may hold: not after a `,` (`/srv/m, see src/a.ts`), two at most.
        carried += 1;
        open = p.tail ? 'tail' : /\s[([{]/.test(gap) ? 'close' : carried >= 2 ? 'rest' : 'words';
      } else run = -1;
    });
  }
  out.push(m.slice(at));
  return out.join('').replace(/\u0000(\d+)\u0000/g, (_, i: string) => kept[Number(i)]);
}

/** The pattern that finds the places (the longest first where several start at one point) and each one's first index in dirs. */
function markerOf(dirs: readonly string[]): { re: RegExp; index: Map<string, number> } {
  const key = dirs.join('\u0000');
  let found = markers.get(key);
  if (!found) {
    const index = new Map<string, number>();
    dirs.forEach((d, i) => { if (!index.has(d)) index.set(d, i); });
    const longestFirst = [...index.keys()].sort((a, b) => b.length - a.length).map(escaped).join('|');
    found = { re: new RegExp(`(?<![^${STOP}:=|→])(?:${longestFirst})(?![^${STOP}\\\\/:.=|→%])`, 'g'), index };
    // One server's places, with each search's index directory: a few; bounded all the same.
    if (markers.size >= 64) markers.clear();
    markers.set(key, found);
  }
  return found;
}

const markers = new Map<string, { re: RegExp; index: Map<string, number> }>();

/**
 * What may go on in an outside path's run: `words` (a word or the path's rest), `rest` (only the path's
 * rest: after two words), `tail` (only the path's rest across spaces: after a `.` or `:` ending a piece),
 * `close` (only across a closing bracket: after a word carried through ` (`).
 */
type Open = 'words' | 'rest' | 'tail' | 'close';

/**
 * Whether what lies between two tokens may be inside one path: up to three stop characters on one line
 * (a space, a comma, an apostrophe, quotes, brackets), not `;` (a message's own clause: `root X; pass
 * src/x`); after a `.` or `:` that ends a piece, spaces only; after ` (word`, a closing bracket.
 */
function bridges(gap: string, open: Open): boolean {
  if (gap.length < 1 || gap.length > 3) return false;
  if (open === 'tail') return /^[^\S\r\n]+$/.test(gap);
  return !/[;\r\n]/.test(gap) && (open !== 'close' || /[)\]}]/.test(gap));
}

/**
 * How a piece was judged: a place that goes or is named (outside, the index, the root itself: a path
 * with spaces may go on after it), a relative path kept only by keepRelative, a word, or other.
 */
interface Judged { text: string; kind: 'place' | 'relative' | 'word' | 'other'; tail: string }

/** One piece of a token as it may show (its trailing `:` or `.` is punctuation, kept). */
function judged(piece: string, dirs: readonly string[], o: Redaction): Judged {
  const end = /[:.]$/.test(piece) && piece.length > 1 ? piece.length - 1 : piece.length;
  const core = piece.slice(0, end);
  const tail = piece.slice(end);
  const marked = /^\u0001(\d+)\u0001/.exec(core);
  const rest = marked ? core.slice(marked[0].length) : '';
  if (marked && /^(?:[\\/]|$)/.test(rest) && !/[\u0000\u0001]/.test(rest)) {
    const dir = dirs[Number(marked[1])];
    const shown = shownPath(dir + rest, o);
    const place = shown === OUTSIDE || shown === 'the index' || path.resolve(dir + rest) === path.resolve(dir);
    return { text: shown + tail, kind: place ? 'place' : 'other', tail };
  }
  if (o.keepRelative && !core.includes('\u0001') && relativeKept(core) && !UP.test(core) && !CREDENTIALS.test(core) && !ENCODED.test(core)) {
    return { text: piece, kind: core.includes('\u0000') ? 'other' : /[\\/]/.test(core) ? 'relative' : 'word', tail };
  }
  if (core.includes('\u0001') || /[\\/]/.test(core) || core.startsWith('~') || CREDENTIALS.test(core) || ENCODED.test(core)) {
    // What was kept whole (the warning's own path) shows, unless the piece adds a place to it.
    return /^[^\\/]*\u0000\d+\u0000[^\\/]*$/.test(core) && !core.includes('\u0001') ? { text: piece, kind: 'other', tail } : { text: OUTSIDE + tail, kind: 'place', tail };
  }
  return { text: piece, kind: core.includes('\u0000') ? 'other' : 'word', tail };
}

/**
 * A tool error's message as the MCP client may see it: what failed and how to fix it, with the paths
 * inside the root as they are, the workspaces' directory ($SIMGREP_HOME/workspaces, where the index of
 * every directory lives) as "the index", and any other absolute path as "[outside the root]" (a failing
 * index named the user's home directory: trial36).
 */
export function redactError(message: string, o: { root: string; rootGiven?: string; indexDir: string; outside?: readonly string[] }, args: readonly string[] = []): string {
  return redactMessage(message, { ...o, absoluteInside: true, keepRelative: true, verbatim: args });
}

/** A Hugging Face id's form (org/name; model/resolve.ts's), not starting with `~`, `.` or `/`. */
const REPO_ID = /^[A-Za-z0-9][\w.-]*\/[\w.-]+$/;

/**
 * The model a status answer names: a Hugging Face id (org/name) as it is, the bundled model as "bundled", a local
 * model's directory by its path inside the root, else by its base name only (where it lies is outside
 * the root: trial36's status answered /home/me/.nvm/.../simgrep/src/model/bundled/model).
 */
export function shownModel(model: string, o: { root: string; rootGiven?: string; bundledDir: string }): string {
  if (REPO_ID.test(model) && !UP.test(model)) return model;
  // A local model's id is its spec as given (~/acme-client/model, ../acme-client/model): where it lies.
  const dir = path.resolve(model === '~' || model.startsWith('~/') ? path.join(os.homedir(), model.slice(1)) : model);
  if (dir === path.resolve(o.bundledDir)) return 'bundled';
  for (const r of [o.root, o.rootGiven]) if (r && within(r, dir)) return dir;
  return path.basename(dir);
}
