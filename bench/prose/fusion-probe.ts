// A quick probe of line-level fusions on the prose dev set (issue 31): per line the embedding's cosine
// and BM25 over simgrep's own words (df variants), fused several ways; MRR@10 on a tuning split and a
// held-back split of question ids. Exploratory: it decides the default's fusion, it is not the bench.
// npm run build && node dist/bench/prose/fusion-probe.js
import path from 'node:path';
import { createSearcher } from '../../src/library.js';
import { bundledLexicon, idf as lexIdf } from '../../src/rank/lexical/lexicon.js';
import type { RankPlan } from '../../src/rank/plan.js';
import { countTerms } from '../../src/rank/chunk-scorer.js';
import { REPO_ROOT } from '../quality/dataset.js';
import { DEV_LANGUAGES, loadLanguage, shuffledCommonIds, type LanguageSet } from './dataset.js';
import { probeQuestions, ProbeResults } from './probe-table.js';

const dir = path.join(REPO_ROOT, 'bench', '.tmp', 'prose');
const sets = DEV_LANGUAGES.map((l) => loadLanguage(l, dir));
const common = shuffledCommonIds(sets, 31);
const splits = { tune: common.slice(0, 40), held: common.slice(40, 80) };

const searcher = createSearcher({ concurrency: 0 });
const lexicon = bundledLexicon();
type Scorer = (cos: Float64Array, bm: Float64Array, idfSum: number) => Float64Array;
let share = 1;

/** MRR@10 among the lines a fusion scores above -Infinity (the cosine alone ranks every line). */
function mrr(scores: Float64Array, labels: number[]): number {
  const order = [...scores.keys()].filter((i) => scores[i] > -Infinity).sort((a, b) => scores[b] - scores[a] || a - b).slice(0, 10);
  const r = order.findIndex((i) => labels.includes(i));
  return r < 0 ? 0 : 1 / (r + 1);
}

function ranks(x: ArrayLike<number>, valid: (i: number) => boolean): Float64Array {
  const idx = Array.from({ length: x.length }, (_, i) => i).filter(valid).sort((a, b) => x[b] - x[a] || a - b);
  const r = new Float64Array(x.length).fill(Infinity);
  idx.forEach((i, k) => { r[i] = k + 1; });
  return r;
}

const fusions: Record<string, Scorer> = {
  bm25: (_c, bm) => bm.map((b) => (b > 0 ? b : -Infinity)),
  cos: (c) => Float64Array.from(c),
};
for (const w of [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]) {
  fusions[`lin${w}`] = (c, bm, s) => bm.map((b, i) => w * Math.max(0, c[i]) + (1 - w) * (s > 0 ? b / (b + s) : 0));
}
for (const w of [0.1, 0.2, 0.3, 0.4]) {
  fusions[`max${w}`] = (c, bm) => { const m = Math.max(...bm); return bm.map((b, i) => w * Math.max(0, c[i]) + (1 - w) * (m > 0 ? b / m : 0)); };
  fusions[`shmax${w}`] = (c, bm) => { const m = Math.max(...bm); const ws = w * share; return bm.map((b, i) => ws * Math.max(0, c[i]) + (1 - ws) * (m > 0 ? b / m : 0)); };
  fusions[`shlin${w}`] = (c, bm, s) => { const ws = w * share; return bm.map((b, i) => ws * Math.max(0, c[i]) + (1 - ws) * (s > 0 ? b / (b + s) : 0)); };
}
let fileN = 1;
for (const w of [0.1, 0.15, 0.2, 0.3]) {
  // Normalised by the idf a term would have in no line of the file: comparable across files.
  fusions[`shlinN${w}`] = (c, bm) => { const ws = w * share; const s = nTerms * Math.log(1 + (fileN + 0.5) / 0.5); return bm.map((b, i) => ws * Math.max(0, c[i]) + (1 - ws) * (s > 0 ? b / (b + s) : 0)); };
}
let nTerms = 0;
const nb = (x: Float64Array, a: number) => x.map((v, i) => v + a * ((x[i - 1] ?? 0) + (x[i + 1] ?? 0)) / 2);
for (const a of [0.1, 0.2, 0.4]) {
  fusions[`nb${a}`] = (c, bm) => nb(bm, a).map((b) => (b > 0 ? b : -Infinity));
  fusions[`nbshlin0.2x${a}`] = (c, bm, s) => { const ws = 0.2 * share; return nb(bm, a).map((b, i) => ws * Math.max(0, c[i]) + (1 - ws) * (s > 0 ? b / (b + s) : 0)); };
}
for (const k of [10, 60]) {
  for (const wc of [0.3, 0.5, 1]) {
    fusions[`rrf${k}x${wc}`] = (c, bm) => {
      const rc = ranks(c, () => true);
      const rb = ranks(bm, (i) => bm[i] > 0);
      return bm.map((_, i) => wc / (k + rc[i]) + 1 / (k + rb[i]));
    };
  }
}

interface Prepared { cos: Float64Array; tf: Float64Array[]; terms: string[]; lexIdf: number[]; lens: number[] }

function prepare(set: LanguageSet, plan: RankPlan, cos: Float64Array): Prepared {
  const tf = set.lines.map((line) => { const t = new Float64Array(plan.terms.length); countTerms(line, plan, t); return t; });
  return { cos, tf, terms: plan.terms.map((t) => t.key), lexIdf: plan.terms.map((t) => t.idf), lens: set.lines.map((l) => l.length) };
}

function bm25(p: Prepared, idfMode: string, k1: number, b: number): { bm: Float64Array; idfSum: number } {
  const n = p.tf.length;
  const maxIdf = lexIdf(lexicon, '\u0000none');
  const idfs = p.terms.map((_, t) => {
    let df = 0;
    for (const row of p.tf) if (row[t] > 0) df++;
    const fileIdf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    if (idfMode === 'lexicon') return p.lexIdf[t];
    if (idfMode === 'file') return fileIdf;
    return p.lexIdf[t] >= maxIdf - 1e-9 ? fileIdf : p.lexIdf[t]; // missing from the lexicon -> the file's
  });
  const avg = p.lens.reduce((s, x) => s + x, 0) / n;
  const bm = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let t = 0; t < idfs.length; t++) {
      const f = p.tf[i][t];
      if (f > 0) s += idfs[t] * (f * (k1 + 1)) / (f + k1 * (1 - b + (b * p.lens[i]) / avg));
    }
    bm[i] = s;
  }
  return { bm, idfSum: idfs.reduce((s, x) => s + x, 0) };
}

async function main() {
  const results = new ProbeResults();
  for await (const { set, split, count, share: known, plan, cos, question } of probeQuestions(sets, splits, searcher, results)) {
    const p = prepare(set, plan, cos);
    share = known;
    fileN = set.lines.length;
    nTerms = p.terms.length;
    results.add('share', split, set.lang, share, count);
    for (const idfMode of ['lexicon', 'missing', 'file', ...(process.env.PROBE_PARAMS ? ['file:k0.9', 'file:k1.5', 'file:b0.5', 'file:b0.9', 'file:k2.0b0.9'] : [])]) {
      const k1 = idfMode.includes(':k') ? Number(/k([\d.]+)/.exec(idfMode.split(':')[1])![1]) : 1.2;
      const b = idfMode.includes('b') && idfMode.includes(':') ? Number(/b([\d.]+)/.exec(idfMode.split(':')[1])![1]) : 0.75;
      const { bm, idfSum } = bm25(p, idfMode.split(':')[0], k1, b);
      for (const [name, f] of Object.entries(fusions)) {
        if (idfMode !== 'file' || !(name === 'bm25' || name === 'shlin0.2' || name.startsWith('shlinN'))) continue;
        results.add(`${idfMode}:${name}`, split, set.lang, mrr(f(p.cos, bm, idfSum), question.labels), count);
      }
    }
  }
  results.print(Object.keys(splits), 22);
  await searcher.close();
}

main().catch((e) => { process.stderr.write(`${(e as Error).stack}\n`); process.exit(1); });
