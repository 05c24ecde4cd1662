// The note of a search whose file filters left no file to search: "no match in 0 files" alone read as
// "nothing like it here" to an agent that had written a Windows path as a glob, or `sansio/*.py` for a
// folder one level down (agent47): the note names the filters and says how to write the glob it meant.
import path from 'node:path';

export interface FilterArgs { globs?: string[]; types?: string[]; types_not?: string[]; extensions?: string[] }

/**
 * A note when the filters passed no file under `dir` (null when files were searched, or no filter was given: an
 * empty directory is not the filters' doing). `dir` is named relative to `root`.
 */
export function filterNote(a: FilterArgs, o: { filesSearched: number; dir: string; root: string }): string | null {
  if (o.filesSearched > 0) return null;
  const lists: [string, string[] | undefined][] = [['globs', a.globs], ['types', a.types], ['types_not', a.types_not], ['extensions', a.extensions]];
  const given = lists.filter((e): e is [string, string[]] => (e[1]?.length ?? 0) > 0);
  if (given.length === 0) return null;
  const rel = path.relative(o.root, o.dir);
  const where = rel === '' ? 'the root' : `"${rel}"`;
  const named = given.map(([k, v]) => `${k} ${JSON.stringify(v)}`).join(', ');
  const advice: string[] = [];
  const globs = a.globs ?? [];
  const slashed = globs.filter((g) => g.includes('\\'));
  if (slashed.length > 0) {
    advice.push(`globs take / between directories (a \\ escapes the character after it): write ${JSON.stringify(slashed[0].replace(/\\/g, '/'))}`);
  } else {
    // A glob with a slash before its end is matched from the searched directory down, as in a .gitignore.
    const anchored = globs.find((g) => !g.startsWith('!') && !g.startsWith('**/') && /\/./.test(g.replace(/^\.?\//, '')));
    if (anchored) advice.push(`a glob with a / in it matches from ${where} down: ${JSON.stringify(`**/${anchored.replace(/^\.?\//, '')}`)} matches at any depth`);
  }
  if (globs.length > 0) advice.push('globs are case-sensitive and relative to the searched directory');
  return `no file in ${where} passed the filters (${named}); ${[...advice, 'widen or drop them to search every file'].join('; ')}`;
}
