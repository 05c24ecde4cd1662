// -g/--glob as ripgrep means it: gitignore-style globs over a path relative to the searched root, the
// last glob that matches a path decides, `!` excludes, and once one glob includes, only files some
// glob includes are kept. One matcher for a directory walk (which prunes) and a flat listing.
import { SimgrepError } from '../errors.js';
import { withoutTrailingSlashes } from './uri.js';
import { braceProblem, compileGlob, showGlob } from './wildcard.js';

export interface GlobFilter {
  /** Whether a walk enters this directory (its path relative to the root, '/'-separated). */
  dir(rel: string): boolean;
  /** Whether a file a walk found is kept (the walk entered every directory above it). */
  file(rel: string): boolean;
  /** Whether a file of a flat listing (an object store, an index's file list) is kept: no directory above it excluded, and the file kept. */
  listed(rel: string): boolean;
  /** Whether a walk reaches this directory: neither it nor one above it excluded. */
  enters(rel: string): boolean;
}

interface Rule {
  exclude: boolean;
  dirOnly: boolean;
  test: (rel: string) => boolean;
  /** For a glob P/**: whether a directory is P, everything below which the glob matches. */
  holds?: (rel: string) => boolean;
}

/** Refuses a glob that cannot mean anything, saying how to fix it. */
export function checkGlob(glob: unknown): void {
  const bad = (why: string) => new SimgrepError('BAD_FLAG', `-g/--glob ${showGlob(glob as string)} ${why}`);
  if (typeof glob !== 'string') throw new SimgrepError('BAD_FLAG', `-g/--glob takes strings (got ${typeof glob}); e.g. "*.ts" or "!vendor/"`);
  const body = glob.startsWith('!') ? glob.slice(1) : glob;
  if (withoutTrailingSlashes(body.replace(/^\.?\//, '')).trim() === '') throw bad('is empty; give a pattern such as "*.ts", "src/**" or "!vendor/"');
  let square = 0; let curly = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\') { i++; continue; }
    if (c === '[') square++; else if (c === ']' && square > 0) square--;
    else if (c === '{') curly++; else if (c === '}') curly--;
    if (curly < 0) throw bad('has a } without its {; escape it as \\}');
  }
  if (square > 0) throw bad('has a [ without its ]; escape it as \\[');
  if (curly > 0) throw bad('has a { without its }; escape it as \\{');
  // Counted, not expanded, and not in a catch-all: any other error is a bug to show, not a brace to blame.
  const why = braceProblem(body);
  if (why) throw bad(why);
}

function compileRule(glob: string): Rule {
  const exclude = glob.startsWith('!');
  let body = exclude ? glob.slice(1) : glob;
  const dirOnly = body.endsWith('/');
  body = withoutTrailingSlashes(body);
  // As in .gitignore: a glob with a slash (other than at its end) is anchored at the root; one
  // without matches the name at any depth.
  // ./src/** means src/** (a shell user's habit; git would match nothing).
  const anchored = body.includes('/');
  body = body.replace(/^\.?\//, '');
  const match = compileGlob(body, { dot: true });
  if (!anchored) return { exclude, dirOnly, test: (rel) => match(rel.slice(rel.lastIndexOf('/') + 1)) };
  // compileGlob's P/** (picomatch's) also matches P itself; git's (and so ripgrep's) matches only what is below P.
  const holds = body.endsWith('/**') && body.length > 3 ? compileGlob(body.slice(0, -3), { dot: true }) : undefined;
  return { exclude, dirOnly, test: holds ? (rel) => match(rel) && !holds(rel) : match, holds };
}

/** The matcher of these globs, in the order given; null when there are none. */
export function compileGlobs(globs: readonly string[] | undefined): GlobFilter | null {
  if (!globs || globs.length === 0) return null;
  for (const g of globs) checkGlob(g);
  const rules = globs.map(compileRule);
  const includes = rules.some((r) => !r.exclude);
  /** The last rule matching decides: true to keep, false to exclude, null when none matches. */
  const decide = (rel: string, isDir: boolean): boolean | null => {
    for (let i = rules.length - 1; i >= 0; i--) {
      const r = rules[i];
      if ((!r.dirOnly || isDir) && r.test(rel)) return !r.exclude;
    }
    return null;
  };
  // Directories of a flat listing are few beside its files: their answers are kept.
  const dirs = new Map<string, boolean>();
  // A directory all of whose contents an exclusion P/** matches, with no including glob after it, is
  // not listed at all: nothing below it could be kept (ripgrep would list it and keep nothing).
  const sweeping = rules.filter((r, i) => r.exclude && r.holds && !rules.slice(i + 1).some((later) => !later.exclude));
  const dir = (rel: string): boolean => decide(rel, true) !== false && !sweeping.some((r) => r.holds!(rel));
  const file = (rel: string): boolean => decide(rel, false) ?? !includes;
  const enters = (rel: string): boolean => {
    let yes = dirs.get(rel);
    if (yes === undefined) {
      const slash = rel.lastIndexOf('/');
      yes = (slash < 0 || enters(rel.slice(0, slash))) && dir(rel);
      dirs.set(rel, yes);
    }
    return yes;
  };
  return {
    dir,
    file,
    enters,
    listed(rel) {
      const slash = rel.lastIndexOf('/');
      return (slash < 0 || enters(rel.slice(0, slash))) && file(rel);
    },
  };
}
