// The ranker's facts about each file's display path (names, stems, test/example and data priors, term counts),
// worked out once per path and kept across queries; a recorded walk carries the costly part so a cold
// process need not work it out again.
import { countTerms } from '../../rank/chunk-scorer.js';
import { pathFacts, signalsOf, type PathFacts, type PathSignals } from '../../rank/path-signals.js';
import { pathText } from '../../rank/lexical/terms.js';
import { fold } from '../../rank/lexical/words.js';
import type { RankPlan } from '../../rank/plan.js';
import { HASH_START, hashStep, identifierRuns, runFirst } from '../../rank/run-table.js';
import { countRun, isDigit, probeOf, runHitsOf, termIndexOf, type TermIndex } from '../../rank/term-index.js';

/** Query-independent facts of a display path, kept across queries. */
export interface PathInfo {
  facts: PathFacts;
  pathText: string;
  /** pathText folded as the words' terms are (words.ts fold: no emoji selector or skin tone), for the terms' probes. */
  lower: string;
  /** The first three letters of each of its names of three or more (what a path word must share to match). */
  namePrefixes: string[];
  /** Terms' counts in pathText, as countTerms counts them, by "w:key" (whole) or "s:key" (part stem); made on first use. */
  termCounts: Map<string, number> | null;
  /** pathText's identifier runs, made on first use (null: it has non-ASCII characters and is counted whole). */
  identifierRuns: string[] | null | undefined;
  /**
   * The ids of its identifier runs (leading digits left out, as words are) in the process's run
   * dictionary (rank/run-table.ts), for dictionary generation `runGeneration`; made on first use.
   */
  runIds: Int32Array | null;
  runGeneration: number;
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

/** The first three letters of a plan's path words of three or more, by path words list (a plan made again for the same query shares it). */
const wordPrefixes = new WeakMap<readonly string[], Set<string>>();

/** What a path word must share with a name to match it (pathSignals' rule: the shorter, 3 letters at least, starts the longer). */
export function pathWordPrefixes(plan: RankPlan): Set<string> {
  let prefixes = wordPrefixes.get(plan.pathWords);
  if (!prefixes) wordPrefixes.set(plan.pathWords, prefixes = new Set(plan.pathWords.filter((w) => w.length >= 3).map((w) => w.slice(0, 3))));
  return prefixes;
}

/** The facts of a display path (cached across queries). */
export function pathInfo(path: string): PathInfo {
  let info = pathInfos.get(path);
  if (!info) {
    info = infoOf(pathFacts(path), pathText(path));
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
  if (!pathInfos.has(path)) keepInfo(path, infoOf(b.facts, b.pathText));
}

function infoOf(facts: PathFacts, pathText: string): PathInfo {
  const namePrefixes = [...new Set(facts.names.filter((n) => n.length >= 3).map((n) => n.slice(0, 3)))];
  const lower = fold(pathText);
  const priors: PathSignals[] = [];
  for (const p of PRIOR_PLANS) {
    // Not kept (signalsOf): these plans would clear a search's kept signals at each new path.
    const signals = signalsOf(p, facts);
    priors.push(priors.find((o) => o.prior === signals.prior) ?? signals);
  }
  // A literal (not a spread): every PathInfo has one shape, which the candidate loop reads per file.
  return {
    facts, pathText, lower, namePrefixes, termCounts: null, identifierRuns: undefined, runIds: null, runGeneration: -1, priors,
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
 * its index pushed on `touched`, ascending. A path of identifier runs is counted run by run through
 * the process's run dictionary (rank/run-table.ts): each run is an id kept with the path, and what a
 * run counts for in a plan is worked out once per plan (term-index.ts countRun), so a search's ~9,000
 * paths cost a few array reads each, not a string map lookup per run (issue 30: 16 ms a query at load
 * 8 with the map). countRun counts the run's word (its leading digits left out, as countTerms does)
 * against every term, which is what countTerms counts in that run; counts are whole numbers, so the
 * sums are the same floats in any order. `index`: the plan's term index, when the caller counts many paths.
 */
export function pathTermCounts(info: PathInfo, plan: RankPlan, tf: Float64Array, touched: number[], index: TermIndex = termIndexOf(plan)): void {
  const ids = runIdsOf(info);
  if (!ids) {
    // Counted whole; a text whose folding changed its length may hold a probe fold() hides.
    const probes = probesOf(plan);
    const caseChanged = info.lower.length !== info.pathText.length;
    for (let t = 0; t < plan.terms.length; t++) {
      if (!caseChanged && !info.lower.includes(probes[t])) continue;
      const v = pathTermCount(info, plan.terms[t]);
      if (v > 0) { tf[t] = v; touched.push(t); }
    }
    return;
  }
  // runIdsOf made the ids in the dictionary's current generation: hits of that generation are current.
  const hits = index.runHits !== null && index.runHits.generation === info.runGeneration ? index.runHits : runHitsOf(index);
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    // Most of a path's runs were worked out before to count for no term: passed over without a call. Read through
    // runFirst each time: countRun may grow the table or give the hits a new token (run-table.ts runList).
    if (runFirst(hits, id) >= 0 && hits.table.count[id] === 0) continue;
    countRun(index, plan, id, tf, touched);
  }
  if (touched.length > 1) touched.sort((x, y) => x - y);
}

/** Per plan terms list: their probes. */
const planProbes = new WeakMap<RankPlan['terms'], string[]>();

function probesOf(plan: RankPlan): string[] {
  let p = planProbes.get(plan.terms);
  if (!p) planProbes.set(plan.terms, p = plan.terms.map(probeOf));
  return p;
}

/**
 * A path's identifier runs' ids in the run dictionary (null: it has non-ASCII characters and is counted
 * whole), found again when the dictionary has started over since.
 */
function runIdsOf(info: PathInfo): Int32Array | null {
  const runs = runsOf(info);
  if (!runs) return null;
  if (info.runIds && info.runGeneration === identifierRuns.generation) return info.runIds;
  const ids: number[] = [];
  let generation = identifierRuns.generation;
  for (let i = 0; i < runs.length; i++) {
    const run = runs[i];
    let from = 0;
    while (from < run.length && isDigit(run.charCodeAt(from))) from++;
    if (from === run.length) continue;
    let h = HASH_START;
    for (let c = from; c < run.length; c++) h = hashStep(h, run.charCodeAt(c));
    ids.push(identifierRuns.id(run, from, run.length, h));
    // The dictionary started over while this path's runs were added: the ids before mean nothing now.
    if (identifierRuns.generation !== generation) { generation = identifierRuns.generation; ids.length = 0; i = -1; }
  }
  info.runIds = Int32Array.from(ids);
  info.runGeneration = generation;
  return info.runIds;
}

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

/**
 * One term's count in a text, through a plan of that term alone. In the product only a non-ASCII path
 * comes here (pathTermCounts counts an ASCII path's runs through the run dictionary), and countTerms
 * counts a non-ASCII text word by word (countWordTerms: no term index, no run tables, a probe list the
 * throwaway plan takes with it); an ASCII run reaches countAsciiTerms and its per-plan tables only from
 * pathTermCount called directly (its tests).
 */
function termCount(text: string, term: RankPlan['terms'][number]): number {
  const tf = new Float64Array(1);
  countTerms(text, { terms: [term] } as RankPlan, tf);
  return tf[0];
}
