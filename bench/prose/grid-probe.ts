// An offline probe of the prose line rule's constants over many questions (issue 31, margin31): the
// shipped rule with the query's numbers (rank/prose.ts; loss-fields.ts `ship` plus the numbers as
// prose.ts counts them) recomputed per question, then each constant moved (k1, b, the window's and the
// grams' weights, the cosine's) and the variants of GRID_VARIANTS. Choose on ids 80+, check on 0-79.
// PROBE_RANGE=a,b[;c,d] (default 80,480), PROBE_LANGS, PROBE_RANKS=file writes the shipped rule's rank
// per question (to check it against rank-dump.ts, the library's own).
// npx tsc -p tsconfig.json && SIMGREP_GIT_MIRRORS=/work/.mirror node dist/bench/prose/grid-probe.js [filter-regex]
import { appendFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createSearcher } from '../../src/library.js';
import { textNumbers } from '../../src/rank/lexical/words.js';
import { REPO_ROOT } from '../quality/dataset.js';
import { DEV_LANGUAGES, loadLanguage, shuffledCommonIds, type DevLanguage } from './dataset.js';
import { fields, type Opts, type Q } from './loss-fields.js';
import { fileFrequencies, lineCounts, mrrAt10, probeQuestions, ProbeResults } from './probe-table.js';

const dir = path.join(REPO_ROOT, 'bench', '.tmp', 'prose');
const langs = (process.env.PROBE_LANGS?.split(',') ?? DEV_LANGUAGES) as DevLanguage[];
const all = DEV_LANGUAGES.map((l) => loadLanguage(l, dir));
const common = shuffledCommonIds(all, 31);
const sets = all.filter((s) => langs.includes(s.lang));
const ranges = (process.env.PROBE_RANGE ?? '80,480').split(';').map((r) => r.split(',').map(Number));
const splits: Record<string, string[]> = Object.fromEntries(ranges.map(([a, b]) => [`${a}-${b}`, common.slice(a, b)]));
const filter = process.argv[2] ? new RegExp(process.argv[2]) : null;
const searcher = createSearcher({ concurrency: 0 });

export interface GridOpts extends Opts { wx?: number }

/** The shipped rule (fields added over their norms, saturated once, fused with the cosine) under `o`. */
export function rule(q: Q, o: GridOpts = {}): Float64Array {
  const f = fields(q, o);
  const ctx = o.ctx ?? 0.5; const gw = o.gramW ?? 0.5; const w = q.w * (o.wx ?? 1);
  return f.own.map((own, i) => {
    let lex = 0;
    if (own > 0 && f.norm > 0) {
      const words = (1 - ctx) * (own / f.norm) + ctx * (f.win[i] / f.norm);
      const sum = f.gnorm > 0 ? (1 - gw) * words + gw * (f.gram[i] / f.gnorm) : words;
      lex = sum / (sum + 1);
    }
    return w * Math.max(0, q.cos[i]) + (1 - w) * lex;
  });
}

/** The question's numbers (textNumbers, distinct) as terms after the plan's, as rank/prose.ts counts them. */
export function withNumbers(q: Q): Q {
  const nums = [...new Set(textNumbers(q.query))];
  if (nums.length === 0) return q;
  const at = new Map(nums.map((n, k) => [n, k]));
  const nT = q.plan.terms.length;
  const tf = q.tf.map((row, i) => {
    const out = new Float64Array(nT + nums.length); out.set(row);
    if (q.lens[i] === 0) return out;
    for (const n of textNumbers(q.lines[i])) { const k = at.get(n); if (k !== undefined) out[nT + k]++; }
    return out;
  });
  return { ...q, tf, freq: fileFrequencies({ lens: q.lens, tf, gtf: q.gtf }) };
}

export const GRID_VARIANTS: Record<string, (q: Q) => Float64Array> = { ship: (q) => rule(q) };
const V = GRID_VARIANTS;
for (const wx of [0, 2, 3, 4]) V[`wx${wx}`] = (q) => rule(q, { wx });
for (const ctx of [0.3, 0.4, 0.6]) V[`ctx${ctx}`] = (q) => rule(q, { ctx });
for (const gramW of [0.3, 0.4, 0.6]) V[`gw${gramW}`] = (q) => rule(q, { gramW });
for (const k1 of [0.4, 0.9, 1.2]) V[`k1-${k1}`] = (q) => rule(q, { k1 });
for (const b of [0.3, 0.75]) V[`b${b}`] = (q) => rule(q, { b });

async function main() {
  await import('./grid-variants.js').catch(() => undefined);
  const active = Object.entries(GRID_VARIANTS).filter(([k]) => !filter || filter.test(k) || k === 'ship');
  const results = new ProbeResults();
  const lensOf = new Map<unknown, number[]>();
  const ranksFile = process.env.PROBE_RANKS;
  if (ranksFile) writeFileSync(ranksFile, '');
  let lastLang = '';
  for await (const { set, split, count, question, plan, cos } of probeQuestions(sets, splits, searcher, results)) {
    // Each language's figures as soon as it is done (a run over 400 questions a language takes a while).
    if (lastLang && lastLang !== set.lang) {
      // The new language's baseline cell is already begun: set aside while the finished ones print.
      const icu = results.cells['icu-bm25'];
      const begun = Object.keys(splits).map((s) => { const x = icu[s]?.[set.lang]; if (icu[s]) delete icu[s][set.lang]; return x; });
      results.print(Object.keys(splits), 16);
      process.stdout.write('\n');
      Object.keys(splits).forEach((s, k) => { if (begun[k] !== undefined) icu[s][set.lang] = begun[k]!; });
    }
    lastLang = set.lang;
    const lens = lensOf.get(set) ?? lensOf.set(set, set.lines.map((l) => (l.trim() === '' ? 0 : l.length))).get(set)!;
    const { tf, gtf } = lineCounts(set.lines, plan);
    const base = { cos, w: plan.prose!.semantic, lens, tf, gtf, lines: set.lines, plan, query: question.text, freq: fileFrequencies({ lens, tf, gtf }) } as unknown as Q;
    const q = withNumbers(base);
    for (const [name, f] of active) {
      const m = mrrAt10(f(q), question.labels);
      results.add(name, split, set.lang, m, count);
      if (ranksFile && name === 'ship') appendFileSync(ranksFile, `${JSON.stringify({ lang: set.lang, id: question.id, mrr: m })}\n`);
    }
  }
  results.print(Object.keys(splits), 16);
  await searcher.close();
}

main().catch((e) => { process.stderr.write(`${(e as Error).stack}\n`); process.exit(1); });
