// A plan's prose terms and grams located in a file's line terms (rank/prose-lines.ts: the lines' postings),
// and the file's statistics for the plan from their document frequencies: what the bounds on its lines
// (prose-reach.ts, prose-line-best.ts) start from.
import type { ProseLineTerms } from '../types.js';
import type { RankPlan } from './plan.js';
import type { ProseStats } from './prose.js';
import { proseStatsOf } from './prose-counter.js';
import { gramIdsOf, gramIndexIn } from './prose-doc-grams.js';
import { gramHolders } from './prose-gram-holders.js';
import { KEY_MOST, keyCount, keyIdOf, proseTermKeys, type PackedProseLines } from './prose-lines-build.js';

/**
 * Per plan terms list (shared by a plan made again for the same query), its prose terms' key ids
 * (proseTermKeys: its terms', then its numbers'; -1: a key no file holds), and how many keys there were
 * then (-1: all found).
 */
const planKeys = new WeakMap<RankPlan['terms'], { keys: Int32Array; known: number }>();

/**
 * Scratch of locateGrams, read by its callers right after it (one call at a time on a thread): per plan
 * gram, its index in the file's grams (-1: absent), its document frequency there and its most in a line
 * (0 when absent). Grown in place of the arrays, so a caller takes them from here after the call.
 */
export const located = { gramAt: new Int32Array(64), gramDf: new Float64Array(64), gramMostAt: new Float64Array(64) };

/** The plan's terms' key ids, looked up again while one is unknown and new keys have come in since. */
export function keysOf(plan: RankPlan): Int32Array {
  const kept = planKeys.get(plan.terms);
  if (kept && (kept.known === -1 || kept.known === keyCount())) return kept.keys;
  const keys = Int32Array.from(proseTermKeys(plan), (key) => keyIdOf(key) ?? -1);
  planKeys.set(plan.terms, { keys, known: keys.includes(-1) ? keyCount() : -1 });
  return keys;
}

/**
 * Each plan term's key in the file (`at`: its index in the file's ids, -1 when absent) and document
 * frequency over the file's lines (`df`: the count of lines that hold it); whether any is there.
 */
export function locateKeys(t: PackedProseLines, keys: Int32Array, at: Int32Array, df: Float64Array): boolean {
  let any = false;
  for (let k = 0; k < keys.length; k++) {
    const x = keys[k] < 0 ? -1 : t.indexOf(keys[k]);
    at[k] = x;
    df[k] = x >= 0 ? t.keyMost[KEY_MOST * x] : 0;
    if (x >= 0) any = true;
  }
  return any;
}

/**
 * Whether none of the file's lines holds a plan term or number: every line's LineTerms null (what
 * counting each line gives: rank/prose.ts lineTerms), so every line's lexical score is 0.
 */
export function proseHoldsNoTerm(terms: ProseLineTerms, plan: RankPlan): boolean {
  const t = terms as PackedProseLines;
  const keys = keysOf(plan);
  for (let k = 0; k < keys.length; k++) if (keys[k] >= 0 && t.indexOf(keys[k]) >= 0) return false;
  return true;
}

/** Sets `located`'s gramAt, gramDf and gramMostAt for the plan's grams in the file (its gram table: prose-doc-grams.ts); how many grams the plan has. */
export function locateGrams(t: PackedProseLines, plan: RankPlan): number {
  const gids = gramIdsOf(plan);
  const nGrams = gids?.length ?? 0;
  if (located.gramAt.length < nGrams) { located.gramAt = new Int32Array(nGrams * 2); located.gramDf = new Float64Array(nGrams * 2); located.gramMostAt = new Float64Array(nGrams * 2); }
  const { gramAt, gramDf, gramMostAt } = located;
  // A swept document (prose-sweep.ts) is only located here to be read (its statistics): a few binary
  // searches, not the plan's lists across every document.
  const holders = t.grams.slot >= 0 && t.sweepSlot < 0 ? gramHolders(plan) : null;
  if (holders) {
    // A registered document (a kept one): its grams among the plan's, found for all documents at once,
    // with their statistics read in order from the plan's lists (not from the document's arrays).
    gramAt.fill(-1, 0, nGrams);
    gramDf.fill(0, 0, nGrams);
    gramMostAt.fill(0, 0, nGrams);
    for (let j = holders.start[t.grams.slot]; j < holders.start[t.grams.slot + 1]; j++) {
      const g = holders.gram[j];
      gramAt[g] = holders.at[j];
      gramDf[g] = holders.df[j];
      gramMostAt[g] = holders.most[j];
    }
    return nGrams;
  }
  for (let g = 0; g < nGrams; g++) {
    const i = gids![g] < 0 ? -1 : gramIndexIn(t.grams, gids![g]);
    gramAt[g] = i;
    gramDf[g] = i >= 0 ? t.grams.gramDf[i] : 0;
    gramMostAt[g] = i >= 0 ? t.grams.gramMost[i] : 0;
  }
  return nGrams;
}

/** The file's statistics for the plan: exactly what ProseCounter.stats gives after reading it whole (kept for the last plan). */
export function proseLineStats(terms: ProseLineTerms, plan: RankPlan): ProseStats {
  const t = terms as PackedProseLines;
  if (t.stats && t.statsPlan && t.statsPlan.terms === plan.terms && t.statsPlan.prose?.grams === plan.prose?.grams) return t.stats;
  const keys = keysOf(plan);
  const dfs = new Float64Array(keys.length);
  locateKeys(t, keys, new Int32Array(keys.length), dfs);
  return statsOf(t, plan, dfs, locateGrams(t, plan));
}

/** proseLineStats from the plan's terms' document frequencies and its grams' (located.gramDf, as locateGrams left it): kept for the plan. */
function statsOf(t: PackedProseLines, plan: RankPlan, dfs: Float64Array, nGrams: number): ProseStats {
  t.stats = proseStatsOf(dfs, located.gramDf.subarray(0, nGrams), t.docs, t.chars);
  t.statsPlan = plan;
  return t.stats;
}

/**
 * The file's statistics for this plan: those kept with its line terms when worked out for the same terms and grams
 * (else from the terms' document frequencies `df`, as locateKeys left them, and the grams' as locateGrams did).
 */
export function statsFor(t: PackedProseLines, plan: RankPlan, df: Float64Array, nTerms: number, nGrams: number): ProseStats {
  return t.stats && t.statsPlan && t.statsPlan.terms === plan.terms && t.statsPlan.prose?.grams === plan.prose?.grams ? t.stats
    : statsOf(t, plan, df.slice(0, nTerms), nGrams);
}
