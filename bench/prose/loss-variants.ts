// Variants of the prose line rule that loss-probe.ts measures against the shipped one (loss-fields.ts),
// each a change of the rule before rank31 (`before`), tried on ids 0-79; `comb-sum` is the shipped one:
// combination forms, k1, the grams' weight and their weighting per word, grams only for the query words
// a line lacks, ordered pairs of query words (SDM), the cosine's weight, the cosine with the file's mean
// vector removed or of the query's content words, a prior for numbers on how-many/when questions,
// plain ICU BM25 as a fourth field, one-letter terms left out, a local idf (topic terms of the lines
// around a line weigh less in its own and its grams' BM25), and windows of two lines.
import { forEachWordGram, gramKey } from '../../src/rank/lexical/grams.js';
import { identifierParts, identifiers, isStopword, stem } from '../../src/rank/lexical/terms.js';
import { fold } from '../../src/rank/lexical/words.js';
import { icuWords } from './bm25-icu.js';
import { before, fields, idfOf, ship, type Opts, type Q } from './loss-fields.js';

export const variants: Record<string, (q: Q) => Float64Array> = {
  ship: (q) => ship(q),
  before: (q) => before(q),
};


/** Per query word: its plan terms and its grams (indices into plan.prose.grams). */
function wordsOf(q: Q): { terms: number[]; grams: number[] }[] {
  const termAt = new Map(q.plan.terms.map((t, i) => [t.key, i]));
  const gramAt = new Map(q.plan.prose!.grams.map((g, i) => [gramKey(g), i]));
  const out: { terms: number[]; grams: number[] }[] = [];
  for (const ident of new Set(identifiers(q.query))) {
    const w = fold(ident);
    if (isStopword(w)) continue;
    const terms: number[] = [];
    const whole = termAt.get(w); if (whole !== undefined) terms.push(whole);
    for (const p of identifierParts(ident)) { const t = termAt.get(stem(p)); if (t !== undefined) terms.push(t); }
    const grams: number[] = [];
    forEachWordGram(w, (k) => { const g = gramAt.get(k); if (g !== undefined) grams.push(g); });
    out.push({ terms, grams });
  }
  return out;
}

/** The question with each line's grams counted only for query words none of whose terms the line holds. */
function gramsOfMissing(q: Q): Q {
  const words = wordsOf(q);
  const gtf = q.gtf.map((row, i) => {
    const keep = new Uint8Array(row.length);
    for (const w of words) if (!w.terms.some((t) => q.tf[i][t] > 0)) for (const g of w.grams) keep[g] = 1;
    return row.map((f, g) => (keep[g] ? f : 0));
  });
  return { ...q, gtf };
}

/** Combination forms over the raw fields. */
function combine(q: Q, form: string, o: Opts = {}): Float64Array {
  const f = fields(q, o);
  return f.own.map((own, i) => {
    let lex = 0;
    if (own > 0 && f.norm > 0) {
      const a = own / (own + f.norm); const w = f.win[i] / (f.win[i] + f.norm); const g = f.gnorm > 0 ? f.gram[i] / (f.gram[i] + f.gnorm) : 0;
      if (form === 'sum') { const s = own / f.norm + f.win[i] / f.norm + (f.gnorm > 0 ? 2 * f.gram[i] / f.gnorm : 0); lex = s / (s + 4); }
      else if (form === 'geo') lex = Math.sqrt(((a + w) / 2) * (f.gnorm > 0 ? g : (a + w) / 2));
      else if (form === 'max') lex = 0.5 * Math.max(a, w) + 0.5 * g;
      else if (form === 'sq') { const l = 0.25 * a + 0.25 * w + 0.5 * g; lex = l; }
    }
    return q.w * Math.max(0, q.cos[i]) + (1 - q.w) * lex;
  });
}

variants['grams-missing'] = (q) => before(gramsOfMissing(q));
for (const form of ['sum', 'geo', 'max']) variants[`comb-${form}`] = (q) => combine(q, form);
for (const k1 of [0.4, 0.9, 1.2]) variants[`k1-${k1}`] = (q) => before(q, { k1 });
for (const gw of [0.3, 0.7]) variants[`gw-${gw}`] = (q) => before(q, { gramW: gw });

/** Each line's term at each word position (-1: none), the first term a word maps to. */
function termSeq(text: string, termAt: Map<string, number>): number[] {
  return identifiers(text).map((ident) => {
    const w = fold(ident);
    const whole = termAt.get(w);
    if (whole !== undefined) return whole;
    for (const p of identifierParts(ident)) { const t = termAt.get(stem(p)); if (t !== undefined) return t; }
    return -1;
  });
}

const seqCache = new WeakMap<Q, Record<number, { pairs: [number, number][]; ptf: Float64Array[]; pdf: Float64Array }>>();
/** The query's ordered pairs of neighbouring kept words, and each line's count of them (b after a within `gap` words). */
export function pairsOf(q: Q, gap: number) {
  const cached = seqCache.get(q) ?? {}; seqCache.set(q, cached);
  if (cached[gap]) return cached[gap];
  const termAt = new Map(q.plan.terms.map((t, i) => [t.key, i]));
  const qs = termSeq(q.query, termAt).filter((t) => t >= 0);
  const pairs: [number, number][] = [];
  for (let i = 1; i < qs.length; i++) if (qs[i] !== qs[i - 1] && !pairs.some(([a, b]) => a === qs[i - 1] && b === qs[i])) pairs.push([qs[i - 1], qs[i]]);
  const pdf = new Float64Array(pairs.length);
  const ptf = q.lines.map((line, i) => {
    const r = new Float64Array(pairs.length);
    if (!q.tf[i].some((f) => f > 0) || pairs.length === 0) return r;
    const seq = termSeq(line, termAt);
    pairs.forEach(([a, b], k) => { for (let p = 0; p < seq.length; p++) if (seq[p] === a) for (let d = 1; d <= gap && p + d < seq.length; d++) if (seq[p + d] === b) r[k]++; });
    r.forEach((f, k) => { if (f > 0) pdf[k]++; });
    return r;
  });
  return (cached[gap] = { pairs, ptf, pdf });
}

function sdm(q: Q, beta: number, gap: number): Float64Array {
  const base = before(q);
  const { pairs, ptf, pdf } = pairsOf(q, gap);
  if (pairs.length === 0) return base;
  const { docs, chars } = q.freq;
  const top = idfOf(0, docs); const avg = chars / Math.max(1, docs);
  const pidf = Array.from(pdf, (d) => idfOf(d, docs));
  const pnorm = pairs.length * top;
  return base.map((s, i) => {
    if (!q.tf[i].some((f) => f > 0)) return s;
    const k = 0.6 * (1 - 0.5 + (0.5 * q.lens[i]) / avg);
    let p = 0; ptf[i].forEach((f, j) => { if (f > 0) p += pidf[j] * (f * 1.6) / (f + k); });
    const lexPart = (s - q.w * Math.max(0, q.cos[i])) / (1 - q.w);
    return q.w * Math.max(0, q.cos[i]) + (1 - q.w) * ((1 - beta) * lexPart + beta * p / (p + pnorm));
  });
}
for (const beta of [0.1, 0.2, 0.3]) for (const gap of [1, 3]) variants[`sdm${beta}-g${gap}`] = (q) => sdm(q, beta, gap);
for (const x of [0, 2, 4]) variants[`wx${x}`] = (q) => before({ ...q, w: q.w * x });

/** Each line's cosine with the file's mean line vector removed: from both (`both`) or from the query only (`query`: its part along the mean). */
function centred(q: Q, mode: 'both' | 'query', a = 1): Float64Array {
  const { v, dim, mean } = q.vecs;
  const m2 = mean.reduce((s, x) => s + x * x, 0);
  let qm = 0; for (let d = 0; d < dim; d++) qm += q.qv[d] * mean[d];
  const qc = new Float64Array(dim);
  for (let d = 0; d < dim; d++) qc[d] = mode === 'both' ? q.qv[d] - a * mean[d] : q.qv[d] - a * (qm / m2) * mean[d];
  const qn = Math.sqrt(qc.reduce((s, x) => s + x * x, 0));
  const out = new Float64Array(q.lines.length);
  for (let i = 0; i < out.length; i++) {
    let dot = 0; let n = 0;
    for (let d = 0; d < dim; d++) { const x = mode === 'both' ? v[i * dim + d] - a * mean[d] : v[i * dim + d]; dot += x * qc[d]; n += x * x; }
    out[i] = n > 0 && qn > 0 ? dot / (Math.sqrt(n) * qn) : 0;
  }
  return out;
}
const cenCache = new WeakMap<Q, Record<string, Float64Array>>();
function cen(q: Q, mode: 'both' | 'query', a = 1): Float64Array {
  const c = cenCache.get(q) ?? {}; cenCache.set(q, c);
  return (c[`${mode}${a}`] ??= centred(q, mode, a));
}
for (const mode of ['both', 'query'] as const) {
  variants[`line-${mode}`] = (q) => cen(q, mode).map((x) => x + 1);
  for (const x of [1, 2, 4]) variants[`cen-${mode}-w${x}`] = (q) => before({ ...q, w: q.w * x, cos: cen(q, mode) });
}
variants['line-raw'] = (q) => q.cos.map((x) => x + 1);

/** Each query gram's weight: the sum (or max) over the query words holding it of 1 / the word's gram count. */
function gramWeights(q: Q, how: 'sum' | 'max' | 'sqrt'): Float64Array {
  const out = new Float64Array(q.plan.prose!.grams.length);
  const at = new Map(q.plan.prose!.grams.map((g, i) => [gramKey(g), i]));
  const seen = new Set<string>();
  for (const ident of identifiers(q.query)) {
    const w = fold(ident);
    if (isStopword(w) || seen.has(w)) continue;
    seen.add(w);
    const gs: number[] = [];
    forEachWordGram(w, (k) => { const g = at.get(k); if (g !== undefined) gs.push(g); });
    const share = how === 'sqrt' ? 1 / Math.sqrt(gs.length) : 1 / gs.length;
    for (const g of gs) out[g] = how === 'max' ? Math.max(out[g], share) : out[g] + share;
  }
  return out;
}
for (const how of ['sum', 'max', 'sqrt'] as const) variants[`gwt-${how}`] = (q) => before(q, { gw: gramWeights(q, how) });

/** Questions whose answer is a number or a date (how many, when, what year ...), in the dev languages. */
const ASKS_NUMBER = /\bhow (?:many|much|long|old|far|large|big|high)\b|\bwhen\b|\b(?:what|which) (?:year|percentage|percent|date|century|decade)\b|\bwie (?:viele?|lange|alt|groß|hoch)\b|\bwann\b|\bwieviele?\b|\bin welchem jahr\b|cu[aá]nt[oa]s?\b|cu[aá]ndo\b|\bqu[eé] año\b|كم|متى|कितन[ाेी]|कब|किस (?:वर्ष|साल)|多少|几|何时|什么时候|哪一?年/iu;
const HOLDS_NUMBER = /[\p{N}一二三四五六七八九十百千万亿两]/u;
function numberPrior(q: Q, beta: number): Float64Array {
  const base = before(q);
  if (!ASKS_NUMBER.test(q.query)) return base;
  return base.map((s, i) => (q.tf[i].some((f) => f > 0) && HOLDS_NUMBER.test(q.lines[i]) ? s * (1 + beta) : s));
}
for (const beta of [0.05, 0.1, 0.2, 0.3]) variants[`num${beta}`] = (q) => numberPrior(q, beta);

const icuDocs = new WeakMap<string[], { docs: string[][]; df: Map<string, number>; avg: number }>();
/** Plain BM25 over ICU words (bm25-icu.ts's), every line, with its norm (the query's words each in one line). */
function icuField(q: Q, k1 = 1.2, b = 0.75): { s: Float64Array; norm: number } {
  let c = icuDocs.get(q.lines);
  if (!c) {
    const docs = q.lines.map(icuWords); const df = new Map<string, number>();
    for (const d of docs) for (const w of new Set(d)) df.set(w, (df.get(w) ?? 0) + 1);
    c = { docs, df, avg: docs.reduce((s, d) => s + d.length, 0) / docs.length };
    icuDocs.set(q.lines, c);
  }
  const n = c.docs.length; const terms = [...new Set(icuWords(q.query))];
  const s = new Float64Array(n);
  c.docs.forEach((d, i) => {
    for (const t of terms) {
      let f = 0; for (const w of d) if (w === t) f++;
      if (!f) continue;
      const dfT = c!.df.get(t) ?? 0;
      s[i] += Math.log(1 + (n - dfT + 0.5) / (dfT + 0.5)) * (f * (k1 + 1)) / (f + k1 * (1 - b + (b * d.length) / c!.avg));
    }
  });
  return { s, norm: terms.length * Math.log(1 + (n + 0.5) / 0.5) };
}
for (const g of [0.2, 0.35, 0.5]) variants[`icu${g}`] = (q) => {
  const base = before(q); const { s, norm } = icuField(q);
  return base.map((x, i) => { const lex = (x - q.w * Math.max(0, q.cos[i])) / (1 - q.w); const l = (1 - g) * lex + g * s[i] / (s[i] + norm); return q.w * Math.max(0, q.cos[i]) + (1 - q.w) * l; });
};

variants['line-content'] = (q) => q.cos2.map((x) => x + 1);
for (const x of [1, 2, 4]) variants[`content-w${x}`] = (q) => before({ ...q, w: q.w * x, cos: q.cos2 });

/** The question with the grams that are a whole query word themselves (a word of <= 3 code points, or a one-character Han word) left out, or only the Han ones. */
function withoutWordGrams(q: Q, hanOnly: boolean): Q {
  const words = new Set(identifiers(q.query).map(fold));
  const keep = q.plan.prose!.grams.map((g) => !(words.has(g) && (!hanOnly || /\p{Script=Han}/u.test(g))));
  const gw = Float64Array.from(keep, (k) => (k ? 1 : 0));
  return { ...q, gtf: q.gtf.map((r) => r.map((f, g) => (keep[g] ? f : 0))), _gw: gw } as Q;
}
variants['nowordgram'] = (q) => { const x = withoutWordGrams(q, false) as Q & { _gw: Float64Array }; return before(x, { gw: x._gw }); };
variants['nowordgram-han'] = (q) => { const x = withoutWordGrams(q, true) as Q & { _gw: Float64Array }; return before(x, { gw: x._gw }); };

/** The question without its one-letter Latin terms and grams (the `s` of `paper's`, the `t` of `don't`). */
function withoutLetters(q: Q, rule = /^[a-z]$/): Q & { _gw: Float64Array; _tw: Float64Array } {
  const one = (k: string) => rule.test(k);
  const tkeep = q.plan.terms.map((t) => !one(t.key));
  const gkeep = q.plan.prose!.grams.map((g) => !one(g));
  return { ...q, tf: q.tf.map((r) => r.map((f, t) => (tkeep[t] ? f : 0))), gtf: q.gtf.map((r) => r.map((f, g) => (gkeep[g] ? f : 0))),
    _gw: Float64Array.from(gkeep, (k) => (k ? 1 : 0)), _tw: Float64Array.from(tkeep, (k) => (k ? 1 : 0)) };
}
for (const [name, rule] of [['noletter', /^[a-z]$/], ['noletter-any', /^(?!\p{Script=Han}|\p{Script=Hangul})\p{L}$/u]] as const) variants[name] = (q) => { const x = withoutLetters(q, rule); const f = fields(x, { gw: x._gw });
  const nT = x._tw.reduce((a, b) => a + b, 0); const top = Math.log(1 + (x.freq.docs + 0.5) / 0.5); const norm = nT * top;
  return f.own.map((own, i) => { let lex = 0; if (own > 0 && norm > 0) { const words = 0.5 * own / (own + norm) + 0.5 * f.win[i] / (f.win[i] + norm); lex = f.gnorm > 0 ? 0.5 * words + 0.5 * f.gram[i] / (f.gram[i] + f.gnorm) : words; } return x.w * Math.max(0, x.cos[i]) + (1 - x.w) * lex; }); };

/** Per line and term: the lines within ±r holding the term (the line's own included). */
function localDf(rows: Float64Array[], r: number): Float64Array[] {
  const n = rows.length; const nT = rows[0]?.length ?? 0;
  return rows.map((_, i) => {
    const out = new Float64Array(nT);
    for (let j = Math.max(0, i - r); j <= Math.min(n - 1, i + r); j++) for (let t = 0; t < nT; t++) if (rows[j][t] > 0) out[t]++;
    return out;
  });
}

/** The rule before rank31 with each term's part in a line's own and gram BM25 scaled down by how many lines around it hold it (a topic term). */
function local(q: Q, r: number, gamma: number, grams: boolean): Float64Array {
  const { docs, chars, df, gdf } = q.freq;
  const top = idfOf(0, docs); const avg = chars / Math.max(1, docs);
  const idf = Array.from(df, (d) => idfOf(d, docs)); const gidf = Array.from(gdf, (d) => idfOf(d, docs));
  const span = 2 * r + 1; const lmax = idfOf(1, span);
  const ldf = localDf(q.tf, r); const lgdf = grams ? localDf(q.gtf, r) : null;
  const wgt = (l: number) => (idfOf(l, span) / lmax) ** gamma;
  const n = q.tf.length; const nT = q.tf[0]?.length ?? 0; const nG = q.gtf[0]?.length ?? 0;
  const norm = nT * top; const gnorm = nG * top;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const k = 0.6 * (1 - 0.5 + (0.5 * q.lens[i]) / avg);
    let own = 0; for (let t = 0; t < nT; t++) { const f = q.tf[i][t]; if (f > 0) own += idf[t] * wgt(ldf[i][t]) * (f * 1.6) / (f + k); }
    let lex = 0;
    if (own > 0 && norm > 0) {
      const lo = Math.max(0, i - 1); const hi = Math.min(n - 1, i + 1);
      let wl = 0; for (let j = lo; j <= hi; j++) wl += q.lens[j];
      const kw = 0.6 * (1 - 0.5 + (0.5 * wl / 3) / avg);
      let win = 0; for (let t = 0; t < nT; t++) { let f = 0; for (let j = lo; j <= hi; j++) f += q.tf[j][t]; if (f > 0) win += idf[t] * (f * 1.6) / (f + kw); }
      let g = 0; for (let x = 0; x < nG; x++) { const f = q.gtf[i][x]; if (f > 0) g += gidf[x] * (lgdf ? wgt(lgdf[i][x]) : 1) * (f * 1.6) / (f + k); }
      const words = 0.5 * own / (own + norm) + 0.5 * win / (win + norm);
      lex = gnorm > 0 ? 0.5 * words + 0.5 * g / (g + gnorm) : words;
    }
    out[i] = q.w * Math.max(0, q.cos[i]) + (1 - q.w) * lex;
  }
  return out;
}
for (const r of [2, 4, 6, 10]) for (const gamma of [0.25, 0.5, 1]) { variants[`local-r${r}-g${gamma}`] = (q) => local(q, r, gamma, false); variants[`localG-r${r}-g${gamma}`] = (q) => local(q, r, gamma, true); }

/** The rule before rank31 with the window as the better of the line with its previous line and with its next line. */
function winPair(q: Q, how: 'max' | 'prev2'): Float64Array {
  const f = fields(q);
  const { docs, chars } = q.freq; const avg = chars / Math.max(1, docs);
  const n = q.tf.length; const nT = q.tf[0]?.length ?? 0;
  const bmw = (lo: number, hi: number) => {
    let wl = 0; for (let j = lo; j <= hi; j++) wl += q.lens[j];
    const k = 0.6 * (1 - 0.5 + (0.5 * wl / (hi - lo + 1)) / avg);
    let s = 0; for (let t = 0; t < nT; t++) { let c = 0; for (let j = lo; j <= hi; j++) c += q.tf[j][t]; if (c > 0) s += f.idf[t] * (c * 1.6) / (c + k); }
    return s;
  };
  return f.own.map((own, i) => {
    let lex = 0;
    if (own > 0 && f.norm > 0) {
      const win = how === 'max' ? Math.max(bmw(Math.max(0, i - 1), i), bmw(i, Math.min(n - 1, i + 1))) : bmw(Math.max(0, i - 2), i);
      const words = 0.5 * own / (own + f.norm) + 0.5 * win / (win + f.norm);
      lex = f.gnorm > 0 ? 0.5 * words + 0.5 * f.gram[i] / (f.gram[i] + f.gnorm) : words;
    }
    return q.w * Math.max(0, q.cos[i]) + (1 - q.w) * lex;
  });
}
variants['win-max'] = (q) => winPair(q, 'max');
variants['win-prev2'] = (q) => winPair(q, 'prev2');
// The shipped sum's weights at other values (the window's, the grams').
for (const x of [0.3, 0.7]) variants[`sum-ctx${x}`] = (q) => ship(q, { ctx: x });
for (const x of [0.3, 0.4, 0.6, 0.7]) variants[`sum-gw${x}`] = (q) => ship(q, { gramW: x });
