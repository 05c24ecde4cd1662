// grep-like text output in semtools' shape: "file:start::end (distance)" then numbered lines.
import type { SearchResult } from '../rank/windows.js';
import { roundDistance, type Printer, type Write } from './printer.js';
import { visibleName } from './visible.js';

const HIGHLIGHT = '\x1b[43m\x1b[30m';
const RESET = '\x1b[0m';

export function createTextPrinter(write: Write, opts: { color: boolean }): Printer {
  return {
    result(r: SearchResult) {
      const matched = new Set(r.matches.map((m) => m.line));
      let out = `${visibleName(r.filename)}:${r.start}::${r.end} (${roundDistance(r.distance)})\n`;
      r.lines.forEach((line, i) => {
        const n = r.start + i;
        const text = `${String(n + 1).padStart(4)}: ${line}`;
        out += opts.color && matched.has(n) ? `${HIGHLIGHT}${text}${RESET}\n` : `${text}\n`;
      });
      write(`${out}\n`);
    },
  };
}
