// Variants of the shipped prose line rule (loss-fields.ts `ship`) for choosing among a paragraph's lines
// (issue 31, sent31): a line's own evidence against its neighbours' (a peak in its window), its
// query-term coverage against its window's, a short-line penalty, the cosine's contrast with its
// neighbours', Han character bigrams across ICU's words as a fourth field, rank fusion, ordered pairs,
// the query's numbers as terms and a one-sided window. Registered into loss-variants.ts's table;
// loss-probe.ts measures them (figures in docs/models.md).
import { fields, ship, type Opts, type Q } from './loss-fields.js';
import { pairsOf, variants } from './loss-variants.js';

/** The shipped rule's raw field sum per line (0 where the line holds no term), with the fields. */
function sums(q: Q, o: Opts = {}) {
  const f = fields(q, o);
  const ctx = o.ctx ?? 0.5; const gw = o.gramW ?? 0.5;
  const own = new Float64Array(f.own.length); const sum = new Float64Array(f.own.length);
  f.own.forEach((x, i) => {
    if (!(x > 0) || !(f.norm > 0)) return;
    const g = f.gnorm > 0 ? f.gram[i] / f.gnorm : 0;
    own[i] = f.gnorm > 0 ? (1 - gw) * x / f.norm + gw * g : x / f.norm;
    const words = (1 - ctx) * (x / f.norm) + ctx * (f.win[i] / f.norm);
    sum[i] = f.gnorm > 0 ? (1 - gw) * words + gw * g : words;
  });
  return { f, own, sum };
}

/** Each line's score from its lexical part (0..1) and its cosine, as the shipped rule weighs them. */
const mix = (q: Q, lex: Float64Array) => lex.map((l, i) => q.w * Math.max(0, q.cos[i]) + (1 - q.w) * l);
const sat = (x: number) => x / (x + 1);

/** The lexical sum times (the line's own words-and-grams evidence / the best of its window's lines')^x. */
function peak(q: Q, x: number, r = 1): Float64Array {
  const { own, sum } = sums(q);
  return mix(q, sum.map((s, i) => {
    if (!(s > 0)) return 0;
    let best = own[i];
    for (let j = Math.max(0, i - r); j <= Math.min(own.length - 1, i + r); j++) best = Math.max(best, own[j]);
    return sat(s * (own[i] / best) ** x);
  }));
}
for (const x of [0.25, 0.5, 1]) for (const r of [1, 2]) variants[`peak-x${x}-r${r}`] = (q) => peak(q, x, r);

/** The lexical sum times (the idf of the query terms the line holds / those its window holds)^x. */
function cover(q: Q, x: number): Float64Array {
  const { f, sum } = sums(q);
  const nT = q.plan.terms.length;
  const held = (i: number, t: number) => i >= 0 && i < q.tf.length && q.tf[i][t] > 0;
  return mix(q, sum.map((s, i) => {
    if (!(s > 0)) return 0;
    let a = 0; let w = 0;
    for (let t = 0; t < nT; t++) {
      if (held(i, t)) a += f.idf[t];
      if (held(i - 1, t) || held(i, t) || held(i + 1, t)) w += f.idf[t];
    }
    return sat(s * (w > 0 ? a / w : 1) ** x);
  }));
}
for (const x of [0.25, 0.5, 1]) variants[`cover-x${x}`] = (q) => cover(q, x);

/** The lexical sum times min(1, words / n)^x: short, title-like lines weigh less. */
function short(q: Q, n: number, x: number): Float64Array {
  const { sum } = sums(q);
  return mix(q, sum.map((s, i) => {
    if (!(s > 0)) return 0;
    const words = q.lines[i].split(/\s+/).filter(Boolean).length;
    return sat(s * Math.min(1, words / n) ** x);
  }));
}
for (const n of [6, 10]) for (const x of [0.5, 1]) variants[`short-n${n}-x${x}`] = (q) => short(q, n, x);

/** The shipped score plus y × (the line's cosine − the best of its neighbours'), lines with a term only. */
function cdiff(q: Q, y: number): Float64Array {
  const { sum } = sums(q);
  return mix(q, sum.map(sat)).map((s, i) => {
    if (!(sum[i] > 0)) return s;
    const nb = Math.max(i > 0 ? q.cos[i - 1] : -1, i + 1 < q.cos.length ? q.cos[i + 1] : -1);
    return s + y * (q.cos[i] - nb);
  });
}
for (const y of [0.01, 0.02, 0.05]) variants[`cdiff-${y}`] = (q) => cdiff(q, y);

/** Han character bigrams of a text's runs of Han characters (across ICU's words), repeats kept. */
function hanBigrams(text: string): string[] {
  const out: string[] = [];
  for (const run of text.match(/\p{Script=Han}+/gu) ?? []) for (let i = 0; i + 1 < run.length; i++) out.push(run.slice(i, i + 2));
  return out;
}
const bigramRows = new WeakMap<string[], { rows: Map<string, number>[]; df: Map<string, number> }>();
/** Each line's Han bigram counts and their document frequencies, once per file. */
function bigramsOf(lines: string[]) {
  let c = bigramRows.get(lines);
  if (!c) {
    const df = new Map<string, number>();
    const rows = lines.map((l) => { const m = new Map<string, number>(); for (const b of hanBigrams(l)) m.set(b, (m.get(b) ?? 0) + 1); for (const b of m.keys()) df.set(b, (df.get(b) ?? 0) + 1); return m; });
    bigramRows.set(lines, (c = { rows, df }));
  }
  return c;
}

/**
 * The shipped sum plus z × a second BM25 field over `n` query keys (over their norm), lines with a term
 * only; `score(i, k, idf)` is line i's BM25 over those keys with the saturation `k`.
 */
function plusField(q: Q, z: number, n: number, score: (i: number, k: number, idf: (d: number) => number) => number): Float64Array {
  const { sum } = sums(q);
  if (n === 0) return mix(q, sum.map(sat));
  const { docs, chars } = q.freq; const avg = chars / Math.max(1, docs);
  const idf = (d: number) => Math.log(1 + (docs - d + 0.5) / (d + 0.5));
  const norm = n * idf(0);
  return mix(q, sum.map((s, i) => (s > 0 ? sat(s + z * score(i, 0.6 * (1 - 0.5 + (0.5 * q.lens[i]) / avg), idf) / norm) : 0)));
}

/** The shipped sum plus z × the line's BM25 over the query's Han bigrams (over their norm), lines with a term only. */
function hanField(q: Q, z: number): Float64Array {
  const qb = [...new Set(hanBigrams(q.query))];
  const { rows, df } = qb.length > 0 ? bigramsOf(q.lines) : { rows: [], df: new Map<string, number>() };
  return plusField(q, z, qb.length, (i, k, idf) => {
    let b = 0;
    for (const g of qb) { const f = rows[i].get(g) ?? 0; if (f > 0) b += idf(df.get(g) ?? 0) * (f * 1.6) / (f + k); }
    return b;
  });
}
for (const z of [0.25, 0.5, 1]) variants[`han-${z}`] = (q) => hanField(q, z);

/** Reciprocal rank fusion of the lexical rank (lines with a term) and the cosine's rank, the cosine weighted by y. */
function rrf(q: Q, k: number, y: number): Float64Array {
  const { sum } = sums(q);
  const idx = [...sum.keys()].filter((i) => sum[i] > 0);
  const lex = idx.slice().sort((a, b) => sum[b] - sum[a] || a - b);
  const cos = idx.slice().sort((a, b) => q.cos[b] - q.cos[a] || a - b);
  const out = new Float64Array(sum.length);
  lex.forEach((i, r) => { out[i] += 1 / (k + r + 1); });
  cos.forEach((i, r) => { out[i] += y / (k + r + 1); });
  return out;
}
for (const k of [10, 60]) for (const y of [0.1, 0.3]) variants[`rrf-k${k}-y${y}`] = (q) => rrf(q, k, y);

const NUMBER = /\p{Nd}+(?:[.,]\p{Nd}+)*/gu;
/** A text's numbers (runs of decimal digits, with inner `.` or `,`), NFKC-folded (full-width digits are digits). */
const numbersOf = (text: string, strip = false): string[] => (text.normalize('NFKC').match(NUMBER) ?? []).map((n) => (strip ? n.replace(/[.,]/g, '') : n));

/**
 * The question with its numbers as terms beside the plan's (the words' field and its window; the grams
 * do not change): numbers of at least `min` digits, or only years (4 digits, 1000-2099) with `years`.
 */
function withNumbers(q: Q, min: number, years: boolean, strip = false): Q {
  const keep = (n: string) => (years ? /^(1\d|20)\d\d$/.test(n) : n.replace(/\D/g, '').length >= min);
  const nums = [...new Set(numbersOf(q.query, strip).filter(keep))];
  if (nums.length === 0) return q;
  const at = new Map(nums.map((n, k) => [n, k]));
  const df = new Float64Array(q.freq.df.length + nums.length); df.set(q.freq.df);
  const tf = q.tf.map((row, i) => {
    const out = new Float64Array(row.length + nums.length); out.set(row);
    if (q.lens[i] === 0) return out;
    for (const n of numbersOf(q.lines[i], strip)) { const k = at.get(n); if (k !== undefined) out[row.length + k]++; }
    for (let k = 0; k < nums.length; k++) if (out[row.length + k] > 0) df[row.length + k]++;
    return out;
  });
  return { ...q, tf, freq: { ...q.freq, df } };
}
for (const [name, min, years] of [['num-all', 1, false], ['num-2', 2, false], ['num-years', 4, true]] as const) {
  variants[name] = (q) => ship(withNumbers(q, min, years));
}
variants['num-strip'] = (q) => ship(withNumbers(q, 1, false, true));

/** The shipped sum plus z × the line's BM25 over the query's ordered pairs of neighbouring terms (b within `gap` words after a), over their norm. */
function pairSum(q: Q, z: number, gap: number): Float64Array {
  const { pairs, ptf, pdf } = pairsOf(q, gap);
  return plusField(q, z, pairs.length, (i, k, idf) => {
    let p = 0; ptf[i].forEach((f, j) => { if (f > 0) p += idf(pdf[j]) * (f * 1.6) / (f + k); });
    return p;
  });
}
for (const z of [0.1, 0.25, 0.5]) for (const gap of [1, 2]) variants[`pair-z${z}-g${gap}`] = (q) => pairSum(q, z, gap);
variants['num-ctx0.7'] = (q) => ship(withNumbers(q, 1, false), { ctx: 0.7 });

/** The shipped sum with the window's neighbours weighted apart: the line before by `a`, the line after by `b` (counts and length). */
function sidedWindow(q: Q, a: number, b: number): Float64Array {
  const f = fields(q);
  const { docs, chars } = q.freq; const avg = chars / Math.max(1, docs);
  const n = q.tf.length; const nT = q.tf[0]?.length ?? 0;
  return mix(q, f.own.map((own, i) => {
    if (!(own > 0) || !(f.norm > 0)) return 0;
    const wts: [number, number][] = [[i, 1]];
    if (i > 0) wts.push([i - 1, a]);
    if (i + 1 < n) wts.push([i + 1, b]);
    const len = wts.reduce((s, [j, w]) => s + w * q.lens[j], 0) / wts.reduce((s, [, w]) => s + w, 0);
    const k = 0.6 * (1 - 0.5 + (0.5 * len) / avg);
    let win = 0;
    for (let t = 0; t < nT; t++) { let c = 0; for (const [j, w] of wts) c += w * q.tf[j][t]; if (c > 0) win += f.idf[t] * (c * 1.6) / (c + k); }
    const words = 0.5 * own / f.norm + 0.5 * win / f.norm;
    return sat(f.gnorm > 0 ? 0.5 * words + 0.5 * f.gram[i] / f.gnorm : words);
  }));
}
for (const [a, b] of [[1, 0.5], [1, 0], [0.5, 0.25], [1, 0.75]]) variants[`side-${a}-${b}`] = (q) => sidedWindow(q, a, b);
