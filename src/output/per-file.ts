// At most N results per file (ripgrep's -m per file, the agents' "one result per file"): the best ones
// of each file, in rank order.
import type { SearchResult } from '../rank/windows.js';

/** Candidates asked of the ranker per result wanted when results are limited per file. */
export const PER_FILE_OVERFETCH = 4;

export function limitPerFile(results: SearchResult[], perFile: number | undefined): SearchResult[] {
  if (perFile === undefined) return results;
  const seen = new Map<string, number>();
  return results.filter((r) => {
    const n = seen.get(r.filename) ?? 0;
    seen.set(r.filename, n + 1);
    return n < perFile;
  });
}

/**
 * Of results of one hit each, in rank order, the best `perFile` of each file whose windows neither overlap
 * nor touch one kept before them: each is then a hunk of its own when windows are merged (mergeHits' rule),
 * so a file gives `perFile` hunks where its hits allow. A hit next to a better one of its file adds no
 * result (kept, it would merge into that one's hunk and leave the file a result short: review of audit44).
 */
export function limitHunksPerFile(results: SearchResult[], perFile: number): SearchResult[] {
  const kept = new Map<string, SearchResult[]>();
  return results.filter((r) => {
    const mine = kept.get(r.filename) ?? [];
    if (mine.length >= perFile || mine.some((k) => r.start <= k.end && k.start <= r.end)) return false;
    mine.push(r);
    kept.set(r.filename, mine);
    return true;
  });
}
