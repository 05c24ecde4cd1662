// An offline probe of the prose line score's margin over plain BM25 (issue 31, section 3): each line's
// cosine and term counts computed once per question, then variants of the words (numbers, Han
// bigrams, grams of 3-5 code points) and of the fusion scored in seconds. Exploratory: constants are
// picked on the first 40 ids (`tune`) and checked on the next 40 (`held`); it is not the bench. `base`
// is the ranking before the grams (1.2 / 0.75, no gram field) at the plan's cosine weight; the `G-`
// rows are the shipped rule at other cosine weights. ~1 min on 2 busy cores.
// npx tsc -p tsconfig.json && node dist/bench/prose/margin-probe.js [filter-regex]
import path from 'node:path';
import { createSearcher } from '../../src/library.js';
import { RANK_DEFAULTS } from '../../src/rank/plan.js';
import { countTerms } from '../../src/rank/chunk-scorer.js';
import { fold, textWords } from '../../src/rank/lexical/words.js';
import { isStopword } from '../../src/rank/lexical/terms.js';
import { REPO_ROOT } from '../quality/dataset.js';
import { DEV_LANGUAGES, loadLanguage, shuffledCommonIds } from './dataset.js';
import { mrrAt10, probeQuestions, ProbeResults } from './probe-table.js';

const dir = path.join(REPO_ROOT, 'bench', '.tmp', 'prose');
const sets = DEV_LANGUAGES.map((l) => loadLanguage(l, dir));
const common = shuffledCommonIds(sets, 31);
const splits: Record<string, string[]> = { tune: common.slice(0, 40), held: common.slice(40, 80) };
const filter = process.argv[2] ? new RegExp(process.argv[2]) : null;

/** The shipped cosine weight: variants scale the plan's (this times the query's known share). */
const W = RANK_DEFAULTS.proseSemantic;
const searcher = createSearcher({ concurrency: 0 });

/** Per question: each line's cosine, and term counts per tokenizer (tf[line][term]) with the terms' count. */
interface Q { cos: Float64Array; w: number; lens: number[]; tfs: Record<string, Float64Array[]>; labels: number[] }
type Variant = (q: Q) => Float64Array;

interface Bm25Opts { k1?: number; b?: number; norm?: 'sat' | 'max' }
/** BM25 per line (the file's df), mapped to 0..1 as rank/prose.ts does (s / (s + norm)), or raw. */
function bm25(tf: Float64Array[], lens: number[], o: Bm25Opts = {}): { raw: Float64Array; mapped: Float64Array; norm: number; idf: number[] } {
  const k1 = o.k1 ?? 1.2; const b = o.b ?? 0.75;
  const n = tf.length; const nT = tf[0]?.length ?? 0;
  const df = new Float64Array(nT);
  let docs = 0; let chars = 0;
  for (let i = 0; i < n; i++) { if (lens[i] === 0) continue; docs++; chars += lens[i]; for (let t = 0; t < nT; t++) if (tf[i][t] > 0) df[t]++; }
  const idf = Array.from(df, (d) => Math.log(1 + (docs - d + 0.5) / (d + 0.5)));
  const norm = nT * Math.log(1 + (docs + 0.5) / 0.5);
  const avg = chars / Math.max(1, docs);
  const raw = new Float64Array(n); const mapped = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    const k = k1 * (1 - b + (b * lens[i]) / avg);
    for (let t = 0; t < nT; t++) { const f = tf[i][t]; if (f > 0) s += idf[t] * (f * (k1 + 1)) / (f + k); }
    raw[i] = s; mapped[i] = norm > 0 ? s / (s + norm) : 0;
  }
  return { raw, mapped, norm, idf };
}

/** simgrep's lexical: own BM25 and the ±1 window's, each s/(s+norm), 0.5 each; 0 for a line without a term. */
function lexical(tf: Float64Array[], lens: number[], o: Bm25Opts & { ctx?: number } = {}): Float64Array {
  const own = bm25(tf, lens, o);
  const nT = tf[0]?.length ?? 0;
  const n = tf.length;
  const wtf = tf.map((row, i) => { const r = new Float64Array(nT); for (let j = i - 1; j <= i + 1; j++) if (tf[j]) for (let t = 0; t < nT; t++) r[t] += tf[j][t]; return r; });
  // The window's BM25 with its length against 3 mean lines: proseWindowBm25 divides the chars by 3.
  const wl = lens.map((_, i) => ((lens[i - 1] ?? 0) + lens[i] + (lens[i + 1] ?? 0)) / 3);
  const idf = own.idf; const norm = own.norm;
  let docs = 0; let chars = 0; for (const l of lens) if (l > 0) { docs++; chars += l; }
  const avg = chars / Math.max(1, docs);
  const k1 = o.k1 ?? 1.2; const b = o.b ?? 0.75; const c = o.ctx ?? 0.5;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if (!(own.raw[i] > 0) || !(norm > 0)) continue;
    let s = 0;
    const k = k1 * (1 - b + (b * wl[i]) / avg);
    for (let t = 0; t < nT; t++) { const f = wtf[i][t]; if (f > 0) s += idf[t] * (f * (k1 + 1)) / (f + k); }
    out[i] = (1 - c) * own.mapped[i] + c * (s / (s + norm));
  }
  return out;
}

const fuse = (w: number, lex: Float64Array, cos: Float64Array) => lex.map((l, i) => w * Math.max(0, cos[i]) + (1 - w) * l);

/** Term counts of the lines for extra query tokens: `extract` gives a text's tokens (query and line alike). */
function extraTf(lines: string[], query: string, extract: (s: string) => string[]): Float64Array[] {
  const qs = [...new Set(extract(query))];
  const index = new Map(qs.map((w, i) => [w, i]));
  return lines.map((l) => { const r = new Float64Array(qs.length); for (const w of extract(l)) { const t = index.get(w); if (t !== undefined) r[t]++; } return r; });
}
const join = (a: Float64Array[], b: Float64Array[]) => a.map((r, i) => { const o = new Float64Array(r.length + b[i].length); o.set(r); o.set(b[i], r.length); return o; });

const NUMBERS = /\p{N}+(?:[.,]\p{N}+)*/gu;
const numbers = (s: string) => (s.normalize('NFKC').match(NUMBERS) ?? []).map((x) => x.replace(/[.,]/g, ''));
const HAN_RUN = /\p{Script=Han}+/gu;
function hanBigrams(s: string): string[] {
  const out: string[] = [];
  for (const run of s.normalize('NFKC').match(HAN_RUN) ?? []) { const c = Array.from(run); for (let i = 0; i + 1 < c.length; i++) out.push(c[i] + c[i + 1]); }
  return out;
}
function hanChars(s: string): string[] {
  const out: string[] = [];
  for (const run of s.normalize('NFKC').match(HAN_RUN) ?? []) out.push(...Array.from(run));
  return out;
}

/** Character n-grams of each folded word (the word whole when shorter), Han runs as bigrams. */
function grams(s: string, n: number, han = 2, nums = false): string[] {
  const out: string[] = [];
  for (const w of textWords(s)) {
    const f = fold(w);
    if (isStopword(f)) continue;
    const c = Array.from(f);
    const k = /\p{Script=Han}/u.test(f) ? han : n;
    if (c.length <= k) { out.push(f); continue; }
    for (let i = 0; i + k <= c.length; i++) out.push(c.slice(i, i + k).join(''));
  }
  if (nums) out.push(...numbers(s));
  return out;
}

const variants: Record<string, Variant> = {
  base: (q) => fuse(q.w, lexical(q.tfs.plan, q.lens), q.cos),
  lexOnly: (q) => lexical(q.tfs.plan, q.lens),
  cosOnly: (q) => q.cos.map((c) => Math.max(0, c)),
  num: (q) => fuse(q.w, lexical(join(q.tfs.plan, q.tfs.num), q.lens), q.cos),
  bigram: (q) => fuse(q.w, lexical(join(q.tfs.plan, q.tfs.big), q.lens), q.cos),
  numBigram: (q) => fuse(q.w, lexical(join(join(q.tfs.plan, q.tfs.num), q.tfs.big), q.lens), q.cos),
};
for (const w of [0.1, 0.2, 0.25, 0.3]) variants[`w${w}`] = (q) => fuse(w * q.w / W, lexical(q.tfs.plan, q.lens), q.cos);
for (const k1 of [0.6, 0.9, 1.5, 2]) variants[`k1-${k1}`] = (q) => fuse(q.w, lexical(q.tfs.plan, q.lens, { k1 }), q.cos);
for (const b of [0.3, 0.5, 0.9, 1]) variants[`b-${b}`] = (q) => fuse(q.w, lexical(q.tfs.plan, q.lens, { b }), q.cos);
for (const k1 of [0.6, 0.9]) for (const b of [0.3, 0.5]) variants[`k${k1}b${b}`] = (q) => fuse(q.w, lexical(q.tfs.plan, q.lens, { k1, b }), q.cos);
const maxNorm = (x: Float64Array) => { let m = 0; for (const v of x) m = Math.max(m, v); return m > 0 ? x.map((v) => v / m) : x; };
for (const w of [0.15, 0.25, 0.35, 0.5]) variants[`maxnorm${w}`] = (q) => { const l = maxNorm(lexical(q.tfs.plan, q.lens)); const c = maxNorm(q.cos.map((v) => Math.max(0, v))); return l.map((v, i) => w * (q.w / W) * c[i] + (1 - w * (q.w / W)) * v); };
for (const a of [0.5, 1, 2, 4]) variants[`mult${a}`] = (q) => { const l = lexical(q.tfs.plan, q.lens); return l.map((v, i) => (l[i] > 0 ? v * (1 + a * (q.w / W) * Math.max(0, q.cos[i])) : 0.001 * Math.max(0, q.cos[i]))); };
for (const p of [2, 3]) variants[`cosPow${p}`] = (q) => fuse(q.w, lexical(q.tfs.plan, q.lens), q.cos.map((c) => Math.max(0, c) ** p * 1));
for (const n of [3, 4, 5]) for (const a of [0.3, 0.5]) variants[`ngram${n}x${a}`] = (q) => { const l = lexical(q.tfs.plan, q.lens); const g = bm25(q.tfs[`g${n}`], q.lens).mapped; return fuse(q.w, l.map((v, i) => (v > 0 ? (1 - a) * v + a * g[i] : 0)), q.cos); };
for (const n of [3, 4]) variants[`ngramAll${n}x0.5`] = (q) => { const l = lexical(q.tfs.plan, q.lens); const g = bm25(q.tfs[`g${n}`], q.lens).mapped; return fuse(q.w, l.map((v, i) => 0.5 * v + 0.5 * g[i]), q.cos); };
// Grams as substrings of the folded line: the query's non-stopword words of >= n code points, each cut into
// its n-grams; a line's count of a gram is how often it occurs in the folded line.
function subGramTf(lines: string[], query: string, n: number): Float64Array[] {
  const qs = new Set<string>();
  for (const w of textWords(query)) { const f = fold(w); if (isStopword(f)) continue; const c = Array.from(f); for (let i = 0; i + n <= c.length; i++) qs.add(c.slice(i, i + n).join('')); }
  const list = [...qs];
  return lines.map((l) => { const f = fold(l); return Float64Array.from(list, (g) => { let k = 0; for (let p = f.indexOf(g); p >= 0; p = f.indexOf(g, p + 1)) k++; return k; }); });
}
for (const n of [3, 4]) for (const a of [0.3, 0.5, 0.7]) {
  variants[`sub${n}x${a}`] = (q) => { const l = lexical(q.tfs.plan, q.lens); const g = bm25(q.tfs[`s${n}`], q.lens).mapped; return fuse(q.w, l.map((v, i) => (v > 0 ? (1 - a) * v + a * g[i] : 0)), q.cos); };
  variants[`subWin${n}x${a}`] = (q) => { const l = lexical(q.tfs.plan, q.lens); const g = lexical(q.tfs[`s${n}`], q.lens); return fuse(q.w, l.map((v, i) => (v > 0 ? (1 - a) * v + a * g[i] : 0)), q.cos); };
}
variants['sub3x0.5k0.6b0.5'] = (q) => { const l = lexical(q.tfs.plan, q.lens, { k1: 0.6, b: 0.5 }); const g = bm25(q.tfs.s3, q.lens, { k1: 0.6, b: 0.5 }).mapped; return fuse(q.w, l.map((v, i) => (v > 0 ? 0.5 * v + 0.5 * g[i] : 0)), q.cos); };
variants['sub3x0.5w0.25'] = (q) => { const l = lexical(q.tfs.plan, q.lens); const g = bm25(q.tfs.s3, q.lens).mapped; return fuse(q.w * 0.25 / W, l.map((v, i) => (v > 0 ? 0.5 * v + 0.5 * g[i] : 0)), q.cos); };
const gramMix = (q: Q, key: string, a: number, o: Bm25Opts = {}, win = false) => { const l = lexical(q.tfs.plan, q.lens, o); const g = win ? lexical(q.tfs[key], q.lens, o) : bm25(q.tfs[key], q.lens, o).mapped; return fuse(q.w, l.map((v, i) => (v > 0 ? (1 - a) * v + a * g[i] : 0)), q.cos); };
for (const a of [0.4, 0.5, 0.6]) {
  variants[`wg3x${a}`] = (q) => gramMix(q, 'wg3', a);
  variants[`wg3numx${a}`] = (q) => gramMix(q, 'wg3n', a);
  variants[`wg3numWinx${a}`] = (q) => gramMix(q, 'wg3n', a, {}, true);
  variants[`wg3numk.6b.5x${a}`] = (q) => gramMix(q, 'wg3n', a, { k1: 0.6, b: 0.5 });
  variants[`ng3k.6b.5x${a}`] = (q) => gramMix(q, 'g3', a, { k1: 0.6, b: 0.5 });
}
for (const [k1, b] of [[0.6, 0.3], [0.9, 0.5], [0.6, 0.75], [1.2, 0.5], [0.4, 0.5]]) variants[`wg3numk${k1}b${b}x0.5`] = (q) => gramMix(q, 'wg3n', 0.5, { k1, b });
variants['wg3k.6b.5x0.5'] = (q) => gramMix(q, 'wg3', 0.5, { k1: 0.6, b: 0.5 });
variants['k.6b.5-w0.2'] = (q) => gramMix({ ...q, w: q.w * 0.2 / W }, 'wg3n', 0.5, { k1: 0.6, b: 0.5 });
variants['k.6b.5-w0.1'] = (q) => gramMix({ ...q, w: q.w * 0.1 / W }, 'wg3n', 0.5, { k1: 0.6, b: 0.5 });
for (const w of [0, 0.03, 0.05, 0.075, 0.1, 0.15]) variants[`G-w${w}`] = (q) => gramMix({ ...q, w: q.w * w / W }, 'wg3', 0.5, { k1: 0.6, b: 0.5 });
// The gram BM25 mapped against the words' norm (one scale for both fields), or the gram field's score summed as words.
const gramMixN = (q: Q, a: number, scale: number) => { const o = { k1: 0.6, b: 0.5 }; const l = lexical(q.tfs.plan, q.lens, o); const gb = bm25(q.tfs.wg3, q.lens, o); const g = gb.raw.map((x) => x / (x + scale * gb.norm)); return fuse(q.w, l.map((v, i) => (v > 0 ? (1 - a) * v + a * g[i] : 0)), q.cos); };
for (const sc of [0.25, 0.5]) variants[`Gnorm${sc}`] = (q) => gramMixN(q, 0.5, sc);
const active = Object.entries(variants).filter(([k]) => !filter || filter.test(k) || k === 'base');

async function main() {
  const results = new ProbeResults();
  const lensOf = new Map<unknown, number[]>();
  for await (const { set, split, count, question, plan, cos } of probeQuestions(sets, splits, searcher, results)) {
    const text = question.text;
    const lens = lensOf.get(set) ?? lensOf.set(set, set.lines.map((l) => (l.trim() === '' ? 0 : l.length))).get(set)!;
    const tfs: Record<string, Float64Array[]> = {
      plan: set.lines.map((line) => { const t = new Float64Array(plan.terms.length); countTerms(line, plan, t); return t; }),
      num: extraTf(set.lines, text, numbers),
      big: extraTf(set.lines, text, hanBigrams),
      chr: extraTf(set.lines, text, hanChars),
      s3: subGramTf(set.lines, text, 3),
      s4: subGramTf(set.lines, text, 4),
      wg3: extraTf(set.lines, text, (x) => grams(x, 3, 3)),
      wg3n: extraTf(set.lines, text, (x) => grams(x, 3, 3, true)),
      g3: extraTf(set.lines, text, (x) => grams(x, 3)),
      g4: extraTf(set.lines, text, (x) => grams(x, 4)),
      g5: extraTf(set.lines, text, (x) => grams(x, 5)),
    };
    const q: Q = { cos, w: plan.prose!.semantic, lens, tfs, labels: question.labels };
    for (const [name, f] of active) results.add(name, split, set.lang, mrrAt10(f(q), question.labels), count);
  }
  results.print(Object.keys(splits), 14);
  await searcher.close();
}

main().catch((e) => { process.stderr.write(`${(e as Error).stack}\n`); process.exit(1); });
