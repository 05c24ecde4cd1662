// Runs simgrep through its public interface (createSearcher) on every query of a set of corpora and
// turns its hunks into ranked file lists for the "hit" and "file" protocols.
import path from 'node:path';
import type { Searcher, SearchMode } from '../../src/index.js';
import { toUpstreamPath, type Query, type RepoSpec } from './dataset.js';
import { fileList, hitList } from './metrics.js';

/** `--top-k 10`: each returned hunk is one slot (adjacent hits merge, so there may be fewer than 10). */
export const HIT_TOP_K = 10;
/** Enough lines that ten distinct files almost always appear; a file's rank is its best line's either way. */
export const FILE_TOP_K = 100;

export interface SimgrepQueryRun { hit: string[]; file: string[]; hunks: number; error?: string }
export interface SimgrepModeRun { runs: Map<Query, SimgrepQueryRun>; wallMs: number; searches: number; lines: number }

/** One corpus and its queries. */
export interface CorpusQueries { spec: RepoSpec; root: string; queries: Query[] }

/** Result filenames (root + relative) as upstream-repo-relative paths. */
function upstreamFiles(spec: RepoSpec, root: string, filenames: string[]): string[] {
  return filenames.map((f) => toUpstreamPath(spec, path.relative(root, f)));
}

/**
 * Runs one mode over the corpora. `searcherOf` gives each corpus its searcher (the one-shot searcher,
 * or the corpus's workspace); `fromIndex` requires every answer to come from a workspace index.
 */
export async function runSimgrepMode(searcherOf: (c: CorpusQueries) => Pick<Searcher, 'search'>, mode: SearchMode, corpora: CorpusQueries[], log: (m: string) => void, fromIndex = false): Promise<SimgrepModeRun> {
  const runs = new Map<Query, SimgrepQueryRun>();
  let searches = 0;
  let lines = 0;
  const t0 = performance.now();
  for (const corpus of corpora) {
    const { spec, root, queries } = corpus;
    const searcher = searcherOf(corpus);
    for (const q of queries) {
      try {
        const hit = await searcher.search({ query: q.query, paths: [root], topK: HIT_TOP_K, mode });
        const file = await searcher.search({ query: q.query, paths: [root], topK: FILE_TOP_K, mode });
        if (fromIndex && !(hit.stats.index && file.stats.index)) throw new Error('answered by a scan, not from the index');
        searches += 2;
        lines += hit.stats.lines + file.stats.lines;
        const warnings = [...hit.warnings, ...file.warnings];
        if (warnings.length) log(`${spec.name}: ${warnings.length} warning(s) for "${q.query}": ${JSON.stringify(warnings[0])}`);
        runs.set(q, {
          hit: hitList(upstreamFiles(spec, root, hit.results.map((r) => r.filename))),
          file: fileList(upstreamFiles(spec, root, file.results.map((r) => r.filename))),
          hunks: hit.results.length,
        });
      } catch (err) {
        const e = err as Error & { code?: string };
        log(`${spec.name}: "${q.query}" failed in ${mode} mode: ${e.code ?? ''} ${e.message}`);
        runs.set(q, { hit: [], file: [], hunks: 0, error: `${e.code ?? 'ERROR'}: ${e.message}` });
      }
    }
    log(`simgrep ${mode}${fromIndex ? ' from the index' : ''}: ${spec.name} done (${queries.length} queries)`);
  }
  return { runs, wallMs: performance.now() - t0, searches, lines };
}
