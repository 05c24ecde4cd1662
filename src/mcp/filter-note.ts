// The note of a search whose file filters left no file to search: "no match in 0 files" alone read as
// "nothing like it here" to an agent that had written a Windows path as a glob, or `sansio/*.py` for a
// folder one level down (agent47): the note names the filters and says how to write the glob it meant,
// held to a share of the answer's budget as the warning note is (mend47a: 50 long globs made 31,788 tokens of 200).
import path from 'node:path';
import { CHARS_PER_TOKEN } from '../output/budget.js';
import { filterAdvice, filtersGiven, MAX_GLOB_CHARS } from '../sources/filter-advice.js';
import { cutText } from '../text/cut.js';

/** At most this share of the answer's budget goes to the note (warning-note.ts takes the same). */
const NOTE_SHARE = 1 / 5;
/** Under this much room, the filters are not named at all (the request has them). */
const MIN_NAMED_CHARS = 12;

export interface FilterArgs { globs?: string[]; types?: string[]; types_not?: string[]; extensions?: string[] }

/**
 * A note when the filters passed no file under `dir` (null when files were searched, or no filter was given: an
 * empty directory is not the filters' doing). `dir` is named relative to `root`.
 */
export function filterNote(a: FilterArgs, o: { filesSearched: number; dir: string; root: string; maxTokens: number }): string | null {
  if (o.filesSearched > 0) return null;
  const values = { globs: a.globs, types: a.types, typesNot: a.types_not, extensions: a.extensions };
  const given = filtersGiven(values, 'param');
  if (given.length === 0) return null;
  const rel = path.relative(o.root, o.dir);
  const where = rel === '' ? 'the root' : `"${cutText(rel, MAX_GLOB_CHARS, true)}"`;
  const named = given.map((g) => `${g.name} ${JSON.stringify(g.values)}`).join(', ');
  const advice = filterAdvice(values, where);
  const said = (filters: string) => `no file in ${where} passed the filters${filters}; ${advice.join('; ')}`;
  // The advice before the filters' names: the names are in the request, the way to write them is not.
  const capChars = Math.floor(o.maxTokens * CHARS_PER_TOKEN * NOTE_SHARE);
  const room = capChars - said(' ()').length;
  const note = said(named.length <= room ? ` (${named})` : room >= MIN_NAMED_CHARS ? ` (${cutText(named, room - 1)})` : '');
  // cutText adds its ellipsis past the length it keeps.
  return note.length <= capChars ? note : cutText(note, capChars - 1);
}
