// Deterministic, deliberately nasty line sample for tokenizer parity tests: real source files from
// node_modules (sorted walk), localized messages, synthetic prose/identifiers/punctuation, and unicode
// edge cases (marks, CJK, emoji, RTL, odd spaces, controls, lone surrogates, huge lines and words).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SOURCE_EXT = /\.(?:[cm]?[jt]s|json|md|d\.ts)$/;

/** Lines of real files under `root`, walked in sorted order, every `stride`-th file, up to `max`. The walk
 * stops once it has them (it listed every file of node_modules first: ~50,000 stats for ~150 files). */
export function realSourceLines(root: string, max: number, stride = 5): string[] {
  function* files(dir: string, depth: number): Generator<string> {
    let names: string[];
    try { names = readdirSync(dir).sort(); } catch { return; }
    for (const name of names) {
      const p = path.join(dir, name);
      let st;
      try { st = statSync(p); } catch { continue; }
      if (st.isDirectory()) { if (depth < 8) yield* files(p, depth + 1); } else if (SOURCE_EXT.test(name) && st.size < 1_500_000) yield p;
    }
  }
  const out: string[] = [];
  let i = 0;
  for (const file of files(root, 0)) {
    if (out.length >= max) break;
    if (i++ % stride !== 0) continue;
    const lines = readFileSync(file, 'utf8').split('\n');
    for (const l of lines.slice(0, 300)) { if (out.length >= max) break; out.push(l.endsWith('\r') ? l.slice(0, -1) : l); }
  }
  return out;
}

const WORDS = ('the of and to in is that for it as was with be by on not he this are or his from at which but have an ' +
  'they you were their one all we can her has there been if more when will would who so no tokenizer embedding vector ' +
  'semantic search grep model function return const async await import export default interface class extends ' +
  'unbelievable internationalization antidisestablishmentarianism naïve café résumé Zürich São Paulo Ωmega').split(' ');
const UNICODE_BITS = [
  'é', 'e\u0301', 'Å', 'A\u030A', 'ñ', 'ß', 'ﬁ', 'Æ', 'İstanbul', 'ΟΔΥΣΣΕΥΣ', 'ΑΣ.Β', 'Σ', 'ς', 'ǅ', 'Ⅻ', '①', '²', '™',
  '中文', '日本語のテキスト', '한국어', '你好，世界。', '\u{20000}\u{2A6D6}', '\u{2F800}', '豈', '㐀', 'ＡＢＣ１２３', '𝐀𝐁𝐂',
  '😀', '👍🏽', '👨\u200D👩\u200D👧', '🇫🇷', '❤\uFE0F', '\u20DD', 'a\u20DDb', 'क्षि', 'ไทย', 'Tiếng Việt', 'Привет', 'Ελλάδα',
  'مرحبا بالعالم', 'שָׁלוֹם', '\u200F', '\u200E', '\u202E', '\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF', '\u00AD',
  '\u00A0', '\u2000', '\u2003', '\u200A', '\u3000', '\u1680', '\u202F', '\u205F', '\u2028', '\u2029', '\u0085', '\u180E',
  '\t', '\v', '\f', '\r', '\x00', '\x01', '\x1B', '\x7F', '\x80', '\x9F', '\uFFFD', '\uD800', '\uDFFF', '\uDBFF\uDBFF',
  '\uE000', '\u{F0000}', '\u0378', '“quoted”', '‘single’', '—', '–', '…', '«»', '¿¡', '、。・', '§¶', '©°€±', '\u0345',
  '\u0300\u0301', '\u0CBF', '\u0903', '[CLS]', '[SEP]', '[UNK]', '[MASK]', '[PAD]', '[unk]', '[[CLS]]', '[CLS', 'x[SEP]y',
  '##ing', '▁', '▁▁x', '<s>', '</s>', '<unk>', '\\u00e9', '&amp;', '%20', '0x1F', '1e-9', '3.14159', '1,000,000', '$&',
];
const PUNCT = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';

function pick<T>(rand: () => number, xs: readonly T[]): T {
  return xs[Math.floor(rand() * xs.length)];
}

function identifier(rand: () => number): string {
  const parts = Array.from({ length: 1 + Math.floor(rand() * 4) }, () => pick(rand, WORDS).toLowerCase());
  switch (Math.floor(rand() * 5)) {
    case 0: return parts.map((p, i) => (i ? p[0].toUpperCase() + p.slice(1) : p)).join('');
    case 1: return parts.join('_');
    case 2: return parts.join('_').toUpperCase();
    case 3: return parts.join('-');
    default: return parts.map((p) => p[0].toUpperCase() + p.slice(1)).join('') + Math.floor(rand() * 100);
  }
}

function syntheticLine(rand: () => number): string {
  const n = 1 + Math.floor(rand() * 14);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = rand();
    if (r < 0.3) out.push(pick(rand, WORDS));
    else if (r < 0.5) out.push(identifier(rand));
    else if (r < 0.6) out.push(String(Math.floor(rand() * 1e6) / (rand() < 0.5 ? 1 : 1000)));
    else if (r < 0.72) out.push(Array.from({ length: 1 + Math.floor(rand() * 5) }, () => pick(rand, [...PUNCT])).join(''));
    else out.push(pick(rand, UNICODE_BITS));
  }
  const sep = pick(rand, [' ', ' ', ' ', '', '  ', '\t', '\u00A0', '.', ', ']);
  return out.join(sep);
}

/** Injects unicode bits at random places in a real line. */
function mutate(rand: () => number, line: string): string {
  let s = line;
  const k = 1 + Math.floor(rand() * 3);
  for (let i = 0; i < k; i++) {
    const at = Math.floor(rand() * (s.length + 1));
    s = s.slice(0, at) + pick(rand, UNICODE_BITS) + s.slice(at);
  }
  return s;
}

function hugeLines(rand: () => number): string[] {
  const word = (len: number, alphabet: string) => Array.from({ length: len }, () => alphabet[Math.floor(rand() * alphabet.length)]).join('');
  const az = 'abcdefghijklmnopqrstuvwxyzABC0123456789';
  return [
    word(100, az), word(101, az), word(99, az) + 'é', word(100, az) + 'é', 'é'.repeat(100), 'e\u0301'.repeat(60),
    '😀'.repeat(60), '😀'.repeat(101), '中'.repeat(300), Array.from({ length: 2500 }, () => pick(rand, WORDS)).join(' '),
    Array.from({ length: 1500 }, () => syntheticLine(rand)).join(' '), word(12_000, az), word(5_000, az + ' .,;'),
    'a'.repeat(250) + ' ' + 'b'.repeat(20), Array.from({ length: 800 }, () => pick(rand, UNICODE_BITS)).join(''),
  ];
}

const BLANKS = ['', ' ', '   ', '\t', '\t\t  ', '\u00A0', '\u3000', '\u200B', '\r', '\x00', ' \u2028 ', '\uFEFF'];

/** The full parity sample: at least `minLines` lines, same content for the same seed. */
export function buildSample(opts: { seed: number; minLines: number; sourceRoot: string }): string[] {
  const rand = mulberry32(opts.seed);
  const real = realSourceLines(opts.sourceRoot, Math.floor(opts.minLines * 0.55));
  const localized: string[] = [];
  for (const lang of ['ja', 'zh-cn', 'ko', 'ru', 'de', 'tr', 'pl', 'cs']) {
    try {
      const text = readFileSync(path.join(opts.sourceRoot, 'typescript', 'lib', lang, 'diagnosticMessages.generated.json'), 'utf8');
      localized.push(...text.split('\n').slice(0, 400));
    } catch { /* optional */ }
  }
  const out = [...real, ...localized, ...BLANKS, ...hugeLines(rand), ...UNICODE_BITS];
  for (let i = 0; out.length < opts.minLines; i++) {
    const r = rand();
    if (r < 0.5) out.push(syntheticLine(rand));
    else if (r < 0.85 && real.length > 0) out.push(mutate(rand, pick(rand, real)));
    else out.push(pick(rand, BLANKS) + syntheticLine(rand) + pick(rand, BLANKS));
  }
  return out;
}

/** Hand-picked lines where a per-word or per-chunk shortcut would most likely go wrong. */
export const EDGE_LINES = [
  '', ' ', 'a', 'A', 'Hello, World!', 'ΑΣ.Β', 'ΑΣ Β', 'ΑΣ', 'aΣ', 'Σa', 'ΣΑΣ', 'ὈΔΥΣΣΕΎΣ', 'ΑΣ\u0301 Β', 'a\uFEFFb', 'a\u200Bb',
  'a\u00A0b', 'a\u3000b', 'a\u2028b', 'a\u0085b', 'a\x00b', 'a\x01b', 'a\vb', 'a\fb', 'a\tb', 'a\rb', 'a\nb', 'a\x7Fb', 'a\uFFFDb',
  'e\u0301', ' \u0301x', 'x \u0301', 'İ', 'ﬁ', 'ǅ', '中文abc中', 'a中b', '\u{20000}a', 'a\u{20000}b', 'x😀y', '😀😀', '\uD800', 'a\uD800b',
  '\uDC00x', 'a\uDBFF', '[UNK]', ' [UNK] ', 'x[UNK]y', '[UNK][UNK]', '[[UNK]]', '[unk]', '[UN\u200BK]', '[UNK', 'UNK]', '[CLS]x[SEP]',
  '[PAD] [MASK]', '<mask>', '<MASK>', ' <mask> x', 'x <mask>y', '<mask><mask>', 'foo bar', 'foo  bar', 'xfoo bar', '▁', '▁▁', 'a▁b',
  '▁a', ' ▁ ', 'x'.repeat(100), 'x'.repeat(101), 'é'.repeat(100), 'é'.repeat(101), 'ab'.repeat(60), '##', '##a', 'a##b', '$&', '$1',
  'don\'t', 'U.S.A.', '1,234.56', '--flag=value', 'snake_case_name', 'camelCaseName', 'HTTPServerError', '0xDEADBEEF', '\\n\\t',
  'tokenizer.encode(text, { add_special_tokens: false })', '  \t  indented\tline  ', 'ﾊﾝｶｸ', '①②③', 'Ⅻ', '²³', '™©®',
];
