// Words of every script (issue 31): the ASCII fast path counts exactly what the general path counts on
// ASCII text, folding is NFKC plus full case folding, and Arabic, Chinese, Hindi, Cyrillic and Thai text
// give words a query can find.
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { anyScriptWords, fold, queryWords, textNumbers, textWords, wordParts } from '../../../src/rank/lexical/words.js';
import { parseLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan } from '../../../src/rank/plan.js';
import { countTerms, countWordTerms } from '../../../src/rank/chunk-scorer.js';
import { pathFacts } from '../../../src/rank/path-signals.js';

const lexicon = parseLexicon('#docs\t1000\nthe\t990\nrequest\t300\nretry\t20\n');
/** ASCII text shaped like code and prose: identifiers, camelCase, snake_case, digits, punctuation. */
const asciiText = fc.stringMatching(/^[A-Za-z0-9_ .,:;()\-\/'"=<>{}\t]{0,60}$/);
const asciiWord = fc.stringMatching(/^[A-Za-z0-9_]{1,16}$/);

describe('the ASCII fast path', () => {
  it('finds the same words as the general path on ASCII text', () => {
    fc.assert(fc.property(asciiText, (text) => {
      expect(textWords(text)).toEqual(anyScriptWords(text));
    }), { numRuns: 2000 });
  });

  it('splits a word into the same parts as the general path', () => {
    fc.assert(fc.property(asciiWord, (word) => {
      expect(wordParts(word, true)).toEqual(wordParts(word, false));
    }), { numRuns: 2000 });
  });

  it('counts the same terms as the general path (countTerms vs countWordTerms)', () => {
    // The query draws its words from the text, so matches are common.
    const pair = asciiText.chain((text) => fc.tuple(fc.constant(text), fc.subarray(text.split(/[^A-Za-z0-9_]+/).filter(Boolean).concat(['retry', 'Request', 'parseHTTP']), { minLength: 1 })));
    fc.assert(fc.property(pair, ([text, words]) => {
      const plan = buildRankPlan(words.join(' '), 'lexical', lexicon);
      const fast = new Float64Array(plan.terms.length);
      const general = new Float64Array(plan.terms.length);
      expect(countTerms(text, plan, fast)).toBe(countWordTerms(text, plan, general));
      expect([...fast]).toEqual([...general]);
    }), { numRuns: 2000 });
  });

  it('drops a word\'s leading digits on both paths (counterexamples "8_8" and "2025": the fast path counted the term 8 three times in 8_8, and 25 in 2025)', () => {
    for (const [text, query] of [['8_8', '8_8 parseHTTP'], ['a_25 2025 25px', 'a_25'], ['x8_8 v25', '8_8 v25']]) {
      const plan = buildRankPlan(query, 'lexical', lexicon);
      const fast = new Float64Array(plan.terms.length);
      const general = new Float64Array(plan.terms.length);
      countTerms(text, plan, fast);
      countWordTerms(text, plan, general);
      expect([...fast], text).toEqual([...general]);
    }
  });
});

describe('folding', () => {
  it('is idempotent and blind to canonical (NFD) and compatibility (full-width) forms', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 30 }), (s) => {
      const f = fold(s);
      expect(fold(f)).toBe(f);
      expect(fold(s.normalize('NFD'))).toBe(f);
      expect(fold(s.normalize('NFKD'))).toBe(f);
    }), { numRuns: 2000 });
  });

  it('folds case fully: ß and ẞ to ss, final sigma to sigma, full-width letters to ASCII', () => {
    expect(fold('Straße')).toBe(fold('STRASSE'));
    expect(fold('ΟΔΟΣ')).toBe(fold('οδοσ'));
    expect(fold('ｐａｒｓｅＪＳＯＮ')).toBe('parsejson');
    expect(fold('Ｒｅｔｒｙ')).toBe(fold('retry'));
  });

  it('keeps diacritics (café is not cafe)', () => {
    expect(fold('Café')).toBe('café');
  });
});

describe('words of every script', () => {
  it('keeps letters, marks and numbers of every script and drops leading numbers', () => {
    expect(textWords('Москва — столица России, 2024 год')).toEqual(['Москва', 'столица', 'России', 'год']);
    expect(textWords('تقع مدينة القاهرة على ضفاف نهر النيل')).toEqual(['تقع', 'مدينة', 'القاهرة', 'على', 'ضفاف', 'نهر', 'النيل']);
    expect(textWords('गंगा नदी हिमालय से निकलती है।')).toEqual(['गंगा', 'नदी', 'हिमालय', 'से', 'निकलती', 'है']);
    expect(textWords('größe_max = 3;')).toEqual(['größe_max']);
  });

  it('finds the words of scripts without spaces with ICU (Chinese, Japanese, Thai)', () => {
    expect(textWords('长江是亚洲最长的河流。')).toEqual(['长江', '是', '亚洲', '最长', '的', '河流']);
    expect(textWords('ทีมชนะการแข่งขัน').length).toBeGreaterThan(1);
    expect(textWords('東京は日本の首都です').length).toBeGreaterThan(2);
  });

  it('splits camelCase of any cased script and keeps uncased words whole', () => {
    expect(wordParts('größeMaximal')).toEqual(['grösse', 'maximal']);
    expect(wordParts('ΜέγεθοςΑρχείου')).toEqual(['μέγεθοσ', 'αρχείου']);
    expect(wordParts('निकलती')).toEqual(['निकलती']);
  });

  it('gives a query in any script terms to look for', () => {
    for (const q of ['أين تقع مدينة القاهرة', '亚洲最长的河流是什么', 'गंगा नदी कहाँ से निकलती है', 'Где находится Москва']) {
      expect(buildRankPlan(q, 'lexical', lexicon).terms.length).toBeGreaterThan(1);
    }
  });

  it('counts a query word in a line of its script, whatever its case or form', () => {
    const plan = buildRankPlan('МОСКВА', 'lexical', lexicon);
    const tf = new Float64Array(plan.terms.length);
    expect(countTerms('Москва — столица России; москва', plan, tf)).toBe(true);
    expect([...tf]).toEqual([2]);
    const zh = buildRankPlan('河流', 'lexical', lexicon);
    const zhTf = new Float64Array(zh.terms.length);
    expect(countTerms('长江是亚洲最长的河流。', zh, zhTf)).toBe(true);
    expect([...zhTf]).toEqual([1]);
  });
});

describe('queryWords (a long query\'s words found once for its plan and its known-word share: issue 30)', () => {
  it('are textWords, the last long query\'s kept and shared', () => {
    const long = Array.from({ length: 300 }, (_, i) => `word${i} ${i}x_y Straße`).join(' ');
    const other = `${long} more`;
    expect(queryWords('retry failed uploads')).toEqual(textWords('retry failed uploads'));
    expect(queryWords(long)).toEqual(textWords(long));
    expect(queryWords(long)).toBe(queryWords(long));
    expect(queryWords(other)).toEqual(textWords(other));
    expect(queryWords(long)).toEqual(textWords(long));
  });
});

describe('numbers of every script and emoji (trial35)', () => {
  it('a decimal digit of any script is its ASCII digit: ١٩٦٤, १९६४, ১৯৬৪, ๑๙๖๔, １９６４ and Adlam 𞥑𞥙𞥖𞥔 are 1964', () => {
    expect(textNumbers('عام ١٩٦٤ و ١٬٥ ٣,٥')).toEqual(['1964', '1,5', '3,5']);
    expect(textNumbers('पुल १९६४ ১৯৬৪ ๑๙๖๔ 橋１９６４年 \u{1E951}\u{1E959}\u{1E956}\u{1E954}')).toEqual(['1964', '1964', '1964', '1964', '1964']);
    expect(textNumbers('built 1964, rebuilt 2001')).toEqual(['1964', '2001']);
  });

  it('Arabic\'s decimal and thousands separators (U+066B, U+066C) join a number as `.` and `,` do (zh36)', () => {
    expect(textNumbers('بلغ ١٬٩٦٤٫٥ كم')).toEqual(['1,964.5']);
    expect(textNumbers('it was 1,964.5 km')).toEqual(['1,964.5']);
    expect(textNumbers('١٫٥ 1٬000 ٫٥ ١٬')).toEqual(['1.5', '1,000', '5', '1']);
    expect(buildRankPlan('بلغ ١٬٩٦٤٫٥', 'hybrid', lexicon).prose?.numbers).toEqual(['1,964.5']);
  });

  it('the query\'s numbers are the lines\': a plan of "١٩٦٤" holds 1964', () => {
    expect(buildRankPlan('جسر ١٩٦٤', 'hybrid', lexicon).prose?.numbers).toEqual(['1964']);
  });

  it('an emoji is a word, its ZWJ sequence or flag kept whole as ICU keeps them, its skin tone folded away, and one part', () => {
    expect(textWords('the disk was full 👩‍💻🔥 fire🔥')).toEqual(['the', 'disk', 'was', 'full', '👩‍💻', '🔥', 'fire', '🔥']);
    // Without their presentation selectors and a trailing joiner (rev-words35): ❤️ and ❤ are one word.
    // Without their skin-tone modifiers (zh36), as a case fold folds a letter: 👍🏽 and 👍 are one word.
    expect(textWords('👍🏽 ok 🇫🇷 ☀️ 👍🏿👍')).toEqual(['👍', 'ok', '🇫🇷', '☀', '👍', '👍']);
    expect(textWords('👩🏽\u200d💻 👋🏻x')).toEqual(['👩\u200d💻', '👋', 'x']);
    expect(buildRankPlan('👍🏽', 'lexical', lexicon).terms.map((t) => t.key)).toEqual(['👍']);
    expect(textWords('I ❤️ it, ❤ too, 🔥\u200d')).toEqual(['I', '❤', 'it', '❤', 'too', '🔥']);
    // A sequence met again gives the same words (its segmentation is kept, bounded).
    expect(textWords('👍🏽👍🏽 👍🏽')).toEqual(textWords('👍🏽👍🏽 👍🏽'));
    expect(textWords('© 2020 ® x')).toEqual(['x']);
    expect(wordParts('👩‍💻')).toEqual(['👩‍💻']);
    expect(buildRankPlan('🔥', 'lexical', lexicon).terms.map((t) => t.key)).toEqual(['🔥']);
  });

  it('fold drops the skin tones and presentation selectors the emoji words lack, so a line holds its words\' terms (mend36b)', () => {
    // A tone between 👩 and the joiner, a selector inside a ZWJ sequence: the folded text holds the word as textWords spells it.
    expect(fold('Ok 👩🏽\u200d💻 ☀️')).toBe('ok 👩\u200d💻 ☀');
    expect(fold('👩\u200d❤️\u200d👨')).toBe(textWords('👩\u200d❤️\u200d👨')[0]);
    expect(fold('👍🏿\ufe0e')).toBe('👍');
    expect(fold('👍\ufe0f🏽🏽')).toBe('👍');
    // A tone after a letter parts two words, as in the text: it is kept, and the folded text has the text's words.
    for (const t of ['a🏽b', 'a\ufe0f🏽b', 'a🏽🏽b']) expect(textWords(fold(t)), t).toEqual(textWords(t).map(fold));
    for (const [query, line] of [['👩\u200d💻', 'at work 👩🏽\u200d💻 today'], ['👩🏽\u200d💻', 'at work 👩\u200d💻 today'], ['👩\u200d❤️\u200d👨', 'a couple 👩\u200d❤️\u200d👨 here'], ['👩\u200d❤\u200d👨', 'a couple 👩\u200d❤️\u200d👨 here']]) {
      const plan = buildRankPlan(query, 'lexical', lexicon);
      const tf = new Float64Array(plan.terms.length);
      expect(countWordTerms(line, plan, tf), `${query} in ${line}`).toBe(true);
      expect([...tf], `${query} in ${line}`).toEqual([1]);
      const all = new Float64Array(plan.terms.length);
      countTerms(line, plan, all);
      expect([...all], `${query} in ${line}`).toEqual([1]);
    }
  });

  it('a keycap is a word of its own, its base and U+20E3: 1️⃣ finds 1️⃣, not every keycap (left37)', () => {
    expect(textWords('1️⃣ one #️⃣ *️⃣ 2⃣ x1️⃣y １️⃣ 3\ufe0e\u20e3')).toEqual(['1\u20e3', 'one', '#\u20e3', '*\u20e3', '2\u20e3', 'x', '1\u20e3', 'y', '1\u20e3', '3\u20e3']);
    expect(wordParts('1️⃣')).toEqual(['1\u20e3']);
    // Any script's digit is a keycap's base: ١⃣ and ٣⃣ are two words, not both U+20E3 alone (mend37).
    expect([textWords('١⃣ a'), textWords('٣⃣ b'), textWords('x\u{1E951}\u20e3')]).toEqual([['١\u20e3', 'a'], ['٣\u20e3', 'b'], ['x', '\u{1E951}\u20e3']]);
    const keys = (q: string) => buildRankPlan(q, 'lexical', lexicon).terms.map((t) => t.key);
    expect([keys('1️⃣'), keys('#️⃣'), keys('*️⃣ 2️⃣')]).toEqual([['1\u20e3'], ['#\u20e3'], ['*\u20e3', '2\u20e3']]);
    const plan = buildRankPlan('1️⃣', 'lexical', lexicon);
    for (const [line, want] of [['1️⃣ install the package', [1]], ['2️⃣ run the tests', [0]], ['#️⃣ tag the release', [0]], ['*️⃣ star it', [0]], ['steps 1⃣ and 1️⃣', [2]]] as const) {
      const tf = new Float64Array(plan.terms.length);
      countTerms(line, plan, tf);
      expect([...tf], line).toEqual(want);
    }
    // The folded text holds the keycap as its word spells it (a line's pre-check).
    for (const t of ['1️⃣ x', '#️⃣', 'a1️⃣b']) expect(textWords(fold(t)), t).toEqual(textWords(t).map(fold));
  });

  it('a toned query\'s path words are its file name\'s names (mend36b)', () => {
    const names = pathFacts('docs/👩🏽\u200d💻 guide.md').names;
    expect(names).toContain('👩\u200d💻');
    const plan = buildRankPlan('👩🏽\u200d💻 guide', 'hybrid', lexicon);
    expect(plan.pathWords.length).toBeGreaterThan(0);
    for (const w of plan.pathWords) expect(names, w).toContain(w);
    expect(wordParts('👍🏽x_👩\u200d❤️\u200d👨')).toEqual(['👍', 'x', '👩\u200d❤\u200d👨']);
  });
});

describe('the characters\' kinds, worked out as they are met (issue 30: a pasted file\'s one `—`)', () => {
  /** Characters of every kind the scan tells apart: scripts with and without spaces, marks, numbers of every kind, astral letters, emoji. */
  const chars = fc.oneof(
    fc.constantFrom(...'aZ_09 .,;(){}=\t\n-—×Σßſﬁé\u0301ÅΩπМос٣٤۵١२३गंँ长江東京はカタナทีม๓ລາວខ្មែរမြန်Ⅻⅻ½²³０９ＡＺ\u00a0\u200d\u3000'.split(''),
      '\u{1D400}', '\u{1D7D8}', '\u{20000}', '\u{1F600}', '\u{10400}', '\u{11066}',
      '🔥', '👩', '💻', '\u{1F3FD}', '\ufe0f', '\u20e3', '\u{1F1EB}', '\u{1F1F7}', '\u{E0067}', '©', '®', '☀', '™'),
    fc.integer({ min: 0, max: 0xffff }).filter((c) => c < 0xd800 || c > 0xdfff).map((c) => String.fromCharCode(c)),
    fc.integer({ min: 0x10000, max: 0x10ffff }).map((c) => String.fromCodePoint(c)),
  );
  const text = fc.array(chars, { maxLength: 40 }).map((xs) => xs.join(''));
  /** The rule, by regular expressions over the NFKC form: maximal runs of letters, marks, numbers and _, leading numbers dropped, scripts without spaces split by ICU. */
  const segmenter = new Intl.Segmenter('en', { granularity: 'word' });
  const word = (w: string) => w.replace(/^\p{N}+/u, '');
  // An emoji (not the Latin-1 © ®) and what joins its sequence; each of ICU's segments of the sequence that holds one is a word.
  const emoji = /^(?![©®])[\p{Extended_Pictographic}\p{Regional_Indicator}]/u;
  const hasEmoji = (seg: string) => [...seg].some((c) => emoji.test(c));
  /** A keycap (a digit of any script, # or *, a selector or none, U+20E3) is a word of its own, its base and U+20E3 (left37); the rule holds between them. */
  const reference = (t: string) => {
    const n = t.normalize('NFKC');
    const out: string[] = [];
    let at = 0;
    for (const k of n.matchAll(/(\p{Nd}|[#*])[\ufe0e\ufe0f]?\u20e3/gu)) {
      out.push(...runsOf(n.slice(at, k.index)), `${k[1]}\u20e3`);
      at = k.index + k[0].length;
    }
    return [...out, ...runsOf(n.slice(at))];
  };
  const runsOf = (n: string) => (n.match(/(?![©®])[\p{Extended_Pictographic}\p{Regional_Indicator}](?:(?![©®])[\p{Extended_Pictographic}\p{Regional_Indicator}\p{Emoji_Modifier}\u200d\ufe0e\ufe0f\u20e3\u{e0020}-\u{e007f}])*|[\p{L}\p{M}\p{N}_]+/gu) ?? []).flatMap((run) =>
    emoji.test(run) ? [...segmenter.segment(run)].map((s) => s.segment.replace(/[\ufe0e\ufe0f\u{1F3FB}-\u{1F3FF}]/gu, '').replace(/\u200d+$/u, '')).filter(hasEmoji) : /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u.test(run)
      ? [...segmenter.segment(run)].filter((s) => s.isWordLike).map((s) => word(s.segment))
      : [word(run)]).filter(Boolean);

  it('give the words the rule gives, in every script', () => {
    fc.assert(fc.property(text, (t) => {
      expect(anyScriptWords(t)).toEqual(reference(t));
    }), { numRuns: 5000 });
    // Every character of the Basic Multilingual Plane, each between two letters and after a number.
    for (let c = 0; c < 0x10000; c += 1) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      const t = `a${String.fromCharCode(c)}b 7${String.fromCharCode(c)}`;
      expect(anyScriptWords(t), c.toString(16)).toEqual(reference(t));
    }
  });

  it('are worked out for the characters met only, not the whole plane (~50 ms of a cold process)', async () => {
    vi.resetModules();
    const fresh = await import('../../../src/rank/lexical/words.js');
    const pasted = `${readFileSync(new URL('../../../src/rank/plan.ts', import.meta.url), 'utf8')}\n// a — b × c\n`;
    expect(fresh.isAscii(pasted)).toBe(false);
    expect(fresh.textWords(pasted).length).toBeGreaterThan(1000);
    expect(fresh.kindsWorkedOut()).toBeLessThanOrEqual(new Set(pasted).size);
  });
});
