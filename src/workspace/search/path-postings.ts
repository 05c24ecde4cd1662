// The snapshot files' display paths inverted for the candidate pass (issue 30): which paths hold a
// query term, as pathTermCounts counts it, and which names share a path word's first three letters,
// found per term and per prefix, so a query reads the few paths that match instead of ~9,000 PathInfo
// objects and their identifier runs. Made once per snapshot file list and the display paths it was
// searched under (a search under other names, or a patched snapshot, makes it again).
import { partStems } from '../../rank/lexical/terms.js';
import type { RankPlan } from '../../rank/plan.js';
import { isDigit, type TermIndex } from '../../rank/term-index.js';
import { pathTermCounts, type PathInfo } from '../snapshot/path-info.js';
import type { SnapshotFile } from '../snapshot/snapshot.js';

export interface PathPostings {
  /** The facts each file was indexed under (a file searched under another name is counted on its own). */
  infos: (PathInfo | undefined)[];
  /** pathText's length, by file. */
  pathLength: Int32Array;
  /** The prior of each file by priorsIndex (its signals for a query without path words). */
  priors: Float64Array[];
  /** Lower-cased identifier run (leading digits left out) -> files, one entry per occurrence. */
  byWhole: Map<string, number[]>;
  /** Stem of a run's part -> [file, run] pairs, flat, one per occurrence; run indexes `runs`. */
  byStem: Map<string, number[]>;
  /** The distinct lower-cased runs (a part counts only where its run holds a part probe, as countRun's rule). */
  runs: string[];
  /** Name prefix (three letters) -> files. */
  byPrefix: Map<string, number[]>;
  /** Files whose path is counted whole (non-ASCII), by pathTermCounts at each query. */
  counted: number[];
}

const made = new WeakMap<SnapshotFile[], PathPostings>();

/** The postings of these files under these facts: kept per file list while most of its covered files keep their facts. */
export function pathPostingsOf(files: SnapshotFile[], infos: (PathInfo | undefined)[]): PathPostings {
  const kept = made.get(files);
  if (kept) {
    let other = 0;
    for (let f = 0; f < infos.length; f++) if (infos[f] !== undefined && infos[f] !== kept.infos[f]) other++;
    if (other * 8 <= files.length) return kept;
  }
  const p = buildPathPostings(files, infos);
  made.set(files, p);
  return p;
}

const IDENTIFIER_RUNS = /[A-Za-z0-9_]+/g;
const NON_ASCII = /[^\x00-\x7f]/;

export function buildPathPostings(files: SnapshotFile[], infos: (PathInfo | undefined)[]): PathPostings {
  const n = files.length;
  const p: PathPostings = {
    infos: infos.slice(0, n), pathLength: new Int32Array(n), priors: [0, 1, 2, 3].map(() => new Float64Array(n)),
    byWhole: new Map(), byStem: new Map(), runs: [], byPrefix: new Map(), counted: [],
  };
  // Per distinct run (as written: its parts depend on its case), its index in p.runs, lower-cased whole and parts' stems.
  const known = new Map<string, { r: number; lower: string; stems: string[] }>();
  const runIndex = new Map<string, number>();
  const listOf = <K>(m: Map<K, number[]>, k: K): number[] => { let l = m.get(k); if (!l) m.set(k, l = []); return l; };
  for (let f = 0; f < n; f++) {
    const info = infos[f];
    if (!info) continue;
    p.pathLength[f] = info.pathText.length;
    for (let i = 0; i < 4; i++) p.priors[i][f] = info.priors[i].prior;
    for (const prefix of info.namePrefixes) listOf(p.byPrefix, prefix).push(f);
    // As pathTermCounts counts a path: run by run (the run dictionary's whole and stems), or whole.
    if (NON_ASCII.test(info.pathText)) { p.counted.push(f); continue; }
    for (const run of info.pathText.match(IDENTIFIER_RUNS) ?? []) {
      let from = 0;
      while (from < run.length && isDigit(run.charCodeAt(from))) from++;
      if (from === run.length) continue;
      const key = from === 0 ? run : run.slice(from);
      let k = known.get(key);
      if (!k) {
        const lower = key.toLowerCase();
        let r = runIndex.get(lower);
        if (r === undefined) {
          r = p.runs.length;
          runIndex.set(lower, r);
          p.runs.push(lower);
        }
        known.set(key, k = { r, lower, stems: partStems(key) });
      }
      listOf(p.byWhole, k.lower).push(f);
      for (const s of k.stems) listOf(p.byStem, s).push(f, k.r);
    }
  }
  return p;
}

/**
 * The plan's terms' counts in each covered file's path, as pathTermCounts gives them, appended to
 * `term` (ascending per file) and `count`: file f's are [start[f], end[f]) where start[f] >= 0 (start
 * must hold -1 and end 0 for every file before). `covered[f]`: 1 where the search covers file f under
 * the facts it was indexed with (the caller counts the others on their own).
 */
export function pathTermsOf(p: PathPostings, plan: RankPlan, index: TermIndex, covered: Uint8Array, start: Int32Array, end: Int32Array, term: number[], count: number[]): void {
  const terms = plan.terms;
  // (file, term, count) in term order, then placed by file (stable: each file's terms stay ascending).
  const hitFile: number[] = [];
  const hitTerm: number[] = [];
  const hitCount: number[] = [];
  let probes: Int8Array | null = null;
  for (let t = 0; t < terms.length; t++) {
    const term = terms[t];
    if (term.whole) {
      const files = p.byWhole.get(term.key);
      if (files) for (const f of files) if (covered[f] === 1) { hitFile.push(f); hitTerm.push(t); hitCount.push(1); }
      continue;
    }
    const pairs = p.byStem.get(term.key);
    if (!pairs) continue;
    probes ??= new Int8Array(p.runs.length);
    for (let i = 0; i < pairs.length; i += 2) {
      const f = pairs[i];
      if (covered[f] !== 1) continue;
      const r = pairs[i + 1];
      // countRun's rule: a run's parts count for part terms only where it holds one of their probes.
      if (probes[r] === 0) probes[r] = index.holdsPartProbe(p.runs[r]) ? 1 : 2;
      if (probes[r] === 1) { hitFile.push(f); hitTerm.push(t); hitCount.push(1); }
    }
  }
  // The paths counted whole.
  const tf = new Float64Array(terms.length);
  const touched: number[] = [];
  for (const f of p.counted) {
    if (covered[f] !== 1) continue;
    for (const t of touched) tf[t] = 0;
    touched.length = 0;
    pathTermCounts(p.infos[f]!, plan, tf, touched, index);
    for (const t of touched) { hitFile.push(f); hitTerm.push(t); hitCount.push(tf[t]); }
  }
  // Counting sort by file; a file's hits of one term add up (whole numbers: the same floats in any order).
  for (let i = 0; i < hitFile.length; i++) end[hitFile[i]]++;
  let at = term.length;
  for (let i = 0; i < hitFile.length; i++) {
    const f = hitFile[i];
    if (start[f] === -1) { start[f] = at; at += end[f]; end[f] = start[f]; }
  }
  const need = at;
  while (term.length < need) { term.push(0); count.push(0); }
  for (let i = 0; i < hitFile.length; i++) {
    const f = hitFile[i];
    const e = end[f];
    if (e > start[f] && term[e - 1] === hitTerm[i]) { count[e - 1] += hitCount[i]; continue; }
    term[e] = hitTerm[i];
    count[e] = hitCount[i];
    end[f] = e + 1;
  }
}
