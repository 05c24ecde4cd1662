// Variants of the prose line rule for grid-probe.ts (issue 31, margin31), registered into its table.
import { forEachWordGram, gramKey } from '../../src/rank/lexical/grams.js';
import { isStopword } from '../../src/rank/lexical/terms.js';
import { fold, textWords } from '../../src/rank/lexical/words.js';
import { fileFrequencies } from './probe-table.js';
import type { Q } from './loss-fields.js';
import { GRID_VARIANTS as V, rule, type GridOpts } from './grid-rule.js';

const foldedWords = (s: string) => textWords(fold(s));

/**
 * The query's stopwords (terms.ts: left out of a code query's terms) as terms of the words' field (and
 * with `grams`, of the grams' field as whole-word grams): a prose line's BM25 takes its df from the file.
 */
function withStopwords(q: Q, grams: boolean): Q {
  const stops = [...new Set(foldedWords(q.query).filter(isStopword))];
  if (stops.length === 0) return q;
  const at = new Map(stops.map((w, k) => [w, k]));
  const nT = q.tf[0].length;
  const tf = q.tf.map((row, i) => {
    const out = new Float64Array(nT + stops.length); out.set(row);
    if (q.lens[i] === 0) return out;
    for (const w of foldedWords(q.lines[i])) { const k = at.get(w); if (k !== undefined) out[nT + k]++; }
    return out;
  });
  let gtf = q.gtf;
  if (grams) {
    // Each stopword's grams (forEachWordGram's cut) that the plan's grams lack, appended.
    const have = new Map(q.plan.prose!.grams.map((g, i) => [gramKey(g), i]));
    const extra = new Map<number | string, number>();
    for (const w of stops) forEachWordGram(w, (k) => { if (!have.has(k) && !extra.has(k)) extra.set(k, extra.size); });
    const nG = q.gtf[0].length;
    gtf = q.gtf.map((row, i) => {
      const out = new Float64Array(nG + extra.size); out.set(row);
      if (q.lens[i] === 0) return out;
      for (const w of foldedWords(q.lines[i])) {
        if (!isStopword(w)) continue;
        forEachWordGram(w, (k) => { const e = extra.get(k); if (e !== undefined) out[nG + e]++; else { const h = have.get(k); if (h !== undefined) out[h]++; } });
      }
      return out;
    });
  }
  return { ...q, tf, gtf, freq: fileFrequencies({ lens: q.lens, tf, gtf }) };
}
V['stop'] = (q) => rule(withStopwords(q, false));
V['stop-grams'] = (q) => rule(withStopwords(q, true));
for (const o of [{ ctx: 0.4 }, { gramW: 0.4 }, { wx: 2 }] as GridOpts[]) V[`stop-${JSON.stringify(o).replace(/[{}"]/g, '')}`] = (q) => rule(withStopwords(q, false), o);


const HAN = /\p{Script=Han}/u;
/** One folded word's grams under `han` for its runs of Han (others: runs of 3 code points, as grams.ts cuts them). */
function cutWord(w: string, han: (run: string[]) => string[]): string[] {
  const out: string[] = [];
  let run: string[] = []; let other: string[] = [];
  const flushOther = () => { if (other.length === 0) return; if (other.length <= 3) out.push(other.join('')); else for (let i = 0; i + 3 <= other.length; i++) out.push(other.slice(i, i + 3).join('')); other = []; };
  const flushHan = () => { if (run.length) out.push(...han(run)); run = []; };
  for (const c of w) { if (HAN.test(c)) { flushOther(); run.push(c); } else { flushHan(); other.push(c); } }
  flushHan(); flushOther();
  return out;
}
/** The question with its grams' field cut by `han` for Han runs (the query's and every line's). */
function withHanGrams(q: Q, han: (run: string[]) => string[]): Q {
  const gramsOf = (s: string) => foldedWords(s).filter((w) => !isStopword(w)).flatMap((w) => cutWord(w, han));
  const list = [...new Set(gramsOf(q.query))];
  const at = new Map(list.map((g, k) => [g, k]));
  const gtf = q.lines.map((line, i) => { const r = new Float64Array(list.length); if (q.lens[i] > 0) for (const g of gramsOf(line)) { const k = at.get(g); if (k !== undefined) r[k]++; } return r; });
  return { ...q, gtf, freq: fileFrequencies({ lens: q.lens, tf: q.tf, gtf }) };
}
const chars = (r: string[]) => r;
const bigrams = (r: string[]) => (r.length < 2 ? [r.join('')] : r.slice(1).map((c, i) => r[i] + c));
V['han-chars'] = (q) => rule(withHanGrams(q, chars));
V['han-bigrams'] = (q) => rule(withHanGrams(q, bigrams));
V['han-both'] = (q) => rule(withHanGrams(q, (r) => (r.length < 2 ? r : [...r, ...bigrams(r)])));
V['han-word'] = (q) => rule(withHanGrams(q, (r) => [r.join('')]));
V['han-bigrams-b0.75'] = (q) => rule(withHanGrams(q, bigrams), { b: 0.75 });
