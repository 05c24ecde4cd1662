// perFile and filesWithMatches, over any search: more candidates ranked, each file cut to its best.
import { limitHunksPerFile, limitPerFile, PER_FILE_OVERFETCH } from '../output/per-file.js';
import { mergeResults, type SearchResult } from '../rank/windows.js';
import type { SearchContentOptions, SearchOptions, SearchResponse } from './api.js';

/**
 * perFile and filesWithMatches: more candidates are ranked (PER_FILE_OVERFETCH per result wanted) so
 * that K results remain once each file keeps its best N; with filesWithMatches, N is 1 unless given. Where
 * fewer than K remain and the ranked pool overflowed (a few files held all of it), the pool is widened
 * PER_FILE_OVERFETCH times and ranked again, until K remain or it holds every match: K files come back
 * whenever K files match.
 */
export async function searchPerFile<O extends SearchOptions | SearchContentOptions>(o: O, run: (o: O) => Promise<SearchResponse>): Promise<SearchResponse> {
  const k = o.topK ?? (o.maxDistance !== undefined ? Infinity : 3);
  let pool = Number.isFinite(k) ? k * PER_FILE_OVERFETCH : o.topK;
  // The rounds share one clock: the --timeout's (each round gets what is left of it; one it cut is the last,
  // and answers only where it holds more than the uncut round before it) and the stats' time, every round's
  // (before, each round had the whole timeout: 4 rounds of a search cut at 0.4 s took 2 s, and the stats
  // counted the last round only).
  const started = performance.now();
  /** The last round the deadline did not cut (it read every file), should a wider one after it be cut. */
  let uncut: { r: SearchResponse; kept: SearchResult[] } | undefined;
  for (;;) {
    const left = o.timeoutMs === undefined ? undefined : Math.max(1, Math.round(o.timeoutMs - (performance.now() - started)));
    // One result per hit, cut per file, then merged: the pool's windows merged first made a file's whole
    // run of hits one hunk before the cut (a file matching on every other line came back whole; audit44).
    // Merged, a file keeps its best hits whose windows stay apart, so that each is a hunk of its own.
    const r = withTimeoutSaid(await run({ ...o, perFile: undefined, filesWithMatches: undefined, topK: pool, merge: false, ...(left !== undefined && { timeoutMs: left }) }), left, o.timeoutMs);
    const cut = r.warnings.some((w) => w.code === 'TIMEOUT');
    const kept = o.merge === false ? limitPerFile(r.results, o.perFile ?? 1) : mergeResults(limitHunksPerFile(r.results, o.perFile ?? 1));
    if (!cut && kept.length < k && r.more === true && pool !== undefined) { uncut = { r, kept }; pool *= PER_FILE_OVERFETCH; continue; }
    // A wider round cut by what was left of the --timeout holds only the files read before the deadline: where
    // the round before it (which read them all) holds as many results or more, those are the answer, with the
    // TIMEOUT (a round 2 cut at 0.4 s answered nothing where round 1 had found a file; review of tidy47).
    if (cut && uncut !== undefined && uncut.kept.length >= Math.min(kept.length, k)) return answer(o, k, afterCut(uncut.r, r), uncut.kept, started, { incomplete: true });
    return answer(o, k, r, kept, started);
  }
}

/** The answer from a round's response and its results cut per file (`incomplete`: more files match than it holds). */
function answer(o: SearchOptions | SearchContentOptions, k: number, r: SearchResponse, kept: SearchResult[], started: number, { incomplete = false } = {}): SearchResponse {
  const results = kept.slice(0, k);
  // More under the same per-file limit: a page cut by k, or a full page from a pool that overflowed (the
  // pool's own overflow says nothing when fewer than k files came back: every file did, review of trial39).
  const more = incomplete || kept.length > results.length || (r.more === true && results.length === k);
  const stats = { ...r.stats, ms: performance.now() - started };
  return o.filesWithMatches ? { ...r, results, more, stats, files: [...new Set(results.map((x) => x.filename))] } : { ...r, results, more, stats };
}

/**
 * An uncut round's response answering for the wider round after it that the deadline cut: that round's
 * TIMEOUT (an error, as every TIMEOUT is), saying whose results are shown; its answer has `more` set (the
 * widening was for files this round's pool had no room for).
 */
function afterCut(uncut: SearchResponse, cut: SearchResponse): SearchResponse {
  const timeouts = cut.warnings.filter((w) => w.code === 'TIMEOUT')
    .map((w) => ({ ...w, message: `${w.message} (the results shown are the round before's, which read every file: a wider round to find more files was cut)` }));
  return { ...uncut, warnings: [...uncut.warnings, ...timeouts], stats: { ...uncut.stats, errors: uncut.stats.errors + timeouts.length } };
}

/** A round's TIMEOUT warning names the --timeout the caller gave, not what was left of it for the round. */
function withTimeoutSaid(r: SearchResponse, left: number | undefined, given: number | undefined): SearchResponse {
  if (left === undefined || given === undefined || left === given) return r;
  const said = `--timeout of ${left / 1000} s`;
  return { ...r, warnings: r.warnings.map((w) => (w.code === 'TIMEOUT' ? { ...w, message: w.message.replace(said, `--timeout of ${given / 1000} s`) } : w)) };
}
