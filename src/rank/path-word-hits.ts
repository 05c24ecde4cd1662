// How many of a query's path words a path's names match (pathSignals' rule: the shorter of the two, at
// least 3 characters, starts the longer), counted from the names' side for a long query: a pasted
// file's path words (those of its kept terms and their inflections) against each file's few names,
// tried one by one, cost ~190 ms a search over the 1M-line bench tree. The count is the same as the word-by-word loop's.
import type { RankPlan } from './plan.js';

/**
 * `byName`: the words (indices in `sorted`) each name matches, worked out on a name's first sight (a
 * tree's names repeat across its paths); `firsts`: the words' first characters (a name that starts
 * with none matches no word either way: a tree's many numbered names, `file-6935`'s 6935).
 */
interface WordIndex { sorted: string[]; known: Map<string, number>; byName: Map<string, readonly number[]>; firsts: Set<number> }

/**
 * From this many path words on, the index is used (find_related's ~20 words tried against each of ~1,400
 * kept documents' names, word by word, cost ~1.5 ms a call on the bench tree; a name's words looked up once).
 */
const MANY_PATH_WORDS = 8;
/** Names remembered per path words list; later new ones are worked out each time. */
const NAME_LIMIT = 1 << 16;
/** Per path words list (a plan made again for the same query shares it), its index. */
const indexes = new WeakMap<readonly string[], WordIndex>();

export function pathWordHits(plan: RankPlan, names: readonly string[]): number {
  const words = plan.pathWords;
  if (words.length < MANY_PATH_WORDS) {
    let hits = 0;
    for (const word of words) {
      for (const name of names) {
        const wordIsShorter = word.length <= name.length;
        const short = wordIsShorter ? word : name;
        if (short.length >= 3 && (wordIsShorter ? name : word).startsWith(short)) { hits++; break; }
      }
    }
    return hits;
  }
  let ix = indexes.get(words);
  if (!ix) {
    const sorted = [...new Set(words)].sort();
    ix = { sorted, known: new Map(sorted.map((w, i) => [w, i])), byName: new Map(), firsts: new Set(sorted.map((w) => w.charCodeAt(0))) };
    indexes.set(words, ix);
  }
  if (names.length === 1) return nameHits(ix, names[0]).length;
  const hit: number[] = [];
  for (const name of names) for (const w of nameHits(ix, name)) if (!hit.includes(w)) hit.push(w);
  return hit.length;
}

/** The words one name matches (indices in ix.sorted). */
function nameHits(ix: WordIndex, name: string): readonly number[] {
  if (!ix.firsts.has(name.charCodeAt(0))) return NO_HITS;
  const known = ix.byName.get(name);
  if (known) return known;
  const hit: number[] = [];
  // Words no longer than the name that start it (3 characters at least).
  for (let len = 3; len <= name.length; len++) { const w = ix.known.get(name.slice(0, len)); if (w !== undefined) hit.push(w); }
  // Words longer than the name that it starts (a name of 3 characters at least).
  if (name.length >= 3) {
    for (let i = lowerBound(ix.sorted, name); i < ix.sorted.length && ix.sorted[i].startsWith(name); i++) {
      if (ix.sorted[i].length > name.length) hit.push(i);
    }
  }
  if (ix.byName.size < NAME_LIMIT) ix.byName.set(name, hit);
  return hit;
}

const NO_HITS: readonly number[] = [];

function lowerBound(xs: string[], key: string): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (xs[mid] < key) lo = mid + 1; else hi = mid; }
  return lo;
}
