// Words of every script for the lexical signals (BM25, path words, the index's identifiers): runs of
// letters, marks, numbers and _ of any script, split by ICU (Intl.Segmenter) where a script writes no
// spaces (Chinese, Japanese, Thai, ...), compared after NFKC and full case folding. ASCII text keeps
// its fast path, which gives exactly these words (test/unit/rank/words.test.ts checks it).

const NON_ASCII = /[^\x00-\x7f]/;
/** An identifier of ASCII text: a run of [A-Za-z0-9_] without its leading digits. */
const ASCII_IDENT = /[A-Za-z_][A-Za-z0-9_]*/g;
const WORD_RUN = /[\p{L}\p{M}\p{N}_]+/gu;
const LEADING_NUMBERS = /^\p{N}+/u;
/** Scripts written without spaces between words: ICU's dictionaries find the words. */
const NO_SPACES = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
/** Full case folding beyond toLowerCase after NFKC (CaseFolding.txt's F and C entries that differ). */
const SPECIAL_FOLDS: Record<string, string> = { 'ß': 'ss', 'ς': 'σ', 'ẞ': 'ss' };
const SPECIAL = /[ßςẞ]/g;

// A fixed locale: the same words on every machine (a cluster's workers must agree with the coordinator).
let segmenter: Intl.Segmenter | null = null;

export function isAscii(text: string): boolean {
  return !NON_ASCII.test(text);
}

/** NFKC and full case folding; on ASCII text, toLowerCase. */
export function fold(text: string): string {
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  const lower = text.normalize('NFKC').toLowerCase();
  return lower.replace(SPECIAL, (c) => SPECIAL_FOLDS[c]).normalize('NFKC');
}

/**
 * The words of a text, in order, case kept, leading numbers dropped (a bare number is no word: code's
 * `0x1f` and line numbers would flood BM25). Non-ASCII text is NFKC-normalised first.
 */
export function textWords(text: string): string[] {
  return NON_ASCII.test(text) ? anyScriptWords(text) : text.match(ASCII_IDENT) ?? [];
}

/** textWords without the ASCII fast path (exported for the tests that hold the two equal). */
export function anyScriptWords(text: string): string[] {
  const out: string[] = [];
  for (const m of text.normalize('NFKC').matchAll(WORD_RUN)) {
    const run = m[0];
    if (!NO_SPACES.test(run)) { push(out, run); continue; }
    segmenter ??= new Intl.Segmenter('en', { granularity: 'word' });
    for (const s of segmenter.segment(run)) if (s.isWordLike) push(out, s.segment);
  }
  return out;
}

function push(out: string[], word: string): void {
  const w = word.replace(LEADING_NUMBERS, '');
  if (w !== '') out.push(w);
}

const ASCII_PARTS = /[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+/g;
/** The same rule over every script's cased letters; uncased letters (CJK, Arabic, Devanagari) with their marks make one part. */
const PARTS = /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?[\p{Ll}\p{M}]+|\p{Lu}+\p{M}*|\p{N}+|[\p{Lo}\p{Lm}\p{Lt}\p{M}]+/gu;

/** snake_case and camelCase parts of one word, folded, in order (the whole not included); `ascii` picks the fast path. */
export function wordParts(word: string, ascii = !NON_ASCII.test(word)): string[] {
  const parts: string[] = [];
  for (const snake of word.split('_')) {
    if (!snake) continue;
    const pieces = snake.match(ascii ? ASCII_PARTS : PARTS);
    if (!pieces) continue;
    for (const p of pieces) parts.push(ascii ? p.toLowerCase() : fold(p));
  }
  return parts;
}
