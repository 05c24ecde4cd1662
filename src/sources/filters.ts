// What a walk keeps, with one meaning for a local directory and a remote prefix: extensions, types
// left out, globs, hidden names, the size cap. Named files and objects skip these (only a walk applies them).
import { extensionsWithTypes } from './file-types.js';
import { compileGlobs } from './glob-filter.js';

export interface WalkFilters {
  recursive?: boolean;
  hidden?: boolean;
  /** Extensions, e.g. ['.py', 'md']: the dot is optional, case is ignored; empty = all. */
  extensions?: string[];
  /** ripgrep's type names (-T/--type-not): files of these types are left out. */
  typesNot?: string[];
  /** -g/--glob: gitignore-style globs over the path relative to the walk's root (glob-filter.ts). */
  globs?: string[];
  maxFileBytes?: number;
  /** List only: fetch no object ahead (a cluster coordinator lists; its workers read). */
  listOnly?: boolean;
}

/** '.PY', ' py' -> '.py'. */
export function normalizeExtensions(exts: string[] = []): string[] {
  return exts.map((e) => {
    const t = e.trim().toLowerCase();
    return t.startsWith('.') ? t : `.${t}`;
  });
}

/** What a walk keeps by name: paths relative to its root, '/'-separated. */
export interface NameFilter {
  /** Whether the walk enters this directory. */
  dir(rel: string): boolean;
  /** Whether a file the walk found is kept (its directories entered). */
  file(rel: string): boolean;
  /** Whether a file of a flat listing (no walk entered its directories) is kept. */
  listed(rel: string): boolean;
  /** Whether a walk reaches this directory (neither it nor one above it excluded). */
  enters(rel: string): boolean;
}

/** The extensions, types left out and globs as one filter (types and globs checked: a bad one is refused). */
export function nameFilterOf(f: Pick<WalkFilters, 'extensions' | 'typesNot' | 'globs'>): NameFilter {
  const exts = normalizeExtensions(f.extensions);
  const notExts = f.typesNot && f.typesNot.length > 0 ? extensionsWithTypes([], f.typesNot)! : [];
  const globs = compileGlobs(f.globs);
  const byName = (rel: string): boolean => {
    const name = rel.slice(rel.lastIndexOf('/') + 1);
    return hasWantedExtension(name, exts) && (notExts.length === 0 || !hasExtension(name, notExts));
  };
  return {
    dir: (rel) => globs?.dir(rel) ?? true,
    file: (rel) => byName(rel) && (globs?.file(rel) ?? true),
    listed: (rel) => byName(rel) && (globs?.listed(rel) ?? true),
    enters: (rel) => globs?.enters(rel) ?? true,
  };
}

/** Whether a file name (no directories) has one of the normalized extensions; a dotfile has none. */
export function hasWantedExtension(name: string, exts: string[]): boolean {
  return exts.length === 0 || hasExtension(name, exts);
}

/** Whether a file name has one of the normalized extensions; a dotfile has none. */
function hasExtension(name: string, exts: string[]): boolean {
  const dot = name.lastIndexOf('.');
  return dot > 0 && exts.includes(name.slice(dot).toLowerCase());
}

/** Whether any '/'-separated part of a relative path starts with a dot. */
export function isHiddenPath(rel: string): boolean {
  return rel.split('/').some((s) => s.startsWith('.'));
}

export function tooLargeMessage(display: string, size: number, maxFileBytes: number): string {
  return `skipped ${display}: ${size} bytes is over --max-filesize ${maxFileBytes}`;
}
