// The match list TEA's semtools.search action parses (TEA story TEA-BUILTIN-014: `[{file, line, score,
// text}, ...]`, with `context`): what `semtools search ... --output json` prints and what simgrep's own
// semtools.search action returns, built by this one function so the two agree to the last digit.
import type { SearchResult } from '../rank/windows.js';
import { roundDistance } from './printer.js';

export interface TeaMatch {
  file: string;
  /** 1-based line number of the matched line. */
  line: number;
  /** 1 - cosine distance (TEA picks best_match by the highest score). */
  score: number;
  text: string;
  /** The matched line with its context lines, clamped to the file. */
  context: string[];
}

export function teaMatch(r: SearchResult): TeaMatch {
  return {
    file: r.filename,
    line: r.match_line + 1,
    score: roundDistance(1 - roundDistance(r.distance)),
    text: r.lines[r.match_line - r.start] ?? '',
    context: r.lines,
  };
}
