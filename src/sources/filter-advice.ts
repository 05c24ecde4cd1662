// What to say when a search's file filters passed no file: "no match" alone reads as "nothing like it
// here" to whoever wrote a Windows path as a glob, or `sansio/*.py` for a folder one level down
// (agent47 found it over MCP; the CLI printed nothing and exited 1 the same way). The advice is one text
// for every surface; the filters given are named as each surface spells them (filter-options.ts).
import { FILTER_OPTIONS, nameOf, type FilterOption, type FilterValues, type Surface } from './filter-options.js';
import { cutText } from '../text/cut.js';

/** A glob the advice quotes is cut to this (the advice is how to write it, not the whole of it). */
export const MAX_GLOB_CHARS = 80;

const LISTS = (FILTER_OPTIONS as readonly FilterOption[]).filter((o) => o.kind === 'list');

/** The file filters given (non-empty lists), each with its name as `surface` spells it; [] when none. */
export function filtersGiven(v: FilterValues, surface: Surface): { name: string; values: string[] }[] {
  return LISTS.flatMap((o) => {
    const values = v[o.key] as string[] | undefined;
    return values !== undefined && values.length > 0 ? [{ name: nameOf(o, surface), values }] : [];
  });
}

/**
 * How to write the filters so that they pass files, `where` naming the searched directory as the reader
 * knows it; the last item always says to widen or drop them.
 */
export function filterAdvice(v: FilterValues, where: string): string[] {
  const advice: string[] = [];
  const globs = v.globs ?? [];
  const slashed = globs.filter((g) => g.includes('\\'));
  if (slashed.length > 0) {
    advice.push(`globs take / between directories (a \\ escapes the character after it): write ${JSON.stringify(cutText(slashed[0].replace(/\\/g, '/'), MAX_GLOB_CHARS))}`);
  } else {
    // A glob with a slash before its end is matched from the searched directory down, as in a .gitignore.
    const anchored = globs.find((g) => !g.startsWith('!') && !g.startsWith('**/') && /\/./.test(g.replace(/^\.?\//, '')));
    if (anchored) advice.push(`a glob with a / in it matches from ${where} down: ${JSON.stringify(cutText(`**/${anchored.replace(/^\.?\//, '')}`, MAX_GLOB_CHARS))} matches at any depth`);
  }
  if (globs.length > 0) advice.push('globs are case-sensitive and relative to the searched directory');
  advice.push('widen or drop them to search every file');
  return advice;
}
