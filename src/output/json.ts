// --json: semtools' exact schema, {"results":[...]} with 0-based lines and an exclusive end.
import type { SearchResult } from '../rank/windows.js';
import { roundDistance, type Printer, type Write } from './printer.js';

export interface SemtoolsResultJson {
  filename: string;
  start_line_number: number;
  end_line_number: number;
  match_line_number: number;
  distance: number;
  content: string;
}

export function toSemtoolsJson(r: SearchResult): SemtoolsResultJson {
  return {
    filename: r.filename,
    start_line_number: r.start,
    end_line_number: r.end,
    match_line_number: r.match_line,
    distance: roundDistance(r.distance),
    content: r.lines.join('\n'),
  };
}

export function createJsonPrinter(write: Write): Printer {
  const results: SemtoolsResultJson[] = [];
  return {
    result: (r) => { results.push(toSemtoolsJson(r)); },
    end: () => write(`${JSON.stringify({ results }, null, 2)}\n`),
  };
}
