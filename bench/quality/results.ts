// Result shapes of the quality bench (bench/quality/results.json) and their aggregation: per repo
// (mean over its queries), overall (mean over repos) and per category (mean over repos of the
// repo's category mean, so every repo weighs the same, as in the headline).
import { CATEGORIES, type Category } from './dataset.js';
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
}

export interface MethodInfo {
  id: string;
  label: string;
  /** simgrep modes: wall time, searches, lines scanned (from stats), queries/s. */
  timing?: { wallMs: number; searches: number; lines: number; queriesPerSec: number };
  /** Queries whose "file" list holds fewer than 10 files (the method ran out of hits). */
  shortFileLists: number;
  /** Mean number of slots in the "hit" list (simgrep merges adjacent hits into one hunk). */
  meanHitSlots: number;
  errors: number;
}

export function protocolResult(files: string[], targets: string[]): ProtocolResult {
  return { files, ...score(files, targets) };
}

const meanScores = (xs: Scores[]): Scores => ({
  ndcg: mean(xs.map((x) => x.ndcg)), recall: mean(xs.map((x) => x.recall)), mrr: mean(xs.map((x) => x.mrr)),
});

export function summarize(queries: QueryResult[], method: string, protocol: Protocol): Summary {
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
  return { overall: meanScores(Object.values(byRepo)), byRepo, byCategory };
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
  corpora: { name: string; pkg: string; version: string; kind: string; root: string; files: number; lines: number; bytes: number; codeFiles: number; chunks: number }[];
  missingTargets: { repo: string; query: string; target: string }[];
  methods: MethodInfo[];
  summaries: Record<string, Record<Protocol, Summary>>;
  /** Methods whose hit lists were identical on every query (e.g. modes not yet implemented). */
  identical: string[][];
  queries: QueryResult[];
}

const round = (_k: string, v: unknown): unknown => (typeof v === 'number' && !Number.isInteger(v) ? Math.round(v * 1e4) / 1e4 : v);

/** results.json: the run's metadata pretty-printed, then one line per query and method, so diffs stay readable. */
export function serializeResults(r: QualityResults): string {
  const { queries, ...meta } = r;
  const head = JSON.stringify(meta, round, 1).replace(/\n}$/, '');
  const lines = queries.map((q) => {
    const { methods, ...rest } = q;
    const ms = Object.entries(methods).map(([id, m]) => `   ${JSON.stringify(id)}: ${JSON.stringify(m, round)}`);
    return `  ${JSON.stringify(rest, round).replace(/}$/, '')},"methods": {\n${ms.join(',\n')}\n  }}`;
  });
  return `${head},\n "queries": [\n${lines.join(',\n')}\n ]\n}\n`;
}
