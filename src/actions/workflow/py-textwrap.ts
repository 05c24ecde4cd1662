// Jinja's wordwrap filter, which is Python's textwrap.wrap per line (expand_tabs and replace_whitespace
// off, whitespace dropped at line ends, long words broken, at hyphens too), joined by the wrap string.

import { MAX_TEMPLATE_CHARS, tooLarge } from './py-limits.js';

const WS = '[\\t\\n\\x0b\\x0c\\r ]';
const NWS = '[^\\t\\n\\x0b\\x0c\\r ]';
const LT = '[\\p{L}\\p{M}_]';
const WP = '[\\p{L}\\p{M}\\p{N}_!"\'&.,?]';
// textwrap's wordsep_re: whitespace, an em-dash between words, or a word (split after a hyphen between letters).
const WORDSEP = new RegExp(`(${WS}+|(?<=${WP})-{2,}(?=[\\p{L}\\p{M}\\p{N}_])|${NWS}+?(?:-(?:(?<=${LT}{2}-)|(?<=${LT}-${LT}-))(?=${LT}-?${LT})|(?=${WS}|$)|(?<=${WP})(?=-{2,}[\\p{L}\\p{M}\\p{N}_])))`, 'u');
const WORDSEP_SIMPLE = new RegExp(`(${WS}+)`, 'u');

const len = (s: string) => Array.from(s).length;
const blank = (s: string) => s.trim() === '' && /^[\t\n\x0b\x0c\r ]*$/.test(s);

/** textwrap.wrap(text, width) with Jinja's wordwrap settings. */
export function wrapLine(text: string, width: number, breakLongWords: boolean, breakOnHyphens: boolean): string[] {
  if (width <= 0) throw new Error(`ValueError: invalid width ${width} (must be > 0)`);
  const chunks = text.split(breakOnHyphens ? WORDSEP : WORDSEP_SIMPLE).filter((c) => c !== '' && c !== undefined).reverse();
  const lines: string[] = [];
  while (chunks.length > 0) {
    const line: string[] = [];
    let used = 0;
    if (lines.length > 0 && blank(chunks.at(-1)!)) chunks.pop();
    while (chunks.length > 0) {
      const l = len(chunks.at(-1)!);
      if (used + l > width) break;
      line.push(chunks.pop()!);
      used += l;
    }
    if (chunks.length > 0 && len(chunks.at(-1)!) > width) {
      if (breakLongWords) {
        // textwrap's space_left = width - cur_len: 0 when the line is exactly full, so the long word starts the next line.
        const room = width - used;
        const chunk = Array.from(chunks.at(-1)!);
        let end = room;
        if (breakOnHyphens && chunk.length > room) {
          const hyphen = chunk.slice(0, room).lastIndexOf('-');
          if (hyphen > 0 && chunk.slice(0, hyphen).some((c) => c !== '-')) end = hyphen + 1;
        }
        line.push(chunk.slice(0, end).join(''));
        chunks[chunks.length - 1] = chunk.slice(end).join('');
      } else if (line.length === 0) {
        line.push(chunks.pop()!);
      }
    }
    if (line.length > 0 && blank(line.at(-1)!)) line.pop();
    if (line.length > 0) lines.push(line.join(''));
  }
  return lines;
}

/** Jinja's wordwrap(s, width=79, break_long_words=True, wrapstring=None, break_on_hyphens=True). */
export function wordwrap(s: string, width = 79, breakLongWords = true, wrapstring: string | null = null, breakOnHyphens = true): string {
  const join = wrapstring ?? '\n';
  // str.splitlines' line ends.
  const lines = s.split(/\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]/);
  if (lines.length > 0 && lines.at(-1) === '' && /(?:\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029])$/.test(s)) lines.pop();
  // Every wrapped line (an empty one is '') joined by the wrap string, the total bounded as it grows: a
  // long wrapstring over many short lines would make hundreds of millions of characters.
  const pieces: string[] = [];
  let size = 0;
  for (const line of lines) {
    const wrapped = wrapLine(line, width, breakLongWords, breakOnHyphens);
    for (const piece of wrapped.length === 0 ? [''] : wrapped) {
      size += piece.length + (pieces.length > 0 ? join.length : 0);
      pieces.push(piece);
      if (size > MAX_TEMPLATE_CHARS) throw tooLarge(`wordwrap's first ${pieces.length} lines joined by a wrapstring of ${join.length.toLocaleString('en-US')} characters`, size, MAX_TEMPLATE_CHARS, 'characters', 'wrap with a shorter wrapstring or a larger width');
    }
  }
  return pieces.join(join);
}
