// --jsonl: one object per result per line, 1-based inclusive line numbers, written as it is ready.
import type { SearchResult } from '../rank/windows.js';
import { roundDistance, type Printer, type Write } from './printer.js';

export interface JsonlResult {
  filename: string;
  start_line: number;
  end_line: number;
  match_line: number;
  distance: number;
  content: string;
  matches: { line: number; distance: number }[];
}

export function toJsonl(r: SearchResult): JsonlResult {
  return {
    filename: r.filename,
    start_line: r.start + 1,
    end_line: r.end,
    match_line: r.match_line + 1,
    distance: roundDistance(r.distance),
    content: r.lines.join('\n'),
    matches: r.matches.map((m) => ({ line: m.line + 1, distance: roundDistance(m.distance) })),
  };
}

export function createJsonlPrinter(write: Write): Printer {
  return { result: (r) => write(`${JSON.stringify(toJsonl(r))}\n`) };
}
