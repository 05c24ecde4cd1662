// Context windows: a hit carries its own window (captured when it entered the top-k); windows of
// hits in one file that overlap or touch are merged into one hunk.
import { compareRanked } from './topk.js';

export interface Hit {
  path: string;
  /** 0-based line of the match. */
  line: number;
  distance: number;
  /** 0-based first line of the window, and its lines (terminators stripped). */
  start: number;
  lines: string[];
}

/** A printed result: semtools' SearchResult shape (0-based, end exclusive). */
export interface SearchResult {
  filename: string;
  lines: string[];
  start: number;
  end: number;
  /** The best-matching line of the hunk. */
  match_line: number;
  distance: number;
  /** Every matching line in the hunk with its distance, best first. */
  matches: { line: number; distance: number }[];
}

export function hitToResult(h: Hit): SearchResult {
  return {
    filename: h.path,
    lines: h.lines,
    start: h.start,
    end: h.start + h.lines.length,
    match_line: h.line,
    distance: h.distance,
    matches: [{ line: h.line, distance: h.distance }],
  };
}

/** One result per hit (semtools' behaviour), best first. */
export function resultsPerHit(hits: Hit[]): SearchResult[] {
  return [...hits].sort(compareRanked).map(hitToResult);
}

/** Merges overlapping or adjacent windows per file; hunks ordered by their best hit. */
export function mergeHits(hits: Hit[]): SearchResult[] {
  const byFile = new Map<string, Hit[]>();
  for (const h of hits) {
    const list = byFile.get(h.path);
    if (list) list.push(h); else byFile.set(h.path, [h]);
  }
  const hunks: SearchResult[] = [];
  for (const list of byFile.values()) {
    list.sort((a, b) => a.start - b.start || a.line - b.line);
    let cur: SearchResult | null = null;
    for (const h of list) {
      if (cur && h.start <= cur.end) {
        const extra = h.start + h.lines.length - cur.end;
        if (extra > 0) { cur.lines.push(...h.lines.slice(h.lines.length - extra)); cur.end += extra; }
        cur.matches.push({ line: h.line, distance: h.distance });
        if (compareRanked(h, { distance: cur.distance, path: cur.filename, line: cur.match_line }) < 0) {
          cur.distance = h.distance;
          cur.match_line = h.line;
        }
      } else {
        if (cur) hunks.push(cur);
        cur = { ...hitToResult(h), lines: [...h.lines] };
      }
    }
    if (cur) hunks.push(cur);
  }
  for (const hk of hunks) hk.matches.sort((a, b) => a.distance - b.distance || a.line - b.line);
  return hunks.sort((a, b) => compareRanked(
    { distance: a.distance, path: a.filename, line: a.match_line },
    { distance: b.distance, path: b.filename, line: b.match_line },
  ));
}

/** Results of one hit each (resultsPerHit's) merged as mergeHits merges their hits. */
export function mergeResults(results: SearchResult[]): SearchResult[] {
  return mergeHits(results.map((r) => ({ path: r.filename, line: r.match_line, distance: r.distance, start: r.start, lines: r.lines })));
}
