// The covered files' path signals for the candidate pass: which files a search covers, their path
// match and prior, their path's length and the query terms their path holds (from the path postings;
// a path searched under another name than the postings', on its own).
import { signalsOf } from '../../rank/path-signals.js';
import { termIndexOf } from '../../rank/term-index.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import { pathInfo, pathTermCounts, priorsIndex, type PathInfo } from '../snapshot/path-info.js';
import type { CandidateQuery } from './candidate-query.js';
import { pathPostingsOf, pathTermsOf, type PathPostings } from './path-postings.js';
import { work } from './work-arrays.js';

/**
 * Per file, indexed by file: covered (0 where the search does not cover it or it has no chunks, 2
 * where it is searched under another name than the path postings', else 1), pathMatch, prior and path
 * length; the path terms of file f are pathTerm/pathCount [pathStart[f], pathEnd[f]) in term order
 * (pathStart -1: none). The arrays are reused by the next call; covered and pathLengthOf are kept for
 * the next query over the same files and names (read them only).
 */
export interface CoveredPaths {
  covered: Uint8Array;
  pathMatchOf: Float64Array;
  priorOf: Float64Array;
  pathLengthOf: Int32Array;
  pathStart: Int32Array;
  pathEnd: Int32Array;
  pathTerm: number[];
  pathCount: number[];
}

export function coveredPaths(s: Snapshot, q: CandidateQuery): CoveredPaths {
  const { plan } = q;
  const { files } = s;
  const nTerms = plan.terms.length;
  const wordPrefixes = new Set(plan.pathWords.filter((w) => w.length >= 3).map((w) => w.slice(0, 3)));
  const priors = priorsIndex(plan);
  const index = termIndexOf(plan);
  // The covered files' paths: their terms and names from the path postings (those searched under other
  // names than the postings', on their own), their signals in typed arrays: pathMatch and prior.
  const nFiles = files.length;
  const { infos, postings, covered, own, pathLengthOf, priors: basePriors } = coverageOf(s, q);
  const pathMatchOf = work('pathMatch', Float64Array, nFiles);
  const priorOf = work('prior', Float64Array, nFiles);
  priorOf.set(basePriors(priors));
  pathMatchOf.fill(0);
  // A path word can only match a name that starts with the same three letters (pathSignals' rule). Not kept
  // by path as pathSignals keeps them: a word's prefix names thousands of files here, the pipeline scores ~60.
  const named = (f: number) => {
    const s2 = signalsOf(plan, infos[f]!.facts);
    pathMatchOf[f] = s2.pathMatch;
    priorOf[f] = s2.prior;
  };
  if (plan.pathWords.length > 0) {
    const seen = work('named', Uint8Array, nFiles, true);
    for (const prefix of wordPrefixes) for (const f of postings.byPrefix.get(prefix) ?? []) if (covered[f] === 1 && seen[f] === 0) { seen[f] = 1; named(f); }
  }
  const pathStart = work('pathStart', Int32Array, nFiles).fill(-1);
  const pathEnd = work('pathEnd', Int32Array, nFiles, true);
  const pathTerm = pathTermList;
  const pathCount = pathCountList;
  pathTerm.length = 0;
  pathCount.length = 0;
  if (nTerms > 0) pathTermsOf(postings, plan, index, covered, pathStart, pathEnd, pathTerm, pathCount);
  for (const f of own) {
    const info = infos[f]!;
    if (plan.pathWords.length > 0 && sharesPrefix(info.namePrefixes, wordPrefixes)) named(f);
    if (nTerms === 0) continue;
    const tf = new Float64Array(nTerms);
    const touched: number[] = [];
    pathTermCounts(info, plan, tf, touched, index);
    pathStart[f] = pathTerm.length;
    for (const t of touched) { pathTerm.push(t); pathCount.push(tf[t]); }
    pathEnd[f] = pathTerm.length;
  }
  return { covered, pathMatchOf, priorOf, pathLengthOf, pathStart, pathEnd, pathTerm, pathCount };
}

/**
 * What every query over the same covered files under the same names shares (the display list, its
 * facts and the snapshot's files): which files are covered, which are counted on their own (searched
 * under other names than the path postings'), their path lengths and priors. Kept per display list
 * (coverage.ts keeps one per walk and snapshot), so a query does not go over every file's object.
 */
interface Coverage {
  files: Snapshot['files'];
  infos: (PathInfo | undefined)[];
  postings: PathPostings;
  covered: Uint8Array;
  own: number[];
  pathLengthOf: Int32Array;
  /** The files' priors by priorsIndex, those counted on their own from their facts. */
  priors: (index: number) => Float64Array;
}

const coverages = new WeakMap<(string | undefined)[], Coverage>();

function coverageOf(s: Snapshot, q: CandidateQuery): Coverage {
  const { files } = s;
  const kept = coverages.get(q.display);
  if (kept && kept.files === files && q.infos !== undefined && kept.infos === q.infos) return kept;
  const nFiles = files.length;
  const infos = q.infos ?? q.display.map((p) => (p === undefined ? undefined : pathInfo(p)));
  const postings = pathPostingsOf(files, infos);
  const covered = new Uint8Array(nFiles);
  const own: number[] = [];
  const pathLengthOf = postings.pathLength.slice(0, nFiles);
  for (let f = 0; f < nFiles; f++) {
    if (q.display[f] === undefined || files[f].chunkCount === 0) continue;
    covered[f] = 1;
    if (infos[f] !== postings.infos[f]) { covered[f] = 2; own.push(f); pathLengthOf[f] = infos[f]!.pathText.length; }
  }
  const byIndex: Float64Array[] = [];
  const priors = (index: number): Float64Array => {
    let p = byIndex[index];
    if (!p) {
      p = byIndex[index] = postings.priors[index].slice(0, nFiles);
      for (const f of own) p[f] = infos[f]!.priors[index].prior;
    }
    return p;
  };
  const c = { files, infos, postings, covered, own, pathLengthOf, priors };
  // Without the caller's facts (made anew per query) there is nothing to keep them by.
  if (q.infos !== undefined) coverages.set(q.display, c);
  return c;
}

/** The covered paths' terms and counts in the last candidate pass (reused from query to query). */
const pathTermList: number[] = [];
const pathCountList: number[] = [];

/** Whether a path's name prefixes hold one of the plan's path words' (a loop: called per file, ~9,000 a query). */
function sharesPrefix(prefixes: string[], words: Set<string>): boolean {
  for (let i = 0; i < prefixes.length; i++) if (words.has(prefixes[i])) return true;
  return false;
}
