// Words of every script for the lexical signals (BM25, path words, the index's identifiers): runs of
// letters, marks, numbers and _ of any script, split by ICU (Intl.Segmenter) where a script writes no
// spaces (Chinese, Japanese, Thai, ...), compared after NFKC and full case folding; an emoji (with its
// ZWJ sequence, as ICU keeps it, without variation selectors and skin-tone modifiers) is a word too. ASCII text keeps
// its fast path, which gives exactly these words (test/unit/rank/words.test.ts checks it).

const NON_ASCII = /[^\x00-\x7f]/;
/** An identifier of ASCII text: a run of [A-Za-z0-9_] without its leading digits. */
const ASCII_IDENT = /[A-Za-z_][A-Za-z0-9_]*/g;
/** What a character is to the word scanner (bits): part of a word, a number, of a script without spaces. */
const WORD = 1;
const NUMBER = 2;
const NO_SPACE = 4;
/** An emoji (Extended_Pictographic but the Latin-1 `©` `®`, or a flag's regional indicator): a word of its own. */
const EMOJI = 8;
/** What joins an emoji's sequence: ZWJ, variation selectors, skin-tone modifiers, tags (the keycap mark too, but a keycap's base `1` `#` is no emoji: `1️⃣` is not one word). */
const EMOJI_JOIN = 16;
const EMOJI_CHAR = /[\p{Extended_Pictographic}\p{Regional_Indicator}]/u;
const EMOJI_JOIN_CHAR = /[\u200d\ufe0e\ufe0f\u20e3\p{Emoji_Modifier}\u{e0020}-\u{e007f}]/u;
const WORD_CHAR = /[\p{L}\p{M}\p{N}_]/u;
const NUMBER_CHAR = /\p{N}/u;
/** Scripts written without spaces between words: ICU's dictionaries find the words. */
const NO_SPACE_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
/** Full case folding beyond toLowerCase after NFKC (CaseFolding.txt's F and C entries that differ). */
const SPECIAL_FOLDS: Record<string, string> = { 'ß': 'ss', 'ς': 'σ', 'ẞ': 'ss' };
const SPECIAL = /[ßςẞ]/g;
/** Presentation selectors and skin-tone modifiers (the surrogate pairs \ud83c\udffb-\udfff): what fold may drop. */
const EMOJI_SELECTOR = /[\ufe0e\ufe0f]|\ud83c[\udffb-\udfff]/;
/**
 * What fold drops: the selectors, and a tone that follows an emoji (and its selectors and tones). A tone after
 * a letter is kept: it parts two words (`a🏽b` is `a` and `b`), which its dropping would join.
 */
const EMOJI_SELECTORS = /[\ufe0e\ufe0f]|(?<=\p{Extended_Pictographic}[\ufe0e\ufe0f\u{1F3FB}-\u{1F3FF}]*)[\u{1F3FB}-\u{1F3FF}]/gu;

// A fixed locale: the same words on every machine (a cluster's workers must agree with the coordinator).
let segmenter: Intl.Segmenter | null = null;

export function isAscii(text: string): boolean {
  return !NON_ASCII.test(text);
}

/**
 * NFKC and full case folding, without presentation selectors (U+FE0E, U+FE0F) and an emoji's skin-tone
 * modifiers (U+1F3FB-1F3FF), which an emoji word has none of (bareEmoji): a text folded holds each of its emoji
 * words as the words spell them, so `👩🏽‍💻` holds `👩‍💻` and `👩‍❤️‍👨` holds `👩‍❤‍👨` (mend36b: the scan's
 * and a path's pre-check, `fold(text).includes(probe)`, missed them, and the index found them). On ASCII
 * text, toLowerCase. A folded text's positions are not the text's: no caller maps one back.
 */
export function fold(text: string): string {
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  let lower = text.normalize('NFKC').toLowerCase();
  if (EMOJI_SELECTOR.test(lower)) lower = lower.replace(EMOJI_SELECTORS, '');
  SPECIAL.lastIndex = 0;
  return SPECIAL.test(lower) ? lower.replace(SPECIAL, (c) => SPECIAL_FOLDS[c]).normalize('NFKC') : lower;
}

/**
 * The words of a text, in order, case kept, leading numbers dropped (a bare number is no word: code's
 * `0x1f` and line numbers would flood BM25). Non-ASCII text is NFKC-normalised first.
 */
export function textWords(text: string): string[] {
  return NON_ASCII.test(text) ? anyScriptWords(text) : text.match(ASCII_IDENT) ?? [];
}

/**
 * A number: a run of decimal digits, with inner `.` or `,` between digits (`1964`, `3.5`, `1,000`), or
 * Arabic's decimal and thousands separators (U+066B `٫`, U+066C `٬`), which are `.` and `,` (zh36).
 */
const NUMBER_RUN = /\p{Nd}+(?:[.,\u066b\u066c]\p{Nd}+)*/gu;
const ASCII_NUMBER_RUN = /[0-9]+(?:[.,][0-9]+)*/g;

/**
 * The numbers of a text, in order, repeats kept: runs of decimal digits (any script's) with inner `.`
 * or `,` between digits, anywhere (`1964`, the `19` of `COVID-19`, the `320` of `A320`), after NFKC
 * (full-width digits are digits), written in ASCII digits: Arabic-Indic `١٩٦٤` and Devanagari `१९६४`
 * are the number `1964`, and Arabic's separators are ASCII's: `١٬٩٦٤٫٥` is `1,964.5` as `1,964.5` is. Not words (textWords drops them: code's line numbers and hex would flood
 * BM25); a prose line's BM25 counts the query's numbers as terms beside its words (rank/prose.ts).
 */
export function textNumbers(text: string): string[] {
  if (!NON_ASCII.test(text)) return text.match(ASCII_NUMBER_RUN) ?? [];
  const runs = text.normalize('NFKC').match(NUMBER_RUN);
  if (!runs) return [];
  for (let r = 0; r < runs.length; r++) if (NON_ASCII.test(runs[r])) runs[r] = asciiDigits(runs[r]);
  return runs;
}

/** A number's digits of any script as ASCII digits (`.` and `,` kept; Arabic's `٫` and `٬` as `.` and `,`). */
function asciiDigits(run: string): string {
  let out = '';
  for (const ch of run) {
    const cp = ch.codePointAt(0)!;
    out += cp < 0x80 ? ch : cp === ARABIC_DECIMAL ? '.' : cp === ARABIC_THOUSANDS ? ',' : String.fromCharCode(0x30 + digitValue(cp));
  }
  return out;
}

const ARABIC_DECIMAL = 0x066b;
const ARABIC_THOUSANDS = 0x066c;

/**
 * The value of a decimal digit (Unicode Nd): Unicode puts each script's digits 0-9 on ten consecutive
 * code points, and where blocks of them meet each holds ten, so the value is the distance from the
 * start of the digits' run, modulo 10. Worked out once per code point.
 */
function digitValue(cp: number): number {
  let v = digitValues.get(cp);
  if (v === undefined) {
    let start = cp;
    while (start > 0 && ND.test(String.fromCodePoint(start - 1))) start--;
    v = (cp - start) % 10;
    if (digitValues.size < 4096) digitValues.set(cp, v);
  }
  return v;
}

const ND = /^\p{Nd}$/u;
const digitValues = new Map<number, number>();

/**
 * textWords of a query, the last long one's kept: a search plans its query (query-terms.ts) and
 * weighs the words the model knows (query-mode.ts) from the same words, and a pasted file's are
 * ~12,000. Shared: callers must not change the array.
 */
export function queryWords(query: string): readonly string[] {
  if (query.length < LONG_QUERY) return textWords(query);
  if (lastQuery?.text !== query) lastQuery = { text: query, words: textWords(query) };
  return lastQuery.words;
}

const LONG_QUERY = 1024;
let lastQuery: { text: string; words: readonly string[] } | null = null;

/**
 * A keycap (`1️⃣`, `#️⃣`, `*️⃣`: a digit of any script, `#` or `*`, a presentation selector or none,
 * U+20E3): a word of its own, its base and U+20E3 (fold drops the selector alike). As letters and marks,
 * `1️⃣` was a word of marks alone once its leading number was dropped: every keycap one term (left37);
 * so were `١⃣` and `٣⃣` while only ASCII digits were bases (mend37).
 */
const KEYCAP = /(\p{Nd}|[#*])[\ufe0e\ufe0f]?\u20e3/gu;

/** textWords without the ASCII fast path (exported for the tests that hold the two equal). */
export function anyScriptWords(text: string): string[] {
  const out: string[] = [];
  const norm = text.normalize('NFKC');
  if (!norm.includes('\u20e3')) return wordsBetween(norm, 0, norm.length, out);
  let at = 0;
  for (const k of norm.matchAll(KEYCAP)) {
    wordsBetween(norm, at, k.index, out);
    out.push(`${k[1]}\u20e3`);
    at = k.index + k[0].length;
  }
  return wordsBetween(norm, at, norm.length, out);
}

/** The words of norm[i, n) pushed to out (anyScriptWords' scan, between keycaps). */
function wordsBetween(norm: string, i: number, n: number, out: string[]): string[] {
  while (i < n) {
    let kind = kindAt(norm, i);
    if ((kind & EMOJI) !== 0) { i = emojiWords(norm, i, n, out); continue; }
    if ((kind & WORD) === 0) { i += width(norm, i); continue; }
    const start = i;
    let noSpace = 0;
    do { noSpace |= kind & NO_SPACE; i += width(norm, i); } while (i < n && ((kind = kindAt(norm, i)) & WORD) !== 0);
    const run = norm.slice(start, i);
    if (noSpace === 0) { push(out, run); continue; }
    segmenter ??= new Intl.Segmenter('en', { granularity: 'word' });
    for (const s of segmenter.segment(run)) if (s.isWordLike) push(out, s.segment);
  }
  return out;
}

/**
 * The emoji of the sequence that starts at i (an emoji, then emoji and what joins them: `👩‍💻`,
 * `👍🏽`, `🔥🔥`, before n), each a word as ICU's word segmenter keeps it, pushed to out; returns where the sequence ends.
 */
function emojiWords(norm: string, i: number, n: number, out: string[]): number {
  const start = i;
  do i += width(norm, i); while (i < n && (kindAt(norm, i) & (EMOJI | EMOJI_JOIN)) !== 0);
  const run = norm.slice(start, i);
  if (run.length <= 2 && (kindAt(run, 0) & EMOJI) !== 0 && width(run, 0) === run.length) { out.push(run); return i; }
  let words = emojiRuns.get(run);
  if (!words) {
    words = [];
    segmenter ??= new Intl.Segmenter('en', { granularity: 'word' });
    for (const s of segmenter.segment(run)) {
      const word = bareEmoji(s.segment);
      if (hasEmoji(word)) words.push(word);
    }
    // ICU's segmenter costs ~25 us a call: a sequence met again is looked up (bounded, as digitValues).
    if (emojiRuns.size >= EMOJI_RUNS_MAX) emojiRuns.clear();
    emojiRuns.set(run, words);
  }
  for (const w of words) out.push(w);
  return i;
}

/** Emoji sequences already segmented (run -> its words), at most EMOJI_RUNS_MAX. */
const emojiRuns = new Map<string, string[]>();
const EMOJI_RUNS_MAX = 4096;

/**
 * An emoji word without its presentation selectors and a trailing joiner, so `❤️` is `❤` and `🔥` + ZWJ
 * at a text's end is `🔥` (rev-words35: each was a term of its own, found by neither spelling), and
 * without its skin-tone modifiers (Emoji_Modifier, U+1F3FB-1F3FF), folded away as a case fold folds a
 * letter's case: `👍🏽` is `👍` and `👩🏽‍💻` is `👩‍💻`, so either finds the other (zh36). fold drops them from
 * a whole text alike (mend36b), so a folded line holds its emoji words.
 */
function bareEmoji(word: string): string {
  const bare = word.replace(/[\ufe0e\ufe0f\u{1F3FB}-\u{1F3FF}]/gu, '');
  return bare.endsWith('\u200d') ? bare.replace(/\u200d+$/, '') : bare;
}

function hasEmoji(segment: string): boolean {
  for (let j = 0; j < segment.length; j += width(segment, j)) if ((kindAt(segment, j) & EMOJI) !== 0) return true;
  return false;
}

/** A word without its leading numbers (none when it is all number). */
function push(out: string[], word: string): void {
  let i = 0;
  while (i < word.length && (kindAt(word, i) & NUMBER) !== 0) i += width(word, i);
  if (i < word.length) out.push(i === 0 ? word : word.slice(i));
}

function width(s: string, i: number): number {
  const c = s.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && i + 1 < s.length ? 2 : 1;
}

/**
 * The kind of the character at i: from a table over the Basic Multilingual Plane filled as its
 * characters are first met (each tested once with the Unicode-property regexes: testing each
 * character of each line with them costs ~30 times the NFKC normalisation; the whole plane at once,
 * ~50 ms of a cold process, for a pasted file's one `—`), or worked out for other planes.
 */
function kindAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c < 0xd800 || c > 0xdfff) {
    const k = bmpKinds[c];
    return k !== UNKNOWN ? k : (bmpKinds[c] = kindOf(String.fromCharCode(c)));
  }
  const cp = s.codePointAt(i)!;
  let k = astralKinds.get(cp);
  if (k === undefined) {
    k = kindOf(String.fromCodePoint(cp));
    if (astralKinds.size < 4096) astralKinds.set(cp, k);
  }
  return k;
}

/** A kind not worked out yet (the kinds use five bits). */
const UNKNOWN = 0xff;
const bmpKinds = new Uint8Array(0x10000).fill(UNKNOWN);
const astralKinds = new Map<number, number>();

function kindOf(ch: string): number {
  const emoji = ch > '\xff' && EMOJI_CHAR.test(ch) ? EMOJI : 0;
  const join = EMOJI_JOIN_CHAR.test(ch) ? EMOJI_JOIN : 0;
  if (!WORD_CHAR.test(ch)) return emoji | join;
  return WORD | join | (NUMBER_CHAR.test(ch) ? NUMBER : 0) | (NO_SPACE_CHAR.test(ch) ? NO_SPACE : 0);
}

/** The characters of the Basic Multilingual Plane whose kinds this thread has worked out (tests: a pasted file's few, never the plane). */
export function kindsWorkedOut(): number {
  let n = 0;
  for (let c = 0; c < 0x10000; c++) if (bmpKinds[c] !== UNKNOWN) n++;
  return n;
}

const ASCII_PARTS = /[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+/g;
/**
 * The same rule over every script's cased letters; uncased letters (CJK, Arabic, Devanagari) with their
 * marks make one part; an emoji word (anyScriptWords) is one part, with its sequence, and so is a keycap.
 */
const PARTS = /[0-9#*][\ufe0e\ufe0f]?\u20e3|\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?[\p{Ll}\p{M}]+|\p{Lu}+\p{M}*|\p{N}+|[\p{Lo}\p{Lm}\p{Lt}\p{M}]+|[\p{Extended_Pictographic}\p{Regional_Indicator}][\p{Extended_Pictographic}\p{Regional_Indicator}\p{Emoji_Modifier}\u200d\ufe0e\ufe0f\u20e3\u{e0020}-\u{e007f}]*/gu;

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
