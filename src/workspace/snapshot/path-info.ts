// The ranker's facts about each file's display path (names, stems, test/example and data priors, term counts),
// worked out once per path and kept across queries; a recorded walk carries the costly part so a cold
// process need not work it out again.
import { countTerms, pathFacts, pathSignals, type PathFacts, type PathSignals } from '../../rank/chunk-scorer.js';
import { pathText } from '../../rank/lexical/terms.js';
import type { RankPlan } from '../../rank/plan.js';
import { probeOf } from '../../rank/term-index.js';

/** Query-independent facts of a display path, kept across queries. */
export interface PathInfo {
  facts: PathFacts;
  pathText: string;
  lower: string;
  /** The first three letters of each of its names of three or more (what a path word must share to match). */
  namePrefixes: string[];
  /** Terms' counts in pathText, as countTerms counts them, by "w:key" (whole) or "s:key" (part stem); made on first use. */
  termCounts: Map<string, number> | null;
  /** pathText's identifier runs, made on first use (null: it has non-ASCII characters and is counted whole). */
  identifierRuns: string[] | null | undefined;
  /** Its signals for a query without path words, by the priors the query turns on (priorsIndex); one object where they agree. */
  priors: PathSignals[];
}

const pathInfos = new Map<string, PathInfo>();
/** A plan without path words for each priorsIndex: no priors, test/example priors, data prior, both. */
const PRIOR_PLANS = [false, true].flatMap((dataPrior) => [false, true].map((pathPriors) => ({ pathWords: [], pathPriors, dataPrior }) as unknown as RankPlan));

/** Which of a PathInfo's `priors` a plan without path words gets. */
export function priorsIndex(plan: RankPlan): number {
  return (plan.pathPriors ? 1 : 0) + (plan.dataPrior ? 2 : 0);
}

/** The facts of a display path (cached across queries). */
export function pathInfo(path: string): PathInfo {
  let info = pathInfos.get(path);
  if (!info) {
    info = infoOf(path, pathFacts(path), pathText(path));
    keepInfo(path, info);
  }
  return info;
}

/** What pathInfo works out from the path's text with the most work (the rest is derived): kept with a recorded walk. */
export type PathBasics = Pick<PathInfo, 'facts' | 'pathText'>;

export function pathBasics(path: string): PathBasics {
  const { facts, pathText } = pathInfo(path);
  return { facts, pathText };
}

/** Caches a path's facts as recorded with a walk, so pathInfo need not work them out again. */
export function seedPathInfo(path: string, b: PathBasics): void {
  if (!pathInfos.has(path)) keepInfo(path, infoOf(path, b.facts, b.pathText));
}

function infoOf(path: string, facts: PathFacts, pathText: string): PathInfo {
  const namePrefixes = [...new Set(facts.names.filter((n) => n.length >= 3).map((n) => n.slice(0, 3)))];
  const lower = pathText.toLowerCase();
  const priors: PathSignals[] = [];
  for (const p of PRIOR_PLANS) {
    const signals = pathSignals(path, p, facts);
    priors.push(priors.find((o) => o.prior === signals.prior) ?? signals);
  }
  // A literal (not a spread): every PathInfo has one shape, which the candidate loop reads per file.
  return {
    facts, pathText, lower, namePrefixes, termCounts: null, identifierRuns: undefined, priors,
  };
}

function keepInfo(path: string, info: PathInfo): void {
  if (pathInfos.size > 1_000_000) pathInfos.clear();
  pathInfos.set(path, info);
}

/**
 * How often one query term occurs in a path's text, as countTerms counts it there. countTerms counts
 * identifiers, runs of [A-Za-z0-9_] (its isIdentChar), each on its own, so the text's count is the
 * sum of its runs' counts, and a run's count is kept per term: names such as `file`, `src` or a
 * directory's repeat across thousands of paths. (A term that is not such a run itself counts nowhere.)
 * A path with non-ASCII characters is counted as a whole.
 */
export function pathTermCount(info: PathInfo, term: RankPlan['terms'][number]): number {
  const key = (term.whole ? 'w:' : 's:') + term.key;
  const counts = info.termCounts ??= new Map();
  let n = counts.get(key);
  if (n === undefined) {
    let byRun = runCounts.get(key);
    if (!byRun) {
      // Room for a pasted file's thousands of terms: a smaller cache was cleared for every path.
      if (runCounts.size >= MAX_COUNTED_TERMS) runCounts.clear();
      runCounts.set(key, byRun = new Map());
    }
    n = 0;
    // countTerms lowers the whole text, and a few non-ASCII letters lower to ASCII (the Kelvin sign
    // to k): such a text is counted as a whole, as the scan counts it. A path's runs are found once.
    const runs = runsOf(info);
    if (!runs) n = termCount(info.pathText, term);
    else for (const run of runs) {
      let r = byRun.get(run);
      if (r === undefined) {
        r = termCount(run, term);
        if (byRun.size >= 100_000) byRun.clear();
        byRun.set(run, r);
      }
      n += r;
    }
    if (counts.size >= 256) counts.clear();
    counts.set(key, n);
  }
  return n;
}

/**
 * The plan's terms' counts in a path's text, as pathTermCount gives each (the terms whose probe the
 * path holds; the others count nowhere): each term counted is set in `tf` (zero there before) and
 * its index pushed on `touched`, ascending. A path of identifier runs is counted run by run, each
 * distinct run's counts of every term worked out once per plan: a pasted file's terms (`file`, `str`)
 * are in nearly every path of a tree, and counting them term by term cost ~9,000 paths x terms x runs
 * map lookups a search. The sums are the same floats as pathTermCount's, added in the same order.
 */
export function pathTermCounts(info: PathInfo, plan: RankPlan, tf: Float64Array, touched: number[]): void {
  const runs = runsOf(info);
  let counts = planRunCounts.get(plan);
  if (!counts) planRunCounts.set(plan, counts = { probes: plan.terms.map(probeOf), byRun: new Map() });
  if (!runs) {
    // Counted whole; a text whose case folding changed its length may hold a probe lower() hides.
    const caseChanged = info.lower.length !== info.pathText.length;
    for (let t = 0; t < plan.terms.length; t++) {
      if (!caseChanged && !info.lower.includes(counts.probes[t])) continue;
      const v = pathTermCount(info, plan.terms[t]);
      if (v > 0) { tf[t] = v; touched.push(t); }
    }
    return;
  }
  for (const run of runs) {
    let c = counts.byRun.get(run);
    if (c === undefined) {
      c = runCounts1(run, plan, counts.probes);
      if (counts.byRun.size < MAX_RUNS_PER_PLAN) counts.byRun.set(run, c);
    }
    for (let i = 0; i < c.length; i += 2) {
      const t = c[i];
      if (tf[t] === 0) touched.push(t);
      tf[t] += c[i + 1];
    }
  }
  if (touched.length > 1) touched.sort((x, y) => x - y);
}

/** Per plan: its terms' probes, and each identifier run's [term, count, term, count, ...] (counts > 0, ascending terms). */
const planRunCounts = new WeakMap<RankPlan, { probes: string[]; byRun: Map<string, Float64Array> }>();
const MAX_RUNS_PER_PLAN = 1 << 17;

/** One run's counts of the plan's terms: only a term whose probe it holds can occur in it. */
function runCounts1(run: string, plan: RankPlan, probes: string[]): Float64Array {
  const lower = run.toLowerCase();
  const out: number[] = [];
  for (let t = 0; t < probes.length; t++) {
    if (!lower.includes(probes[t])) continue;
    const n = termCount(run, plan.terms[t]);
    if (n > 0) out.push(t, n);
  }
  return out.length === 0 ? NO_COUNTS : Float64Array.from(out);
}

const NO_COUNTS = new Float64Array(0);

/** A path's identifier runs (null: it has non-ASCII characters and is counted whole), found once. */
function runsOf(info: PathInfo): string[] | null {
  if (info.identifierRuns === undefined) info.identifierRuns = NON_ASCII.test(info.pathText) ? null : info.pathText.match(IDENTIFIER_RUNS) ?? [];
  return info.identifierRuns;
}

const IDENTIFIER_RUNS = /[A-Za-z0-9_]+/g;
const NON_ASCII = /[^\x00-\x7f]/;

/** Per term ("w:key" or "s:key"), its count in each identifier run of a path seen so far. */
const MAX_COUNTED_TERMS = 16_384;
const runCounts = new Map<string, Map<string, number>>();

function termCount(text: string, term: RankPlan['terms'][number]): number {
  const tf = new Float64Array(1);
  countTerms(text, { terms: [term] } as RankPlan, tf);
  return tf[0];
}
