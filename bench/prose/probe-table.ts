// What the prose probes (context-probe.ts, margin-probe.ts, fusion-probe.ts, question-probe.ts, expand-probe.ts) share: MRR@10 of a line ranking, and the
// table of each variant's mean per split with its smallest margin over the ICU BM25 baseline.
import { countTerms } from '../../src/rank/chunk-scorer.js';
import { forEachGram, gramKey } from '../../src/rank/lexical/grams.js';
import { bundledLexicon } from '../../src/rank/lexical/lexicon.js';
import { buildRankPlan, type RankPlan } from '../../src/rank/plan.js';
import { knownShareOf } from '../../src/rank/query-mode.js';
import type { Searcher } from '../../src/searcher/api.js';
import { createBm25 } from './bm25-icu.js';
import { DEV_LANGUAGES, type LanguageSet, type Question } from './dataset.js';

/** MRR@10 of the labelled lines among those scored > 0, best first (ties by line). */
export function mrrAt10(scores: Float64Array, labels: number[]): number {
  const order = [...scores.keys()].filter((i) => scores[i] > 0).sort((a, b) => scores[b] - scores[a] || a - b).slice(0, 10);
  const r = order.findIndex((i) => labels.includes(i));
  return r < 0 ? 0 : 1 / (r + 1);
}

/** results[variant][split][lang] = mean MRR@10; the baseline variant is 'icu-bm25'. */
export class ProbeResults {
  readonly cells: Record<string, Record<string, Record<string, number>>> = {};

  /** Adds one question's score `x` of `n` to a variant's mean. */
  add(variant: string, split: string, lang: string, x: number, n: number): void {
    const cell = ((this.cells[variant] ??= {})[split] ??= {});
    cell[lang] = (cell[lang] ?? 0) + x / n;
  }

  /** One line per variant, best on the first split first: mean, smallest margin over BM25, per language. */
  print(splits: string[], keyWidth: number): void {
    const icu = this.cells['icu-bm25'];
    // The languages measured (a probe may run a few).
    const langs = DEV_LANGUAGES.filter((l) => icu[splits[0]]?.[l] !== undefined);
    const mean = (cells: Record<string, number>) => langs.reduce((s, l) => s + (cells[l] ?? 0), 0) / langs.length;
    const rows = Object.entries(this.cells).map(([key, bySplit]) => {
      const cols = splits.map((split) => {
        const cells = bySplit[split];
        const minMargin = Math.min(...langs.map((l) => cells[l] - icu[split][l]));
        return `${split} ${mean(cells).toFixed(3)} (min ${minMargin >= 0 ? '+' : ''}${minMargin.toFixed(3)}) ${langs.map((l) => `${l} ${cells[l].toFixed(3)}`).join(' ')}`;
      });
      return { first: mean(bySplit[splits[0]]), line: `${key.padEnd(keyWidth)} ${cols.join(' | ')}` };
    });
    rows.sort((a, b) => b.first - a.first);
    for (const r of rows) process.stdout.write(`${r.line}\n`);
  }
}

export interface ProbeQuestion {
  set: LanguageSet;
  split: string;
  /** Questions in the split (a question's share of its mean). */
  count: number;
  question: Question;
  /** The share of the question's words the model knows (knownShareOf). */
  share: number;
  /** The hybrid plan the searcher would make (with that share). */
  plan: RankPlan;
  /** Each line's cosine to the question. */
  cos: Float64Array;
}

/**
 * Every question of every split over each language's file, in order, with its plan and each line's
 * cosine; the ICU BM25 baseline's score is added to `results` as 'icu-bm25' on the way.
 */
export async function* probeQuestions(sets: LanguageSet[], splits: Record<string, string[]>, searcher: Searcher, results: ProbeResults): AsyncGenerator<ProbeQuestion> {
  const lexicon = bundledLexicon();
  for (const set of sets) {
    const vecs = await searcher.embed(set.lines);
    const dim = vecs.length / set.lines.length;
    const icu = createBm25(set.lines);
    for (const [split, ids] of Object.entries(splits)) {
      for (const id of ids) {
        const question = set.questions.get(id)!;
        const text = question.text;
        const r = icu(text, 10).findIndex((i) => question.labels.includes(i));
        results.add('icu-bm25', split, set.lang, r < 0 ? 0 : 1 / (r + 1), ids.length);
        const share = await knownShareOf(text, (t) => searcher.embed(t));
        const plan = buildRankPlan(text, 'hybrid', lexicon, share);
        const qv = await searcher.embed([text]);
        const cos = new Float64Array(set.lines.length);
        for (let i = 0; i < cos.length; i++) { let s = 0; for (let d = 0; d < dim; d++) s += vecs[i * dim + d] * qv[d]; cos[i] = s; }
        yield { set, split, count: ids.length, question, share, plan, cos };
      }
    }
    process.stderr.write(`${set.lang} done\n`);
  }
}

/**
 * A file's statistics as the shipped prose rule takes them: its non-blank lines, their characters, and
 * each term's and gram's document frequency (lines holding it), from the probes' per-line counts.
 */
export function fileFrequencies(q: { lens: number[]; tf: Float64Array[]; gtf: Float64Array[] }): { docs: number; chars: number; df: Float64Array; gdf: Float64Array } {
  const nT = q.tf[0]?.length ?? 0;
  const nG = q.gtf[0]?.length ?? 0;
  let docs = 0; let chars = 0;
  const df = new Float64Array(nT); const gdf = new Float64Array(nG);
  for (let i = 0; i < q.tf.length; i++) {
    if (q.lens[i] === 0) continue;
    docs++; chars += q.lens[i];
    for (let t = 0; t < nT; t++) if (q.tf[i][t] > 0) df[t]++;
    for (let g = 0; g < nG; g++) if (q.gtf[i][g] > 0) gdf[g]++;
  }
  return { docs, chars, df, gdf };
}

/** Each line's count of each of the plan's terms (tf) and grams (gtf), as the shipped prose rule counts them. */
export function lineCounts(lines: string[], plan: RankPlan): { tf: Float64Array[]; gtf: Float64Array[] } {
  const nT = plan.terms.length;
  const tf = lines.map((line) => { const t = new Float64Array(nT); countTerms(line, plan, t); return t; });
  const grams = plan.prose!.grams;
  const gi = new Map(grams.map((g, i) => [gramKey(g), i]));
  const gtf = lines.map((line) => { const r = new Float64Array(grams.length); forEachGram(line, (k) => { const i = gi.get(k); if (i !== undefined) r[i]++; }); return r; });
  return { tf, gtf };
}
