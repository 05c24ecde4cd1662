// The answer of a search-like MCP tool: structured matches (each with its code, or compact) within the
// token budget, and the same matches as text for clients that show only text. Both forms are held to
// the budget: an item is measured as its JSON, which is never shorter than its text rendering.
import { fitBudget, measured, type BudgetCut, type BudgetItem } from '../output/budget.js';
import { counted, cutText } from '../text/cut.js';
import { compactOf } from '../output/compact.js';
import { readRegularFile } from '../regular-file.js';
import type { SearchResult } from '../rank/windows.js';
import { scoreOf } from '../rank/score.js';
import type { SearchMode } from '../types.js';

export const DEFAULT_MAX_TOKENS = 4000;

export interface McpMatch {
  path: string;
  start_line: number;
  end_line: number;
  match_line: number;
  score: number;
  /** The hunk's lines (full matches). */
  code?: string;
  /** The match line (compact matches). */
  line?: string;
  /** The enclosing definition's line (compact matches), when the hunk, or its file above it, shows it (else null). */
  signature?: string | null;
  compact?: true;
}

export interface AnswerInput {
  results: SearchResult[];
  mode: SearchMode;
  maxTokens: number;
  /** false: no code at all (only locations and scores). */
  withCode: boolean;
  filesSearched: number;
  /** More results existed than were asked for. */
  more: boolean;
  index: 'fresh' | 'building' | 'scanned';
  notes: string[];
}

const MAX_CODE_CHARS = 8000;
/** A result's file up to this size is read for a compact match's signature (as a search reads one whole: sources/source.ts WHOLE_READ_BYTES). */
const SIGNATURE_FILE_BYTES = 8 << 20;

export function buildAnswer(a: AnswerInput) {
  const fileLines = fileReader();
  const items: BudgetItem<McpMatch>[] = a.results.map((r) => {
    const base = { path: r.filename, start_line: r.start + 1, end_line: r.end, match_line: r.match_line + 1, score: scoreOf(r.distance, a.mode) };
    if (!a.withCode) return { full: base, compact: base };
    // The compact form is made only when the budget asks for it (most answers fit whole).
    let compact: McpMatch | null = null;
    return {
      full: { ...base, code: clip(r.lines.join('\n')) },
      get compact(): McpMatch {
        if (compact === null) { const c = compactOf(r, { fileLines }); compact = { ...base, line: c.line, signature: c.signature, compact: true }; }
        return compact;
      },
    };
  });
  const envelope = { matches: [], count: 0, files_searched: a.filesSearched, truncated: true, index: a.index, notes: [...a.notes, CUT_NOTE_MAX], budget: { max_tokens: a.maxTokens, used_tokens: 1e9, compacted: 1e9, dropped: 1e9 } };
  const { kept, cut } = fitBudget(items, a.maxTokens, (m) => JSON.stringify(m).length + 1, JSON.stringify(envelope).length);
  const notes = [...a.notes];
  if (cut.compacted > 0 || cut.dropped > 0) notes.push(cutNote(cut));
  const out = { matches: kept, count: kept.length, files_searched: a.filesSearched, truncated: a.more || cut.dropped > 0, index: a.index, notes, budget: cut };
  // What comes back, measured (the structured content, which the text never outgrows).
  measured(cut, () => JSON.stringify(out));
  return { content: [{ type: 'text' as const, text: render(out) }], structuredContent: out };
}

const CUT_NOTE_MAX = cutNote({ max_tokens: 1e9, used_tokens: 1e9, compacted: 1e9, dropped: 1e9 });

function cutNote(c: BudgetCut): string {
  // Only what happened: locations alone (files_with_matches, show_preview false) are never compacted, only left out.
  const cut = [
    ...(c.compacted > 0 ? [`${c.compacted} ${c.compacted === 1 ? 'match' : 'matches'} shown compact (match line and enclosing definition)`] : []),
    ...(c.dropped > 0 ? [`${c.dropped} left out`] : []),
  ];
  return `max_tokens ${c.max_tokens}: ${cut.join(', ')}; raise max_tokens or narrow the query to see them`;
}

function render(out: { matches: McpMatch[]; files_searched: number; index: string; notes: string[] }): string {
  const parts = out.matches.map((m) => (m.compact
    ? `${m.path}:${m.match_line} (score ${m.score.toFixed(3)}, compact)\n${m.signature ? `  in: ${m.signature}\n` : ''}  ${m.line}`
    : `${m.path}:${m.start_line}-${m.end_line} (score ${m.score.toFixed(3)})${m.code !== undefined ? `\n${m.code}` : ''}`));
  if (parts.length === 0) parts.push(`no match in ${counted(out.files_searched, 'file')}`);
  parts.push(`[${counted(out.files_searched, 'file')} searched; index: ${out.index}]`);
  for (const n of out.notes) parts.push(`note: ${n}`);
  return parts.join('\n');
}

/**
 * The lines of a result's file, read once per answer, for a compact match's enclosing definition above its hunk
 * (compact.ts); null when it cannot be read, or is no regular file of at most SIGNATURE_FILE_BYTES (then the match
 * has the hunk's own, or none): the read is on the engine's thread, which a FIFO would block forever.
 */
function fileReader(): (file: string) => string[] | null {
  const read = new Map<string, string[] | null>();
  return (file) => {
    if (!read.has(file)) {
      let lines: string[] | null = null;
      // Gone, unreadable, a link, a pipe or a huge file since the search: no signature from the file.
      const bytes = readRegularFile(file, SIGNATURE_FILE_BYTES);
      if (bytes !== null) lines = bytes.toString('utf8').split(/\r?\n/);
      read.set(file, lines);
    }
    return read.get(file) ?? null;
  };
}

function clip(s: string): string {
  return cutText(s, MAX_CODE_CHARS);
}
