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
