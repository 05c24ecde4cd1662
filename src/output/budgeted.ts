// --json and --jsonl under --max-tokens: the same answer cut to the budget (budget.ts), compact matches
// shown as their match line with the enclosing definition's signature, and the cut reported in a
// `budget` object (a key of the JSON answer; the last line of the JSONL).
import { fitBudget, measured } from './budget.js';
import { compactOf } from './compact.js';
import { toJsonl } from './jsonl.js';
import { toSemtoolsJson } from './json.js';
import type { SearchResult } from '../rank/windows.js';

const MAX_CUT = { max_tokens: 1e9, used_tokens: 1e9, compacted: 1e9, dropped: 1e9 };

export function budgetedJson(results: SearchResult[], maxTokens: number): string {
  const items = results.map((r) => {
    const full = toSemtoolsJson(r);
    const c = compactOf(r);
    return { full, compact: { ...full, start_line_number: r.match_line, end_line_number: r.match_line + 1, content: c.line, signature: c.signature, compact: true } };
  });
  const pretty = (o: unknown) => JSON.stringify(o, null, 2);
  const empty = pretty({ results: [] }).length;
  // An item's characters as printed inside the results array (its indentation and separator included).
  const size = (item: object) => pretty({ results: [item] }).length - empty + 2;
  const { kept, cut } = fitBudget(items, maxTokens, size, pretty({ results: [], budget: MAX_CUT }).length + 1);
  return measured(cut, () => `${pretty({ results: kept, budget: cut })}\n`);
}

export function budgetedJsonl(results: SearchResult[], maxTokens: number): string {
  const items = results.map((r) => {
    const full = toJsonl(r);
    const c = compactOf(r);
    const m = r.match_line + 1;
    return { full, compact: { ...full, start_line: m, end_line: m, content: c.line, signature: c.signature, compact: true } };
  });
  const { kept, cut } = fitBudget(items, maxTokens, (o) => JSON.stringify(o).length + 1, JSON.stringify({ budget: MAX_CUT }).length + 1);
  return measured(cut, () => [...kept, { budget: cut }].map((o) => `${JSON.stringify(o)}\n`).join(''));
}
