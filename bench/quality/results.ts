// Result shapes of the quality bench (bench/quality/results.json) and their aggregation: per repo
// (mean over its queries), overall (mean over repos), per category (mean over repos of the repo's
// category mean) and per language (mean over its repos), so every repo weighs the same, as in the
// headline; and the per-repo gain of one method over another.
import { CATEGORIES, type Category, type DevSetId } from './dataset.js';
import { mean, score, type Scores } from './metrics.js';

export type Protocol = 'hit' | 'file';
export const PROTOCOLS: readonly Protocol[] = ['hit', 'file'];

export interface ProtocolResult extends Scores {
  /** The ranked file list that was scored (upstream-repo-relative paths, at most 10). */
  files: string[];
}

export interface MethodQueryResult {
  hit: ProtocolResult;
  file: ProtocolResult;
  /** Set when the method failed on this query; its lists are then empty. */
  error?: string;
}

export interface QueryResult {
  repo: string;
  index: number;
  query: string;
  category: Category;
  targets: string[];
  methods: Record<string, MethodQueryResult>;
}

export interface Summary {
  overall: Scores;
  byRepo: Record<string, Scores>;
  byCategory: Record<string, Scores>;
  byLanguage: Record<string, Scores>;
}

export interface MethodInfo {
  id: string;
  label: string;
  /** simgrep modes: wall time, searches, lines scanned (from stats), queries/s; for methods answered from the index, the time to index every corpus. */
  timing?: { wallMs: number; searches: number; lines: number; queriesPerSec: number; indexBuildMs?: number };
  /** Queries whose "file" list holds fewer than 10 files (the method ran out of hits). */
  shortFileLists: number;
  /** Mean number of slots in the "hit" list (simgrep merges adjacent hits into one hunk). */
  meanHitSlots: number;
  errors: number;
}

/** A method answered from the workspace index (`--index`) is its one-shot method's id with this suffix. */
export const FROM_INDEX = '-indexed';

/** The one-shot method an id answered from the index stands beside (null for any other method). */
export function oneShotOf(id: string): string | null {
  return id.endsWith(FROM_INDEX) ? id.slice(0, -FROM_INDEX.length) : null;
}

/** A method's two ranked lists on a query, as one comparable string. */
export function listsKey(q: QueryResult, id: string): string {
  return JSON.stringify([q.methods[id].hit.files, q.methods[id].file.files]);
}

export function protocolResult(files: string[], targets: string[]): ProtocolResult {
  return { files, ...score(files, targets) };
}

const meanScores = (xs: Scores[]): Scores => ({
  ndcg: mean(xs.map((x) => x.ndcg)), recall: mean(xs.map((x) => x.recall)), mrr: mean(xs.map((x) => x.mrr)),
});

/** `languages` maps each repo to its language (repos missing from it count as "unknown"). */
export function summarize(queries: QueryResult[], method: string, protocol: Protocol, languages: Record<string, string> = {}): Summary {
  const repos = [...new Set(queries.map((q) => q.repo))].sort();
  const of = (qs: QueryResult[]): Scores[] => qs.map((q) => q.methods[method][protocol]);
  const byRepo: Record<string, Scores> = {};
  for (const r of repos) byRepo[r] = meanScores(of(queries.filter((q) => q.repo === r)));
  const byCategory: Record<string, Scores> = {};
  for (const c of CATEGORIES) {
    const perRepo = repos
      .map((r) => queries.filter((q) => q.repo === r && q.category === c))
      .filter((qs) => qs.length > 0)
      .map((qs) => meanScores(of(qs)));
    if (perRepo.length) byCategory[c] = meanScores(perRepo);
  }
  const byLanguage: Record<string, Scores> = {};
  const langOf = (r: string): string => languages[r] ?? 'unknown';
  for (const lang of [...new Set(repos.map(langOf))].sort()) {
    byLanguage[lang] = meanScores(repos.filter((r) => langOf(r) === lang).map((r) => byRepo[r]));
  }
  return { overall: meanScores(Object.values(byRepo)), byRepo, byCategory, byLanguage };
}

export interface RepoGain { repo: string; a: number; b: number; gain: number }
export interface Gains { perRepo: RepoGain[]; mean: number; below: number; ties: number }

/** Per-repo NDCG@10 of method a minus method b (repos both have), their mean, and how many repos a is below / level with b. */
export function repoGains(a: Summary, b: Summary): Gains {
  const perRepo = Object.keys(a.byRepo).filter((r) => b.byRepo[r]).sort()
    .map((repo) => ({ repo, a: a.byRepo[repo].ndcg, b: b.byRepo[repo].ndcg, gain: a.byRepo[repo].ndcg - b.byRepo[repo].ndcg }));
  return {
    perRepo,
    mean: mean(perRepo.map((g) => g.gain)),
    below: perRepo.filter((g) => g.gain < 0).length,
    ties: perRepo.filter((g) => g.gain === 0).length,
  };
}

export interface CorpusInfo {
  name: string;
  language: string;
  kind: string;
  pkg: string;
  /** Package version, or the full git commit exported. */
  version: string;
  /** git pins: the annotated revision, and why another was used. */
  annotated?: string;
  note?: string;
  root: string;
  files: number; lines: number; bytes: number; codeFiles: number; chunks: number;
  /** Files under the root the git snapshot lists but does not hold. */
  absent: string[];
}

/** One dev set's run: its corpora, methods, aggregates and per-query lists. */
export interface SetResults {
  id: DevSetId;
  corpora: CorpusInfo[];
  /** Repos of the set that could not be measured here, and why: left out of every mean. */
  unavailable: { name: string; language: string; reason: string }[];
  missingTargets: { repo: string; query: string; target: string }[];
  methods: MethodInfo[];
  summaries: Record<string, Record<Protocol, Summary>>;
  /** Methods whose hit lists were identical on every query (e.g. modes not yet implemented). */
  identical: string[][];
  queries: QueryResult[];
}

export interface QualityResults {
  date: string;
  command: string;
  durationS: number;
  /** git HEAD (+ uncommitted changes), and whether dist/ was rebuilt while the bench ran. */
  build: { commit: string; distChangedDuringRun: boolean };
  machine: { cpu: string; nproc: number; memGb: number; os: string; node: string; loadStart: number[]; loadEnd: number[] };
  model: { spec: string; id: string; dir: string; bytes: number; rows: number; dim: number; card: string } | null;
  /** How simgrep was asked, per protocol. */
  settings: { hitTopK: number; fileTopK: number; concurrency: number };
  sets: SetResults[];
}

const round = (_k: string, v: unknown): unknown => (typeof v === 'number' && !Number.isInteger(v) ? Math.round(v * 1e4) / 1e4 : v);

/** results.json: the run's and each set's metadata pretty-printed, then one line per query and method, so diffs stay readable. */
export function serializeResults(r: QualityResults): string {
  const { sets, ...meta } = r;
  const head = JSON.stringify(meta, round, 1).replace(/\n}$/, '');
  const body = sets.map((set) => {
    const { queries, ...setMeta } = set;
    const setHead = JSON.stringify(setMeta, round, 1).replace(/\n}$/, '').replace(/\n/g, '\n  ');
    const lines = queries.map((q) => {
      const { methods, ...rest } = q;
      const ms = Object.entries(methods).map(([id, m]) => `     ${JSON.stringify(id)}: ${JSON.stringify(m, round)}`);
      return `    ${JSON.stringify(rest, round).replace(/}$/, '')},"methods": {\n${ms.join(',\n')}\n    }}`;
    });
    return `  ${setHead},\n   "queries": [\n${lines.join(',\n')}\n   ]\n  }`;
  });
  return `${head},\n "sets": [\n${body.join(',\n')}\n ]\n}\n`;
}
