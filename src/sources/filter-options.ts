// The one table of file filters and per-file answers, ripgrep's names: each option once, with its
// spelling in every surface (CLI flag, library field, MCP argument and action parameter) and its check.
// The CLI's flags, the MCP tools' schema and the actions' parameter readers are derived from it.
import { SimgrepError } from '../errors.js';
import { checkGlob } from './glob-filter.js';
import { canonicalType, knownTypesText } from './file-types.js';

/** The options as the library takes them (SearchOptions has these fields). */
export interface FilterValues {
  /** Gitignore-style globs over the path relative to the searched root; `!GLOB` excludes; the last matching glob wins. */
  globs?: string[];
  /** ripgrep's type names (ts, py, rust, md, ...: sources/file-types.ts; any case, or an alias: Python): files of these types, beside `extensions`. */
  types?: string[];
  /** ripgrep's type names: files of these types are never searched. */
  typesNot?: string[];
  /** Extensions, e.g. ['.py', 'md']: the dot is optional, case is ignored. */
  extensions?: string[];
  /** At most this many results per file, the best of each. */
  perFile?: number;
  /** One result per file, and the response's `files` lists the files with results, best first. */
  filesWithMatches?: boolean;
}

export interface FilterOption {
  /** The library's SearchOptions field. */
  key: keyof FilterValues;
  /** The MCP tools' argument and the search actions' `with:` parameter. */
  param: string;
  /** The CLI's long flag (without --), its short letter and its value's name. */
  flag: string;
  short?: string;
  value?: string;
  kind: 'list' | 'count' | 'switch';
  /** A list flag taken as given, once per item (a glob may hold commas); the others also split on commas. */
  perItem?: boolean;
  /** The MCP tools' bound on a list's items. */
  maxItems?: number;
  /** One text for --help, the MCP schema and the docs. */
  help: string;
}

export const FILTER_OPTIONS = [
  { key: 'globs', param: 'globs', flag: 'glob', short: 'g', value: 'GLOB', kind: 'list', perItem: true, maxItems: 50,
    help: 'Only files matching these globs, gitignore style, relative to the searched directory ("*.ts", "src/**"); "!GLOB" excludes ("!vendor/" skips a directory); the last glob that matches a path wins' },
  { key: 'types', param: 'types', flag: 'type', short: 't', value: 'LIST', kind: 'list', maxItems: 30,
    help: 'Only files of these types (ripgrep\'s names: ts, py, rust, go, md, ...; any case, and common names such as python, typescript, c++, golang); with extensions, files of either' },
  { key: 'typesNot', param: 'types_not', flag: 'type-not', short: 'T', value: 'LIST', kind: 'list', maxItems: 30,
    help: 'Never files of these types (ripgrep\'s names, any case, or common names), e.g. json,md' },
  { key: 'extensions', param: 'extensions', flag: 'ext', value: 'LIST', kind: 'list', maxItems: 50,
    help: 'Only files with these extensions, e.g. .py,.md' },
  { key: 'perFile', param: 'per_file', flag: 'per-file', value: 'N', kind: 'count',
    help: 'At most N results per file (1: one per file), the best of each' },
  { key: 'filesWithMatches', param: 'files_with_matches', flag: 'files-with-matches', short: 'l', kind: 'switch',
    help: 'Only which files match: one result per file, best first (the CLI prints the paths alone)' },
] as const satisfies readonly FilterOption[];

/** How an option is named in each surface's messages. */
export type Surface = 'cli' | 'library' | 'param';

/** The MCP argument / action parameter names. */
export type FilterParam = (typeof FILTER_OPTIONS)[number]['param'];

/** The options given under their MCP / action names, as the library takes them (not yet checked). */
export function filterValuesOfParams(p: Readonly<Record<string, unknown>>, only?: (o: FilterOption) => boolean): FilterValues {
  const out: Record<string, unknown> = {};
  for (const o of FILTER_OPTIONS as readonly FilterOption[]) if ((!only || only(o)) && p[o.param] !== undefined && p[o.param] !== null) out[o.key] = p[o.param];
  return out as FilterValues;
}

export function nameOf(o: FilterOption, surface: Surface): string {
  if (surface === 'cli') return `${o.short ? `-${o.short}/` : ''}--${o.flag}`;
  return surface === 'library' ? `option ${o.key}` : o.param;
}

/** Checks the values (set ones only), naming each option as `surface` spells it: a SimgrepError that says what to fix. */
export function checkFilterValues(v: FilterValues, surface: Surface): void {
  for (const o of FILTER_OPTIONS as readonly FilterOption[]) {
    const value = v[o.key];
    if (value === undefined) continue;
    const name = nameOf(o, surface);
    const bad = (what: string) => new SimgrepError('BAD_FLAG', `${name} ${what}`);
    if (o.kind === 'switch') {
      if (typeof value !== 'boolean') throw bad(`must be true or false (got ${JSON.stringify(value)})`);
    } else if (o.kind === 'count') {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw bad(`must be a whole number >= 1 (got ${JSON.stringify(value)}); 1 gives one result per file`);
    } else {
      if (!Array.isArray(value) || !value.every((x) => typeof x === 'string')) throw bad(`must be a list of strings (got ${JSON.stringify(value)})`);
      for (const item of value as string[]) {
        if (o.key === 'globs') { checkGlobNamed(item, name); continue; }
        if (item.trim() === '') throw bad(`has an empty item; ${o.key === 'extensions' ? 'e.g. .py,.md' : `known types: ${knownTypesText()}`}`);
        if ((o.key === 'types' || o.key === 'typesNot') && canonicalType(item) === undefined) {
          throw new SimgrepError('BAD_FLAG', `unknown file type "${item}" (${name}); known types: ${knownTypesText()}`);
        }
      }
    }
  }
}

/** checkGlob's message, with the option named as the surface spells it. */
function checkGlobNamed(glob: string, name: string): void {
  try { checkGlob(glob); } catch (e) {
    throw new SimgrepError('BAD_FLAG', (e as Error).message.replace(/^-g\/--glob/, name));
  }
}
