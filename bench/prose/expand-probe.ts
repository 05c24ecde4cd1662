// An offline probe of query expansion and fusion for prose lines (issue 31): the shipped rule (words,
// window, grams; question-probe.ts's `ship`, equal to the bench's default column) with extra terms added
// to the words' BM25 (the line's own and its window's; `norm` from the query's own terms; `L`: a line
// holding only extra terms scores too), or the cosine fused otherwise:
// - `nn`: each query word's k nearest words of the searched file by the bundled model (each word's
//   model2vec vector, so only words the file holds), similarity >= tau, weight alpha x similarity;
// - `prf`: the terms of the file's top m lines for the query (RM3-style pseudo-relevance feedback),
//   the best e, weighted by share x line score x idf, scaled to beta;
// - `stem`: each query word's suffix stem (English, Spanish and German endings; suffixStem) as a term
//   at weight gamma; `sgram`: the same stems as grams; `wlen` / `mixlen`: lengths in words;
// - `rr`: the cosine re-ranks the lexical top N only; `minmax` / `z`: the cosine normalised over the
//   lines that hold a term; `wx`: the cosine's weight scaled; `g`: the grams' weight.
// Exploratory: chosen on the first 40 ids (`tune`); PROBE_HELD=1 adds the next 40 (`held`, the check
// set); PROBE_RANGE=80,280 scores ids 80-279 alone (`big`: 200 questions a language, to tell a real
// gain from one question's). PROBE_VS=1 lists the tune questions ship and the ICU BM25 rank
// differently, PROBE_FAIL=en,es those ship does not rank first. Figures: docs/models.md (Ranking).
// ~1.5 min on 2 busy cores (PROBE_RANGE=80,280: ~6 min).
// npx tsc -p tsconfig.json && node dist/bench/prose/expand-probe.js [filter-regex]
import path from 'node:path';
import { createSearcher } from '../../src/library.js';
import { identifierParts, isStopword, stem } from '../../src/rank/lexical/terms.js';
import { fold, textWords } from '../../src/rank/lexical/words.js';
import { REPO_ROOT } from '../quality/dataset.js';
import { DEV_LANGUAGES, loadLanguage, shuffledCommonIds, type LanguageSet } from './dataset.js';
import { createBm25 } from './bm25-icu.js';
import { fileFrequencies, lineCounts, mrrAt10, probeQuestions, ProbeResults } from './probe-table.js';

const dir = path.join(REPO_ROOT, 'bench', '.tmp', 'prose');
const sets = DEV_LANGUAGES.map((l) => loadLanguage(l, dir));
const common = shuffledCommonIds(sets, 31);
const range = process.env.PROBE_RANGE?.split(',').map(Number);
const splits: Record<string, string[]> = range ? { big: common.slice(range[0], range[1]) } : process.env.PROBE_HELD ? { tune: common.slice(0, 40), held: common.slice(40, 80) } : { tune: common.slice(0, 40) };
const filter = process.argv[2] ? new RegExp(process.argv[2]) : null;
const searcher = createSearcher({ concurrency: 0 });
const bm25s = new Map<LanguageSet, (q: string, k: number) => number[]>();
const createBm25Cached = (set: LanguageSet) => bm25s.get(set) ?? bm25s.set(set, createBm25(set.lines)).get(set)!;

const K1 = 0.6;
const B = 0.5;
const idfOf = (df: number, n: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));

/** Per language: each line's stem keys and counts, the lines of each key, and the file's distinct words with their vectors. */
interface Lang { alt: Map<string, Map<number, number>>; keys: Map<string, Map<number, number>>; words: string[]; wordKey: string[]; vecs: Float32Array; dim: number; lineKeys: Map<string, number>[] }

async function langOf(set: LanguageSet): Promise<Lang> {
  const keys = new Map<string, Map<number, number>>();
  const lineKeys: Map<string, number>[] = [];
  const seen = new Map<string, string>();
  const alt = new Map<string, Map<number, number>>();
  set.lines.forEach((line, i) => {
    for (const word of textWords(line)) {
      const a = suffixStem(fold(word));
      if (a === null) continue;
      let l = alt.get(a); if (!l) alt.set(a, l = new Map()); l.set(i, (l.get(i) ?? 0) + 1);
    }
    const m = new Map<string, number>();
    for (const word of textWords(line)) {
      const parts = identifierParts(word);
      for (const part of parts) {
        const k = stem(part);
        m.set(k, (m.get(k) ?? 0) + 1);
        if (parts.length === 1 && !isStopword(part) && Array.from(part).length >= 2 && !seen.has(part)) seen.set(part, k);
      }
    }
    for (const [k, n] of m) { let l = keys.get(k); if (!l) keys.set(k, l = new Map()); l.set(i, n); }
    lineKeys.push(m);
  });
  const words = [...seen.keys()];
  const vecs = await searcher.embed(words);
  return { alt, keys, words, wordKey: words.map((w) => seen.get(w)!), vecs, dim: vecs.length / words.length, lineKeys };
}

/** An extra term: its key's lines (counts) and its weight (times its idf). */
interface Extra { key: string; weight: number; lines?: Map<number, number> }

interface Q { wlens: number[]; cos: Float64Array; w: number; lens: number[]; tf: Float64Array[]; gtf: Float64Array[]; lang: Lang; planKeys: Set<string>; qwords: string[]; qvecs: Float32Array; nbrs: [number, string][][] }

interface Opts { extras?: Extra[]; loose?: boolean; rr?: { n: number; w: number }; grams?: number }

/** The shipped score with extra terms in the words' BM25 (own and window) at their weights; norm from the plan's terms. */
function score(q: Q, o: Opts = {}): Float64Array {
  const n = q.tf.length;
  const nT = q.tf[0]?.length ?? 0;
  const nG = q.gtf[0]?.length ?? 0;
  const { docs, chars, df, gdf } = fileFrequencies(q);
  const top = idfOf(0, docs);
  const idf = Array.from(df, (d) => idfOf(d, docs));
  const gidf = Array.from(gdf, (d) => idfOf(d, docs));
  const norm = nT * top; const gnorm = nG * top;
  const avg = chars / Math.max(1, docs);
  const extras = (o.extras ?? []).map((e) => { const lines = e.lines ?? q.lang.keys.get(e.key)!; return { lines, w: e.weight * idfOf(lines.size, docs) }; });
  const part = (f: number, len: number) => { const k = K1 * (1 - B + (B * len) / avg); return (f * (K1 + 1)) / (f + k); };
  const ownOf = (i: number) => { let s = 0; for (let t = 0; t < nT; t++) if (q.tf[i][t] > 0) s += idf[t] * part(q.tf[i][t], q.lens[i]); return s; };
  const exOf = (i: number, len: number, lo: number, hi: number) => {
    let s = 0;
    for (const e of extras) { let f = 0; for (let j = lo; j <= hi; j++) f += e.lines.get(j) ?? 0; if (f > 0) s += e.w * part(f, len); }
    return s;
  };
  const gw = o.grams ?? 0.5;
  const lex = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let own = ownOf(i);
    const ownEx = extras.length ? exOf(i, q.lens[i], i, i) : 0;
    if (!(own > 0 || (o.loose && ownEx > 0)) || norm === 0) continue;
    own += ownEx;
    const lo = Math.max(0, i - 1); const hi = Math.min(n - 1, i + 1);
    let wl = 0; for (let j = lo; j <= hi; j++) wl += q.lens[j];
    let win = 0;
    for (let t = 0; t < nT; t++) { let f = 0; for (let j = lo; j <= hi; j++) f += q.tf[j][t]; if (f > 0) win += idf[t] * part(f, wl / 3); }
    if (extras.length) win += exOf(i, wl / 3, lo, hi);
    const words = 0.5 * (own / (own + norm)) + 0.5 * (win / (win + norm));
    let l = words;
    if (gnorm > 0) {
      let g = 0; for (let k = 0; k < nG; k++) if (q.gtf[i][k] > 0) g += gidf[k] * part(q.gtf[i][k], q.lens[i]);
      l = (1 - gw) * words + gw * (g / (g + gnorm));
    }
    lex[i] = l;
  }
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = q.w * Math.max(0, q.cos[i]) + (1 - q.w) * lex[i];
  if (o.rr) {
    const order = [...lex.keys()].filter((i) => lex[i] > 0).sort((a, b) => lex[b] - lex[a] || a - b).slice(0, o.rr.n);
    for (const i of order) out[i] = 10 + (1 - o.rr.w) * lex[i] + o.rr.w * Math.max(0, q.cos[i]);
  }
  return out;
}

/** Each query word's 5 nearest file words at similarity >= 0.5 whose keys are not the plan's: [similarity, key]. */
function neighbours(q: Omit<Q, 'nbrs'>): [number, string][][] {
  const { lang } = q;
  return q.qwords.map((_, a) => {
    const sims: [number, number][] = [];
    for (let j = 0; j < lang.words.length; j++) {
      let s = 0;
      for (let d = 0; d < lang.dim; d++) s += q.qvecs[a * lang.dim + d] * lang.vecs[j * lang.dim + d];
      if (s >= 0.5 && !q.planKeys.has(lang.wordKey[j])) sims.push([s, j]);
    }
    sims.sort((x, y) => y[0] - x[0]);
    const out: [number, string][] = [];
    for (const [s, j] of sims) { if (out.length >= 5) break; if (!out.some((o) => o[1] === lang.wordKey[j])) out.push([s, lang.wordKey[j]]); }
    return out;
  });
}

/** Each query word's `k` nearest file words at similarity >= tau (keys not already the plan's), weight alpha x sim (or alpha). */
function nearest(q: Q, k: number, tau: number, alpha: number, flat = false): Extra[] {
  const best = new Map<string, number>();
  for (const list of q.nbrs) {
    for (const [s, key] of list.filter((x) => x[0] >= tau).slice(0, k)) {
      const wgt = alpha * (flat ? 1 : s);
      if ((best.get(key) ?? 0) < wgt) best.set(key, wgt);
    }
  }
  return [...best].map(([key, weight]) => ({ key, weight }));
}

/** RM3-style: the terms of the top `m` lines by `base`, each weighted by its share of those lines' words x the line's score, top `e` of them, scaled to beta. */
function feedback(q: Q, base: Float64Array, m: number, e: number, beta: number): Extra[] {
  const order = [...base.keys()].filter((i) => base[i] > 0).sort((a, b) => base[b] - base[a] || a - b).slice(0, m);
  const docs = q.lens.filter((l) => l > 0).length;
  const w = new Map<string, number>();
  for (const i of order) {
    const keys = q.lang.lineKeys[i];
    let total = 0; for (const c of keys.values()) total += c;
    for (const [key, c] of keys) {
      if (q.planKeys.has(key) || isStopword(key) || Array.from(key).length < 2) continue;
      w.set(key, (w.get(key) ?? 0) + (c / total) * base[i] * idfOf(q.lang.keys.get(key)!.size, docs));
    }
  }
  const top = [...w].sort((a, b) => b[1] - a[1]).slice(0, e);
  const max = top[0]?.[1] ?? 1;
  return top.map(([key, x]) => ({ key, weight: beta * x / max }));
}

/** A language-agnostic suffix stripper for Latin words (English, Spanish, German endings; accents folded): the longest listed suffix whose removal leaves >= 4 letters; null for other scripts. */
const SUFFIXES = ('ational ization fulness iveness ations ation ments ment ness ities ity ively ive ously ous ings ing edly ed ies es s ly ers er als al able ible '
  + 'amientos imientos amiento imiento aciones uciones acion ucion adoras adores adora ador ancias ancia idades idad mente ables ibles istas ista ismos ismo osos osas oso osa ivas ivos iva ivo ando iendo aron ieron aban ian aba ia ado ada ados adas ido ida idos idas ar ir os as o a e '
  + 'ungen ung heiten heit keiten keit lichen liche lich ische isch ern em en n').split(' ').sort((a, b) => b.length - a.length);
function suffixStem(w: string): string | null {
  const f = w.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  if (!/^[a-z]+$/.test(f)) return null;
  for (const suf of SUFFIXES) if (f.endsWith(suf) && f.length - suf.length >= 4) return f.slice(0, -suf.length);
  return f;
}
function stemExtras(q: Q, gamma: number): Extra[] {
  const out = new Map<string, Extra>();
  for (const w of q.qwords) {
    const a = suffixStem(w);
    const lines = a === null ? undefined : q.lang.alt.get(a);
    if (lines && !out.has(a!)) out.set(a!, { key: a!, weight: gamma, lines });
  }
  return [...out.values()];
}
/** The cosine normalised over the lines that hold a term (min-max or z-score), fused at weight x. */
function normFused(q: Q, kind: 'minmax' | 'z', x: number): Float64Array {
  const lex = score({ ...q, w: 0 });
  const c = [...lex.keys()].filter((i) => lex[i] > 0).map((i) => q.cos[i]);
  if (c.length === 0) return lex;
  const lo = Math.min(...c); const hi = Math.max(...c);
  const mean = c.reduce((s, v) => s + v, 0) / c.length;
  const sd = Math.sqrt(c.reduce((s, v) => s + (v - mean) ** 2, 0) / c.length) || 1;
  return lex.map((l, i) => (l > 0 ? (1 - x) * l + x * (kind === 'minmax' ? (q.cos[i] - lo) / (hi - lo || 1) : 1 / (1 + Math.exp(-(q.cos[i] - mean) / sd))) : 0));
}

const variants: Record<string, (q: Q) => Float64Array> = { ship: (q) => score(q) };
/** The suffix stems of the query's words as grams: each line's count of words with that stem added to its gram counts. */
function stemGrams(q: Q): Q {
  const keys = [...new Set(q.qwords.map(suffixStem).filter((a): a is string => a !== null))];
  if (keys.length === 0) return q;
  const cols = keys.map((a) => q.lang.alt.get(a));
  return { ...q, gtf: q.gtf.map((r, i) => { const o = new Float64Array(r.length + keys.length); o.set(r); cols.forEach((c, k) => { o[r.length + k] = c?.get(i) ?? 0; }); return o; }) };
}
variants.sgram = (q) => score(stemGrams(q));
// The cosine's weight (0.05 x the query's known share) scaled: 0 is --mode lexical's rule.
for (const x of [0, 2]) variants[`wx${x}`] = (q) => score({ ...q, w: q.w * x });
for (const g of [0.3, 0.4, 0.6]) variants[`g${g}`] = (q) => score(q, { grams: g });
for (const g of [0.25, 0.5, 1]) { variants[`stem${g}`] = (q) => score(q, { extras: stemExtras(q, g) }); variants[`stemL${g}`] = (q) => score(q, { extras: stemExtras(q, g), loose: true }); }
for (const x of [0.02, 0.05, 0.1, 0.2]) for (const kind of ['minmax', 'z'] as const) variants[`${kind}${x}`] = (q) => normFused(q, kind, x);
variants.wlen = (q) => score({ ...q, lens: q.wlens });
variants.mixlen = (q) => score({ ...q, lens: q.lens.map((l, i) => Math.sqrt(l * q.wlens[i] * 5)) });
for (const k of [1, 3, 5]) for (const tau of [0.5, 0.6, 0.7, 0.8]) for (const a of [0.1, 0.25, 0.5]) {
  variants[`nn${k}-t${tau}-a${a}`] = (q) => score(q, { extras: nearest(q, k, tau, a) });
  variants[`nnL${k}-t${tau}-a${a}`] = (q) => score(q, { extras: nearest(q, k, tau, a), loose: true });
}
for (const m of [1, 3, 5]) for (const e of [5, 10]) for (const b of [0.1, 0.25, 0.5]) variants[`prf${m}-e${e}-b${b}`] = (q) => score(q, { extras: feedback(q, score(q), m, e, b) });
for (const n of [5, 10, 20]) for (const w of [0.1, 0.2, 0.3, 0.5]) variants[`rr${n}-w${w}`] = (q) => score(q, { rr: { n, w } });
const active = Object.entries(variants).filter(([k]) => !filter || filter.test(k) || k === 'ship');

async function main() {
  const results = new ProbeResults();
  const langs = new Map<LanguageSet, Lang>();
  const lensOf = new Map<unknown, number[]>();
  const wlensOf = new Map<unknown, number[]>();
  for await (const { set, split, count, question, plan, cos } of probeQuestions(sets, splits, searcher, results)) {
    const lang = langs.get(set) ?? langs.set(set, await langOf(set)).get(set)!;
    const lens = lensOf.get(set) ?? lensOf.set(set, set.lines.map((l) => (l.trim() === '' ? 0 : l.length))).get(set)!;
    const { tf, gtf } = lineCounts(set.lines, plan);
    const qwords = [...new Set(textWords(question.text).map(fold))].filter((w) => !isStopword(w) && Array.from(w).length >= 2);
    const qvecs = qwords.length ? await searcher.embed(qwords) : new Float32Array(0);
    const q0 = { wlens: wlensOf.get(set) ?? wlensOf.set(set, set.lines.map((l) => (l.trim() === '' ? 0 : textWords(l).length + 1))).get(set)!, cos, w: plan.prose!.semantic, lens, tf, gtf, lang, planKeys: new Set(plan.terms.map((t) => t.key)), qwords, qvecs };
    const q: Q = { ...q0, nbrs: active.some(([k]) => k.startsWith('nn')) ? neighbours(q0) : [] };
    for (const [name, f] of active) results.add(name, split, set.lang, mrrAt10(f(q), question.labels), count);
    if (process.env.PROBE_VS && split === 'tune') {
      const sc = score(q);
      const mine = mrrAt10(sc, question.labels);
      const icu = createBm25Cached(set)(question.text, 10);
      const ri = icu.findIndex((i) => question.labels.includes(i));
      const theirs = ri < 0 ? 0 : 1 / (ri + 1);
      if (theirs !== mine) {
        const order = [...sc.keys()].filter((i) => sc[i] > 0).sort((a, b) => sc[b] - sc[a] || a - b);
        process.stdout.write(`VS ${set.lang} ship ${mine.toFixed(2)} icu ${theirs.toFixed(2)} ${question.text}\n   ans: ${set.lines[question.labels[0]]}\n   ship1: ${set.lines[order[0]]}\n   icu1: ${set.lines[icu[0]]}\n`);
      }
    }
    if (process.env.PROBE_FAIL && process.env.PROBE_FAIL.split(',').includes(set.lang) && split === 'tune') {
      const sc = score(q);
      const order = [...sc.keys()].filter((i) => sc[i] > 0).sort((a, b) => sc[b] - sc[a] || a - b);
      const r = order.findIndex((i) => question.labels.includes(i)) + 1;
      if (r !== 1) process.stdout.write(`FAIL ${set.lang} rank ${r} ${question.text}\n   ans(${sc[question.labels[0]].toFixed(3)}): ${set.lines[question.labels[0]]}\n   top(${sc[order[0]].toFixed(3)}): ${set.lines[order[0]]}\n`);
    }
  }
  results.print(Object.keys(splits), 20);
  await searcher.close();
}

main().catch((e) => { process.stderr.write(`${(e as Error).stack}\n`); process.exit(1); });
