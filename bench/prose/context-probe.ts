// An offline probe of prose line scoring on the dev set (issue 31, section 3): each line's cosine and
// BM25 (simgrep's words, the file's df) computed once per question, then variants scored in seconds:
// line context (a window's BM25, neighbours' scores, neighbours' cosines), word forms (a second BM25
// over words cut to their first letters). A first round also tried the cosine normalised per file
// (z-score, rank) and one-sided neighbours (previous or next line only): all lost (docs/models.md), so
// they are left out. Exploratory: it picks constants on the first 40 ids (`tune`) and checks them on
// the next 40 and 40 (`held`, `held2`); it is not the bench. ~5-10 min on 2 busy cores.
// npx tsc -p tsconfig.json && node dist/bench/prose/context-probe.js [filter-regex]
import path from 'node:path';
import { createSearcher } from '../../src/library.js';

import { countTerms } from '../../src/rank/chunk-scorer.js';
import { textWords, fold } from '../../src/rank/lexical/words.js';
import { isStopword } from '../../src/rank/lexical/terms.js';
import { REPO_ROOT } from '../quality/dataset.js';
import { DEV_LANGUAGES, loadLanguage, shuffledCommonIds } from './dataset.js';
import { mrrAt10, probeQuestions, ProbeResults } from './probe-table.js';

const dir = path.join(REPO_ROOT, 'bench', '.tmp', 'prose');
const sets = DEV_LANGUAGES.map((l) => loadLanguage(l, dir));
const common = shuffledCommonIds(sets, 31);
const splits: Record<string, string[]> = { tune: common.slice(0, 40), held: common.slice(40, 80), held2: common.slice(80, 120) };
const filter = process.argv[2] ? new RegExp(process.argv[2]) : null;

const searcher = createSearcher({ concurrency: 0 });

/** What a variant sees of one question over one file. */
interface Q { cos: Float64Array; lex: Float64Array; pre: Map<number, Float64Array>; win: Float64Array; win2: Float64Array; w: number; n: number }
type Variant = (q: Q) => Float64Array;

/** BM25 mapped to 0..1 against the idf sum of terms each in one line only (rank/prose.ts). */
function bm25Lines(tf: Float64Array[], lens: number[], nTerms: number): Float64Array {
  const n = tf.length;
  const df = new Float64Array(nTerms);
  for (const row of tf) for (let t = 0; t < nTerms; t++) if (row[t] > 0) df[t]++;
  const idf = Array.from(df, (d) => Math.log(1 + (n - d + 0.5) / (d + 0.5)));
  const norm = nTerms * Math.log(1 + (n + 0.5) / 0.5);
  const avg = lens.reduce((s, x) => s + x, 0) / n;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    const k = 1.2 * (1 - 0.75 + (0.75 * lens[i]) / avg);
    for (let t = 0; t < nTerms; t++) { const f = tf[i][t]; if (f > 0) s += idf[t] * (f * 2.2) / (f + k); }
    out[i] = norm > 0 ? s / (s + norm) : 0;
  }
  return out;
}

const cut = (w: string, n: number) => { const cps = Array.from(w); return cps.length > n ? cps.slice(0, n).join('') : w; };

/** A second field: the file's words cut to their first `n` code points, query words likewise (stopwords dropped). */
function prefixLex(lineWords: string[][], query: string, n: number): Float64Array {
  const qs = [...new Set(textWords(query).map(fold).filter((w) => !isStopword(w)).map((w) => cut(w, n)))];
  const index = new Map(qs.map((w, i) => [w, i]));
  const tf = lineWords.map((ws) => { const r = new Float64Array(qs.length); for (const w of ws) { const t = index.get(cut(w, n)); if (t !== undefined) r[t]++; } return r; });
  return bm25Lines(tf, lineWords.map((ws) => ws.join(' ').length), qs.length);
}

const nbMax = (x: Float64Array, i: number) => Math.max(x[i - 1] ?? 0, x[i + 1] ?? 0);
const fuse = (q: Q, lex: Float64Array, cos: Float64Array) => lex.map((l, i) => q.w * Math.max(0, cos[i]) + (1 - q.w) * l);
const ctx = (x: Float64Array, a: number, how: 'max' | 'mean' | 'prev' | 'next') => x.map((v, i) => v + a * (
  how === 'max' ? nbMax(x, i) : how === 'mean' ? ((x[i - 1] ?? 0) + (x[i + 1] ?? 0)) / 2 : how === 'prev' ? (x[i - 1] ?? 0) : (x[i + 1] ?? 0)));
const variants: Record<string, Variant> = {
  base: (q) => fuse(q, q.lex, q.cos),
  lexOnly: (q) => q.lex,
};
const mix = (x: Float64Array, y: Float64Array, a: number) => x.map((v, i) => (1 - a) * v + a * y[i]);
for (const a of [0.3, 0.4, 0.5, 0.6, 0.7, 1]) {
  variants[`win${a}`] = (q) => fuse(q, mix(q.lex, q.win, a), q.cos);
  variants[`win2-${a}`] = (q) => fuse(q, mix(q.lex, q.win2, a), q.cos);
  variants[`winLexOnly${a}`] = (q) => mix(q.lex, q.win, a);
}
for (const a of [0.2, 0.3, 0.5]) variants[`lexCtx-max${a}`] = (q) => fuse(q, ctx(q.lex, a, 'max'), q.cos);
// The window only for lines that hold a term themselves (a line without one is not lifted by its neighbours).
for (const a of [0.3, 0.5]) variants[`winOwn${a}`] = (q) => fuse(q, q.lex.map((l, i) => (l > 0 ? (1 - a) * l + a * q.win[i] : 0)), q.cos);
for (const k of [0.5, 1.5, 2]) variants[`win0.5-w${k}`] = (q) => fuse({ ...q, w: q.w * k }, mix(q.lex, q.win, 0.5), q.cos);
for (const c of [0.3, 0.5]) variants[`win0.5+cosMax${c}`] = (q) => fuse(q, mix(q.lex, q.win, 0.5), ctx(q.cos, c, 'max'));
for (const c of [0.3, 0.5]) variants[`win0.5+cosMean${c}`] = (q) => fuse(q, mix(q.lex, q.win, 0.5), ctx(q.cos, c, 'mean'));
variants['win0.5+pre5x0.3'] = (q) => fuse(q, mix(mix(q.lex, q.win, 0.5), q.pre.get(5)!, 0.3), q.cos);
variants['win0.5+pre4x0.3'] = (q) => fuse(q, mix(mix(q.lex, q.win, 0.5), q.pre.get(4)!, 0.3), q.cos);
const active = Object.entries(variants).filter(([k]) => !filter || filter.test(k) || k === 'base');

async function main() {
  const results = new ProbeResults();
  const perSet = new Map<unknown, { lineWords: string[][]; lens: number[] }>();
  for await (const { set, split, count, question, plan, cos } of probeQuestions(sets, splits, searcher, results)) {
    const text = question.text;
    if (!perSet.has(set)) perSet.set(set, { lineWords: set.lines.map((l) => textWords(l).map(fold)), lens: set.lines.map((l) => l.length) });
    const { lineWords, lens } = perSet.get(set)!;
    const n = set.lines.length;
    const tf = set.lines.map((line) => { const t = new Float64Array(plan.terms.length); countTerms(line, plan, t); return t; });
    const lex = bm25Lines(tf, lens, plan.terms.length);
    const winTf = tf.map((row, i) => row.map((f, t) => f + (tf[i - 1]?.[t] ?? 0) + (tf[i + 1]?.[t] ?? 0)));
    const win = bm25Lines(winTf, lens.map((l, i) => l + (lens[i - 1] ?? 0) + (lens[i + 1] ?? 0)), plan.terms.length);
    const sum2 = (x: ArrayLike<number>[], i: number, t: number) => { let s = 0; for (let j = i - 2; j <= i + 2; j++) s += x[j]?.[t] ?? 0; return s; };
    const win2Tf = tf.map((row, i) => row.map((_, t) => sum2(tf, i, t)));
    const win2 = bm25Lines(win2Tf, lens.map((_, i) => { let s = 0; for (let j = i - 2; j <= i + 2; j++) s += lens[j] ?? 0; return s; }), plan.terms.length);
    const pre = new Map<number, Float64Array>();
    if (active.some(([k]) => k.includes('pre'))) for (const k of [4, 5]) pre.set(k, prefixLex(lineWords, text, k));
    const q: Q = { cos, lex, pre, win, win2, w: plan.prose!.semantic, n };
    for (const [name, f] of active) results.add(name, split, set.lang, mrrAt10(f(q), question.labels), count);
  }
  results.print(Object.keys(splits), 20);
  await searcher.close();
}

main().catch((e) => { process.stderr.write(`${(e as Error).stack}\n`); process.exit(1); });
