// Variants of the shipped prose line rule for a query in Han (issue 31, zh33), measured by han-probe.ts:
// the grams of Han words (the characters, with the word whole, its bigrams, or bigrams across ICU's
// words), the fields' weights, BM25's k1 / b, the cosine's weight, and the characters of a name ICU cut
// into one-character words weighed as about one word. None lifted Chinese on both ranges (ids 0-399 /
// 400-1189; figures in docs/models.md, Prose and other languages); `g-base` recomputes `ship` (a check).
import { isStopword } from '../../src/rank/lexical/terms.js';
import { fold, textWords } from '../../src/rank/lexical/words.js';
import { ship, type Opts, type Q } from './loss-fields.js';

export type HanQ = Q;

const HAN = /\p{Script=Han}/u;
const HAN_ONLY = /^\p{Script=Han}+$/u;

const wordCache = new WeakMap<string[], string[][]>();
/** Each line's folded words, stopwords left out (forEachGram's words), once per file. */
function lineWords(lines: string[]): string[][] {
  let w = wordCache.get(lines);
  if (!w) wordCache.set(lines, (w = lines.map((l) => textWords(fold(l)).filter((x) => !isStopword(x)))));
  return w;
}
const queryWordsOf = (query: string) => textWords(fold(query)).filter((x) => !isStopword(x));

/** The shipped grams of one word: a Han word's characters, others' runs of 3 code points (a shorter word whole). */
function baseGrams(w: string, out: string[]): void {
  if (HAN.test(w)) {
    let run = '';
    const flush = () => { const c = [...run]; if (c.length <= 3) { if (run) out.push(run); } else for (let i = 0; i + 3 <= c.length; i++) out.push(c.slice(i, i + 3).join('')); run = ''; };
    for (const c of w) { if (HAN.test(c)) { flush(); out.push(c); } else run += c; }
    flush();
    return;
  }
  const c = [...w];
  if (c.length <= 3) out.push(w); else for (let i = 0; i + 3 <= c.length; i++) out.push(c.slice(i, i + 3).join(''));
}

type GramRule = (words: string[]) => string[];
const RULES: Record<string, GramRule> = {
  // The shipped rule (a check: equals `ship`).
  base: (ws) => { const o: string[] = []; for (const w of ws) baseGrams(w, o); return o; },
  // A Han word of 2+ characters also whole.
  word: (ws) => { const o: string[] = []; for (const w of ws) { baseGrams(w, o); if (HAN_ONLY.test(w) && w.length > 1) o.push(`w:${w}`); } return o; },
  // A Han word's bigrams too.
  bi: (ws) => { const o: string[] = []; for (const w of ws) { baseGrams(w, o); if (HAN_ONLY.test(w)) for (let i = 0; i + 2 <= w.length; i++) o.push(`b:${w.slice(i, i + 2)}`); } return o; },
  // Bigrams over runs of neighbouring Han words (across ICU's cuts).
  xbi: (ws) => {
    const o: string[] = []; let run = '';
    const flush = () => { for (let i = 0; i + 2 <= run.length; i++) o.push(`b:${run.slice(i, i + 2)}`); run = ''; };
    for (const w of ws) { baseGrams(w, o); if (HAN_ONLY.test(w)) run += w; else flush(); }
    flush();
    return o;
  },
};

const gtfCache = new WeakMap<Q, Record<string, Q>>();
/** The question with its gram field rebuilt by `rule` (the query's grams, each line's counts, their df). */
function withGrams(q: Q, name: string): Q {
  const c = gtfCache.get(q) ?? {}; gtfCache.set(q, c);
  if (c[name]) return c[name];
  const rule = RULES[name];
  const qg = [...new Set(rule(queryWordsOf(q.query)))];
  const at = new Map(qg.map((g, i) => [g, i]));
  const gdf = new Float64Array(qg.length);
  const gtf = lineWords(q.lines).map((ws, i) => {
    const r = new Float64Array(qg.length);
    if (q.lens[i] === 0) return r;
    for (const g of rule(ws)) { const k = at.get(g); if (k !== undefined) r[k]++; }
    r.forEach((f, k) => { if (f > 0) gdf[k]++; });
    return r;
  });
  return (c[name] = { ...q, gtf, freq: { ...q.freq, gdf } });
}

const hanQuery = (q: Q) => HAN.test(q.query);
/** The shipped rule with options `o` for a query in Han, unchanged otherwise. */
const forHan = (o: Opts) => (q: Q) => ship(q, hanQuery(q) ? o : {});

export const hanVariants: Record<string, (q: HanQ) => Float64Array> = {
  ship: (q) => ship(q),
};
for (const g of Object.keys(RULES)) hanVariants[`g-${g}`] = (q) => ship(hanQuery(q) ? withGrams(q, g) : q);
for (const gw of [0.3, 0.4, 0.6, 0.7]) hanVariants[`gw-${gw}`] = forHan({ gramW: gw });
for (const gw of [0.4, 0.6]) for (const g of ['word', 'bi', 'xbi']) hanVariants[`g-${g}-gw${gw}`] = (q) => ship(hanQuery(q) ? withGrams(q, g) : q, hanQuery(q) ? { gramW: gw } : {});
for (const ctx of [0.3, 0.7]) hanVariants[`ctx-${ctx}`] = forHan({ ctx });
for (const [k1, b] of [[1.2, 0.75], [0.9, 0.5], [0.6, 0.75], [0.6, 0.3], [0.4, 0.5]]) hanVariants[`k1-${k1}-b${b}`] = forHan({ k1, b });
for (const x of [0, 2]) hanVariants[`cos-x${x}`] = (q) => ship(hanQuery(q) ? { ...q, w: q.w * x } : q);

const HAN_CHAR = /^\p{Script=Han}$/u;
/**
 * Per plan term and per gram: 1, or len^-p for a character of a run of `min`+ neighbouring one-character
 * Han words of the query (ICU's fallback for a word its dictionary lacks: a transliterated name, 杰|克|逊|维|尔),
 * so a name weighs about as one word, as it does in a script with spaces. `grams`: the gram field too.
 */
function runWeights(q: Q, min: number, p: number, grams: boolean): { tw: Float64Array; gw?: Float64Array } {
  const ws = queryWordsOf(q.query);
  const weight = new Map<string, number>();
  const put = (w: string, x: number) => weight.set(w, Math.max(weight.get(w) ?? 0, x));
  for (let i = 0; i < ws.length;) {
    let j = i;
    while (j < ws.length && HAN_CHAR.test(ws[j])) j++;
    const len = j - i;
    if (len >= min) { for (let k = i; k < j; k++) put(ws[k], len ** -p); i = j; } else { put(ws[i], 1); i = Math.max(i + 1, j); }
  }
  for (const w of ws) if (!HAN_CHAR.test(w)) for (const c of w) put(c, 1);
  const nT = q.tf[0]?.length ?? 0;
  const tw = new Float64Array(nT).fill(1);
  q.plan.terms.forEach((t, i) => { const x = weight.get(t.key); if (x !== undefined) tw[i] = x; });
  if (!grams) return { tw };
  const gw = Float64Array.from(q.plan.prose!.grams, (g) => weight.get(g) ?? 1);
  return { tw, gw };
}
for (const min of [2, 3]) for (const p of [0.5, 1]) for (const g of [false, true]) {
  hanVariants[`run${min}-p${p}${g ? '-g' : ''}`] = (q) => ship(q, hanQuery(q) ? runWeights(q, min, p, g) : {});
}
