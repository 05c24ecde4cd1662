// What a file's path says to the ranking: its facts regardless of the query (pathFacts: tests, side code,
// data files, the names in it), and for a query its signals (pathSignals: the share of the query's words
// in the path, the priors), kept per path for the last plan.
import type { PathFacts } from '../types.js';
import type { RankPlan } from './plan.js';
import { DATA_FILE_PRIOR, isDataFile } from './data-files.js';
import { identifierParts } from './lexical/terms.js';
import { pathWordHits } from './path-word-hits.js';

export interface PathSignals {
  /** Lower-cased file name without extension. */
  fileStem: string;
  /** Share of the query's words found in the file stem or its directory (prefix match, >= 3 chars). */
  pathMatch: number;
  /** Multiplier < 1 for tests, examples, compat shims, re-export files, .d.ts stubs and data files. */
  prior: number;
}

const TEST_FILE = /(?:^|\/)(?:test_[^/]*\.py|[^/]*_test\.(?:py|go|rb|c|cpp|dart|lua)|[^/]*Tests?\.(?:java|kt|swift|cs|scala)|[^/]*\.(?:test|spec)\.[cm]?[jt]sx?|[^/]*_spec\.(?:rb|lua)|[^/]*Spec\.(?:kt|swift|scala)|test_helpers?[^/]*\.\w+)$/;
const TEST_DIR = /(?:^|\/)(?:tests?|__tests__|spec|testing)(?:\/|$)/;
const SIDE_DIR = /(?:^|\/)(?:compat|_compat|legacy|_?examples?|docs?_src|single_include)(?:\/|$)/;

/** What a path says regardless of the query (types.ts: a source's entries may carry it). */
export type { PathFacts } from '../types.js';

/**
 * What the directory part of a path says, shared by the files in it: the parts of its last name, and
 * whether a name in it marks tests or side code. The regexes match whole names (each bounded by a
 * slash or an end), so `dir/file` matches one exactly when `dir/` or `/file` does.
 */
interface DirFacts { names: string[]; test: boolean; side: boolean }
const dirFacts = new Map<string, DirFacts>();

function factsOfDir(dir: string): DirFacts {
  let d = dirFacts.get(dir);
  if (!d) {
    const last = dir.split('/').filter(Boolean).pop() ?? '';
    d = { names: identifierParts(last), test: TEST_DIR.test(`${dir}/`), side: SIDE_DIR.test(`${dir}/`) };
    if (dirFacts.size >= 100_000) dirFacts.clear();
    dirFacts.set(dir, d);
  }
  return d;
}

export function pathFacts(path: string): PathFacts {
  const norm = path.includes('\\') ? path.replace(/\\/g, '/') : path;
  const cut = norm.lastIndexOf('/');
  const file = norm.slice(cut + 1);
  if (file === '') return pathFactsOfParts(norm);
  const dir = factsOfDir(cut < 0 ? '' : norm.slice(0, cut));
  const dot = file.indexOf('.', 1);
  const stem = dot > 0 ? file.slice(0, dot) : file;
  const own = `/${file}`;
  return {
    fileStem: stem.toLowerCase(),
    names: [...new Set([...identifierParts(stem), ...dir.names])],
    test: dir.test || TEST_FILE.test(own) || TEST_DIR.test(own),
    side: dir.side || SIDE_DIR.test(own),
    init: file === '__init__.py',
    dts: file.endsWith('.d.ts'),
    data: isDataFile(file),
  };
}

/** pathFacts from the whole path's names (a path that ends with a slash; and the reference the directory-cached one is tested against). */
export function pathFactsOfParts(path: string): PathFacts {
  const norm = path.replace(/\\/g, '/');
  const parts = norm.split('/').filter(Boolean);
  const file = parts[parts.length - 1] ?? '';
  const dot = file.indexOf('.', 1);
  return {
    fileStem: (dot > 0 ? file.slice(0, dot) : file).toLowerCase(),
    names: [...new Set([...identifierParts(dot > 0 ? file.slice(0, dot) : file), ...identifierParts(parts[parts.length - 2] ?? '')])],
    test: TEST_FILE.test(norm) || TEST_DIR.test(norm),
    side: SIDE_DIR.test(norm),
    init: file === '__init__.py',
    dts: norm.endsWith('.d.ts'),
    data: isDataFile(norm.slice(norm.lastIndexOf('/') + 1)),
  };
}

/**
 * pathSignals by path for the last plan asked (read only): a search asks for a file's more than once (its
 * chunks' ranges, its prose bounds); a warm search's ~1,400 prose files and ~60 code files fit, a scan's
 * many files are let go as it goes.
 */
let signalsPlan: RankPlan | null = null;
const signalsByPath = new Map<string, PathSignals>();
const SIGNALS_LIMIT = 4096;

/**
 * pathFacts by path across plans (read only): a warm search scores ~60 code files' ranges and the prose
 * files within reach, mostly the same from one search to the next, and each new plan asked for their
 * signals again (the facts' regular expressions per file); a scan's many files are let go as it goes.
 */
const factsByPath = new Map<string, PathFacts>();
const FACTS_LIMIT = 4096;

function factsOf(path: string): PathFacts {
  let facts = factsByPath.get(path);
  if (!facts) {
    if (factsByPath.size >= FACTS_LIMIT) factsByPath.clear();
    factsByPath.set(path, facts = pathFacts(path));
  }
  return facts;
}

/** Path signals of one file for this query (the object is shared: not to be changed). `facts`: the path's (pathFacts(path)), if known. */
export function pathSignals(path: string, plan: RankPlan, facts?: PathFacts): PathSignals {
  if (plan !== signalsPlan) { signalsPlan = plan; signalsByPath.clear(); }
  let signals = signalsByPath.get(path);
  if (!signals) {
    signals = signalsOf(plan, facts ?? factsOf(path));
    if (signalsByPath.size >= SIGNALS_LIMIT) signalsByPath.clear();
    signalsByPath.set(path, signals);
  }
  return signals;
}

/** Path signals from a path's facts for a plan, not kept (pathSignals keeps them for the last plan). */
export function signalsOf(plan: RankPlan, facts: PathFacts): PathSignals {
  let pathMatch = 0;
  if (plan.pathWords.length > 0) {
    const ratio = pathWordHits(plan, facts.names) / plan.pathWords.length;
    pathMatch = ratio >= 0.1 ? ratio : 0;
  }
  let prior = 1;
  if (plan.pathPriors) {
    if (facts.test) prior *= 0.3;
    if (facts.side) prior *= 0.3;
    if (facts.init) prior *= 0.5;
    if (facts.dts) prior *= 0.7;
  }
  if (plan.dataPrior && facts.data) prior *= DATA_FILE_PRIOR;
  return { fileStem: facts.fileStem, pathMatch, prior };
}
