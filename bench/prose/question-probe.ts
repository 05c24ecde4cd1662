// An offline probe of the prose line score's margin over plain BM25 (issue 31): the shipped rule
// (words, their window and their grams; rank/prose.ts) recomputed per question from each line's
// counts (`ship`: equal to the bench's `--mode hybrid` column), then variants of it: question words
// (question-words.ts) or function words left out, idf raised to a power, the query's terms near
// each other in a line (pairs, shortest span), BM25+'s delta, a coverage factor, each field's norm
// scaled, each field's own k1 and b, the word after a question word (the answer's type) weighted
// down, numbers as terms, accents and Arabic / Devanagari letter forms folded in the grams, Han
// words cut into characters (shipped: lexical/grams.ts), and windows weighted otherwise.
// Exploratory: a variant is chosen on the first 40 ids (`tune`); PROBE_HELD=1 adds the next 40
// (`held`), to be looked at once, after choosing. PROBE_CMP=a,b lists the questions two variants
// rank differently. Figures: docs/models.md (Prose lines). ~1 min on 2 busy cores.
// npx tsc -p tsconfig.json && node dist/bench/prose/question-probe.js [filter-regex]
import path from 'node:path';
import { createSearcher } from '../../src/library.js';
import { forEachGram, queryGrams } from '../../src/rank/lexical/grams.js';
import { isQuestionWord } from './question-words.js';
import { identifierParts, identifiers, isStopword, stem } from '../../src/rank/lexical/terms.js';
import { fold, textWords } from '../../src/rank/lexical/words.js';
import { RANK_DEFAULTS, type RankPlan } from '../../src/rank/plan.js';
import { REPO_ROOT } from '../quality/dataset.js';
import { DEV_LANGUAGES, loadLanguage, shuffledCommonIds } from './dataset.js';
import { fileFrequencies, lineCounts, mrrAt10, probeQuestions, ProbeResults } from './probe-table.js';

const dir = path.join(REPO_ROOT, 'bench', '.tmp', 'prose');
const sets = DEV_LANGUAGES.map((l) => loadLanguage(l, dir));
const common = shuffledCommonIds(sets, 31);
// The next 40 only with PROBE_HELD=1: look at them once, after the constants are chosen on `tune`.
const splits: Record<string, string[]> = process.env.PROBE_HELD ? { tune: common.slice(0, 40), held: common.slice(40, 80) } : { tune: common.slice(0, 40) };
const filter = process.argv[2] ? new RegExp(process.argv[2]) : null;
const searcher = createSearcher({ concurrency: 0 });

const K1 = 0.6;
const B = 0.5;

/** Which of a query's words are left out: none, the question words, or those and more. */
const FUNCTION_WORDS = new Set([
  'der die das den dem des ein eine einer eines einem einen und oder in im ins an am auf aus bei mit von vom zu zum zur für über unter nach vor durch um ist sind war waren wird werden wurde wurden hat haben hatte hatten sein es er sie wir ihr man sich nicht auch als dass noch nur so',
  'el la los las lo un una unos unas de del al a en y o u e por para con sin sobre entre es son fue fueron era eran ser ha han había se su sus que le les este esta estos estas ese esa',
  'في من إلى على عن مع هو هي هم كان كانت التي الذي الذين و أو ثم قد لم لا هذا هذه ذلك تلك بين بعد قبل عند',
  'के का की को में से पर है हैं था थे थी ने और या एक यह वह इस उस लिए भी तो ही जो कि गया किया',
  '的 了 是 在 和 与 及 或 也 都 就 而 被 把 对 从 到 为 以 由 其 这 那 之 于 中 上 着 过 会 能 有 个',
].flatMap((l) => l.split(' ').map(fold)));
const SKIPS: Record<string, (w: string) => boolean> = {
  fn: (w) => FUNCTION_WORDS.has(w),
  qwfn: (w) => isQuestionWord(w) || FUNCTION_WORDS.has(w),
  none: () => false,
  qw: isQuestionWord,
  qwDid: (w) => isQuestionWord(w) || w === 'did',
};

/** Per question: each line's cosine, length, term and gram counts, term positions, and per skip rule the masks. */
interface Q {
  cos: Float64Array; w: number; lens: number[];
  tf: Float64Array[]; gtf: Float64Array[];
  /** Per line holding a term: [word position, term] pairs in order. */
  pos: (number[] | null)[];
  /** Per skip rule: term kept (1) or left out (0), gram kept or not. */
  masks: Record<string, { terms: Uint8Array; grams: Uint8Array }>;
  /** Per term and gram: 1 when it comes only from the word after a question word (the answer's type: "what *episode*"). */
  focus: { terms: Uint8Array; grams: Uint8Array };
  /** Per fold: the lines' counts of the query's folded grams. */
  fold: Record<string, { gtf: Float64Array[] }>;
  /** Per line, its counts of the query's numbers. */
  ntf: Float64Array[];
}

const NUMBERS = /\p{N}+(?:[.,]\p{N}+)*/gu;
const numbers = (s: string) => (s.normalize('NFKC').match(NUMBERS) ?? []).map((x) => x.replace(/[.,]/g, ''));
const cat = (a: Float64Array[], b: Float64Array[]) => a.map((r, i) => { const o = new Float64Array(r.length + b[i].length); o.set(r); o.set(b[i], r.length); return o; });
const ones = (m: Uint8Array, k: number) => { const o = new Uint8Array(m.length + k); o.set(m); o.fill(1, m.length); return o; };

/** The question with its numbers added as terms of the words' field, the grams' field, or both. */
function withNumbers(q: Q, where: 'words' | 'grams' | 'both'): Q {
  const k = q.ntf[0]?.length ?? 0;
  if (k === 0) return q;
  const words = where !== 'grams'; const grams = where !== 'words';
  const masks = Object.fromEntries(Object.entries(q.masks).map(([name, m]) => [name, { terms: words ? ones(m.terms, k) : m.terms, grams: grams ? ones(m.grams, k) : m.grams }]));
  return { ...q, tf: words ? cat(q.tf, q.ntf) : q.tf, gtf: grams ? cat(q.gtf, q.ntf) : q.gtf, masks };
}

interface Opts { winMode?: 'missing' | 'half' | 'prev' | 'next'; focus?: number; gk1?: number; gb?: number; wk1?: number; wb?: number; normC?: number; gnormC?: number; delta?: number; cover?: number; num?: 'words' | 'grams' | 'both'; skip?: string; idfPow?: number; prox?: number; proxKind?: 'pair' | 'span'; gramW?: number; ctx?: number }

function idfOf(df: number, n: number): number { return Math.log(1 + (n - df + 0.5) / (df + 0.5)); }

/** The shipped score of every line, with the variant's options. */
function score(q0: Q, o: Opts = {}): Float64Array {
  const q = o.num ? withNumbers(q0, o.num) : q0;
  const mask = q.masks[o.skip ?? 'none'];
  const p = o.idfPow ?? 1;
  const n = q.tf.length;
  const nT = q.tf[0]?.length ?? 0;
  const nG = q.gtf[0]?.length ?? 0;
  const { docs, chars, df, gdf } = fileFrequencies(q);
  const top = idfOf(0, docs) ** p;
  const fw = (f: number) => (f && o.focus !== undefined ? o.focus : 1);
  const idf = Array.from(df, (d, t) => (mask.terms[t] ? fw(q.focus.terms[t]) * idfOf(d, docs) ** p : 0));
  const gidf = Array.from(gdf, (d, g) => (mask.grams[g] ? fw(q.focus.grams[g]) * idfOf(d, docs) ** p : 0));
  const norm = mask.terms.reduce((s, m) => s + m, 0) * top * (o.normC ?? 1);
  const gnorm = mask.grams.reduce((s, m) => s + m, 0) * top * (o.gnormC ?? 1);
  const idfSum = idf.reduce((s, x) => s + x, 0);
  const delta = o.delta ?? 0;
  const avg = chars / Math.max(1, docs);
  const bm = (row: (t: number) => number, len: number, w: number[], cnt: number, k1 = K1, b = B) => {
    const k = k1 * (1 - b + (b * len) / avg);
    let s = 0;
    for (let t = 0; t < cnt; t++) { const f = row(t); if (f > 0 && w[t] > 0) s += w[t] * ((f * (k1 + 1)) / (f + k) + delta); }
    return s;
  };
  const ctx = o.ctx ?? 0.5; const gw = o.gramW ?? 0.5;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let lex = 0;
    const own = bm((t) => q.tf[i][t], q.lens[i], idf, nT);
    if (own > 0 && norm > 0) {
      const lo = Math.max(0, i - 1); const hi = Math.min(n - 1, i + 1);
      let wl = 0; for (let j = lo; j <= hi; j++) wl += q.lens[j];
      const win = bm((t) => {
        let f = 0;
        for (let j = lo; j <= hi; j++) {
          if (j === i || !o.winMode) f += q.tf[j][t];
          else if (o.winMode === 'half') f += 0.5 * q.tf[j][t];
          else if (o.winMode === 'prev') f += (j < i ? 1 : 0.5) * q.tf[j][t];
          else if (o.winMode === 'next') f += (j > i ? 1 : 0.5) * q.tf[j][t];
          else if (q.tf[i][t] === 0) f += q.tf[j][t];
        }
        return f;
      }, wl / 3, idf, nT, o.wk1, o.wb);
      let words = (1 - ctx) * (own / (own + norm)) + ctx * (win / (win + norm));
      if (o.prox) {
        const px = proximity(q.pos[i], idf, o.proxKind ?? 'pair');
        words = (1 - o.prox) * words + o.prox * (px / (px + norm));
      }
      if (o.cover) {
        let m = 0; for (let t = 0; t < nT; t++) if (q.tf[i][t] > 0) m += idf[t];
        words *= (m / idfSum) ** o.cover;
      }
      lex = words;
      if (gnorm > 0) {
        const g = bm((k) => q.gtf[i][k], q.lens[i], gidf, nG, o.gk1, o.gb);
        lex = (1 - gw) * words + gw * (g / (g + gnorm));
      }
    }
    out[i] = q.w * Math.max(0, q.cos[i]) + (1 - q.w) * lex;
  }
  return out;
}

/**
 * How near the line's distinct query terms are: `pair` sums, over neighbouring hits of two different
 * terms, the smaller idf over the distance squared; `span` is the idf sum of the terms in the
 * shortest run of words holding the most distinct terms, over that run's length in words.
 */
function proximity(pos: number[] | null, idf: number[], kind: 'pair' | 'span'): number {
  if (!pos) return 0;
  const hits: [number, number][] = [];
  for (let j = 0; j < pos.length; j += 2) if (idf[pos[j + 1]] > 0) hits.push([pos[j], pos[j + 1]]);
  if (kind === 'pair') {
    let s = 0;
    for (let j = 1; j < hits.length; j++) {
      const [pa, ta] = hits[j - 1]; const [pb, tb] = hits[j];
      if (ta !== tb) s += Math.min(idf[ta], idf[tb]) / Math.max(1, pb - pa) ** 2;
    }
    return s;
  }
  const distinct = new Set(hits.map((h) => h[1]));
  if (distinct.size < 2) return 0;
  let best = Infinity;
  const count = new Map<number, number>();
  let have = 0;
  for (let a = 0, b = 0; b < hits.length; b++) {
    const t = hits[b][1];
    count.set(t, (count.get(t) ?? 0) + 1);
    if (count.get(t) === 1) have++;
    while (have === distinct.size) {
      best = Math.min(best, hits[b][0] - hits[a][0] + 1);
      const ta = hits[a][1];
      count.set(ta, count.get(ta)! - 1);
      if (count.get(ta) === 0) have--;
      a++;
    }
  }
  let sum = 0; for (const t of distinct) sum += idf[t];
  return sum * distinct.size / best;
}

/** Which plan terms and grams come only from words `skip` leaves out (queryTerms' and queryGrams' rules). */
function masksOf(query: string, plan: RankPlan, skip: (w: string) => boolean): { terms: Uint8Array; grams: Uint8Array } {
  const from = new Map<string, { out: boolean; kept: boolean }>();
  const note = (key: string, out: boolean) => { const f = from.get(key) ?? { out: false, kept: false }; if (out) f.out = true; else f.kept = true; from.set(key, f); };
  const keptWords: string[] = [];
  for (const ident of new Set(identifiers(query))) {
    const out = skip(fold(ident));
    if (!out) keptWords.push(ident);
    const parts = identifierParts(ident);
    if (parts.length > 1) note(fold(ident), out);
    for (const part of parts) {
      if (parts.length === 1 && isStopword(part)) continue;
      if (part.length < 2 && parts.length > 1) continue;
      note(stem(part), out);
    }
  }
  const terms = Uint8Array.from(plan.terms, (t) => (from.get(t.key)?.kept ? 1 : 0));
  const keptGrams = new Set(queryGrams(keptWords.join(' ')));
  const grams = Uint8Array.from(plan.prose!.grams, (g) => (keptGrams.has(g) ? 1 : 0));
  return { terms, grams };
}

/** The plan terms and grams that come only from the first word after a question word (stopwords skipped). */
function focusOf(query: string, plan: RankPlan): { terms: Uint8Array; grams: Uint8Array } {
  const words = identifiers(query);
  const focus = new Set<string>();
  words.forEach((w, i) => {
    if (!isQuestionWord(fold(w))) return;
    for (let j = i + 1; j < words.length; j++) {
      const f = fold(words[j]);
      if (isStopword(f) || isQuestionWord(f) || Array.from(f).length < 2) continue;
      focus.add(words[j]);
      break;
    }
  });
  const inv = masksOf(query, plan, (w) => !Array.from(focus).some((x) => fold(x) === w));
  return inv;
}

/** Orthographic folds for the grams' words: Latin, Greek and Cyrillic accents; Arabic short vowels and letter forms; Devanagari nukta and chandrabindu. */
const LATIN_MARKS = /[\u0300-\u036f]/g;
const ARABIC_MARKS = /[\u064b-\u0652\u0670\u0640]/g;
const FOLDS: Record<string, (w: string) => string> = {
  latin: (w) => w.normalize('NFD').replace(LATIN_MARKS, '').normalize('NFC'),
  arabic: (w) => w.replace(ARABIC_MARKS, '').replace(/[أإآ]/g, 'ا').replace(/ة/g, 'ه').replace(/ى/g, 'ي'),
  arabicMarks: (w) => w.replace(ARABIC_MARKS, '').replace(/[أإآ]/g, 'ا'),
  deva: (w) => w.replace(/\u0901/g, '\u0902').replace(/\u093c/g, ''),
};
FOLDS.id = (w) => w;
FOLDS.hanChars = (w) => w;
FOLDS.hanCharsBigrams = (w) => w;
FOLDS.hanCharsWord = (w) => w;
FOLDS.all = (w) => FOLDS.deva(FOLDS.arabic(FOLDS.latin(w)));
FOLDS.latinArabic = (w) => FOLDS.arabic(FOLDS.latin(w));
const HAN = /\p{Script=Han}/u;
/** The grams (3 code points) of a text's words, each word folded by `f` first (forEachGram's rule otherwise); `han`: a Han word's characters (1), and its bigrams too (2). */
function foldedGrams(text: string, f: (w: string) => string, han = 0): string[] {
  const out: string[] = [];
  for (const w0 of textWords(fold(text))) {
    if (isStopword(w0)) continue;
    const c = Array.from(f(w0));
    if (han && HAN.test(w0)) {
      out.push(...c);
      if (han === 2) for (let i = 0; i + 2 <= c.length; i++) out.push(c[i] + c[i + 1]);
      if (han === 3) out.push(w0);
      continue;
    }
    if (c.length <= 3) out.push(c.join(''));
    else for (let i = 0; i + 3 <= c.length; i++) out.push(c.slice(i, i + 3).join(''));
  }
  return out;
}

const variants: Record<string, (q: Q) => Float64Array> = {
  ship: (q) => score(q),
  qw: (q) => score(q, { skip: 'qw' }),
  qwDid: (q) => score(q, { skip: 'qwDid' }),
};
// The cosine's weight (the plan's proseSemantic x the query's known share) at other values.
for (const x of [0, 0.02, 0.1, 0.15, 0.2, 0.3]) variants[`w${x}`] = (q) => score({ ...q, w: q.w * x / RANK_DEFAULTS.proseSemantic });
for (const p of [1.25, 1.5, 2]) {
  variants[`idf^${p}`] = (q) => score(q, { idfPow: p });
  variants[`qw-idf^${p}`] = (q) => score(q, { skip: 'qw', idfPow: p });
}
for (const x of [0.1, 0.2, 0.3]) for (const kind of ['pair', 'span'] as const) {
  variants[`${kind}${x}`] = (q) => score(q, { prox: x, proxKind: kind });
  variants[`qw-${kind}${x}`] = (q) => score(q, { skip: 'qw', prox: x, proxKind: kind });
}
for (const num of ['words', 'grams', 'both'] as const) {
  variants[`num-${num}`] = (q) => score(q, { num });
  variants[`qw-num-${num}`] = (q) => score(q, { num, skip: 'qw' });
}
for (const c of [0.25, 0.5, 2]) { variants[`normC${c}`] = (q) => score(q, { normC: c }); variants[`gnormC${c}`] = (q) => score(q, { gnormC: c }); }
for (const d of [0.25, 0.5, 1]) variants[`delta${d}`] = (q) => score(q, { delta: d });
for (const c of [0.25, 0.5, 1]) variants[`cover${c}`] = (q) => score(q, { cover: c });
variants.fn = (q) => score(q, { skip: 'fn' });
variants.qwfn = (q) => score(q, { skip: 'qwfn' });
for (const k1 of [0.3, 1.2]) { variants[`gk1-${k1}`] = (q) => score(q, { gk1: k1 }); variants[`wk1-${k1}`] = (q) => score(q, { wk1: k1 }); }
for (const b of [0.3, 0.75]) { variants[`gb-${b}`] = (q) => score(q, { gb: b }); variants[`wb-${b}`] = (q) => score(q, { wb: b }); }
for (const a of [0, 0.25, 0.5, 0.75]) { variants[`focus${a}`] = (q) => score(q, { focus: a }); variants[`qw-focus${a}`] = (q) => score(q, { focus: a, skip: 'qw' }); }
for (const name of Object.keys(FOLDS)) variants[`fold-${name}`] = (q) => score({ ...q, gtf: q.fold[name].gtf, masks: { none: { terms: q.masks.none.terms, grams: new Uint8Array(q.fold[name].gtf[0]?.length ?? 0).fill(1) } } });
variants.winMissing = (q) => score(q, { winMode: 'missing' });
variants.winHalf = (q) => score(q, { winMode: 'half' });
variants.winPrev = (q) => score(q, { winMode: 'prev' });
variants.winNext = (q) => score(q, { winMode: 'next' });
const active = Object.entries(variants).filter(([k]) => !filter || filter.test(k) || k === 'ship');

async function main() {
  const results = new ProbeResults();
  const lensOf = new Map<unknown, number[]>();
  for await (const { set, split, count, question, plan, cos } of probeQuestions(sets, splits, searcher, results)) {
    const lens = lensOf.get(set) ?? lensOf.set(set, set.lines.map((l) => (l.trim() === '' ? 0 : l.length))).get(set)!;
    const { tf, gtf } = lineCounts(set.lines, plan);
    const pos = set.lines.map((line, i) => {
      if (!tf[i].some((f) => f > 0)) return null;
      const out: number[] = [];
      textWords(line).forEach((word, at) => {
        const whole = fold(word);
        const stems = identifierParts(word).map(stem);
        plan.terms.forEach((term, t) => { if (term.whole ? whole === term.key : stems.includes(term.key)) out.push(at, t); });
      });
      return out;
    });
    const masks = Object.fromEntries(Object.entries(SKIPS).map(([k, f]) => [k, masksOf(question.text, plan, f)]));
    const qn = [...new Set(numbers(question.text))];
    const ni = new Map(qn.map((x, i) => [x, i]));
    const ntf = set.lines.map((line) => { const r = new Float64Array(qn.length); for (const x of numbers(line)) { const i = ni.get(x); if (i !== undefined) r[i]++; } return r; });
    const folds = Object.fromEntries(Object.entries(FOLDS).filter(([k]) => active.some(([n]) => n === `fold-${k}`)).map(([k, f]) => {
      const han = k === 'hanChars' ? 1 : k === 'hanCharsBigrams' ? 2 : k === 'hanCharsWord' ? 3 : 0;
      const qg = [...new Set(foldedGrams(question.text, f, han))];
      const at = new Map(qg.map((g, i) => [g, i]));
      return [k, { gtf: set.lines.map((line) => { const r = new Float64Array(qg.length); for (const g of foldedGrams(line, f, han)) { const i = at.get(g); if (i !== undefined) r[i]++; } return r; }) }];
    }));
    const q: Q = { fold: folds, cos, w: plan.prose!.semantic, lens, tf, gtf, pos, masks, ntf, focus: focusOf(question.text, plan) };
    for (const [name, f] of active) results.add(name, split, set.lang, mrrAt10(f(q), question.labels), count);
    if (process.env.PROBE_CMP) {
      const [a, b] = process.env.PROBE_CMP.split(',');
      const ra = mrrAt10(variants[a](q), question.labels); const rb = mrrAt10(variants[b](q), question.labels);
      if (ra !== rb) process.stdout.write(`CMP ${set.lang} ${a} ${ra.toFixed(2)} ${b} ${rb.toFixed(2)} ${question.text}\n`);
    }
    if (process.env.PROBE_DIAG) {
      const sc = score(q);
      const order = [...sc.keys()].sort((a, b) => sc[b] - sc[a] || a - b);
      const r = order.findIndex((i) => question.labels.includes(i));
      const hasTerm = question.labels.some((l) => tf[l].some((f) => f > 0));
      process.stdout.write(`DIAG ${set.lang} rank ${r + 1} term ${hasTerm ? 1 : 0}\n`);
    }
  }
  results.print(Object.keys(splits), 14);
  await searcher.close();
}

main().catch((e) => { process.stderr.write(`${(e as Error).stack}\n`); process.exit(1); });
