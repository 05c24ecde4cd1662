// Issue 31, zh33: where the default's prose line ranking loses to plain BM25 over ICU words in Chinese,
// and variants of the shipped rule for text in Han (loss-fields.ts `ship` with the query's numbers,
// as rank/prose.ts ranks). PROBE_RANGE=a,b[;c,d] picks the question ids (positions in the bench's
// seeded order: choose on 0,400, confirm on 400,1190), PROBE_LANGS a few dev languages, PROBE_DIAG=1
// prints each Chinese question the shipped rule ranks below BM25 with the words each side sees.
// Exploratory, not the bench; figures in docs/models.md. ~7 min for zh on ids 0-399 on 2 busy cores.
// npx tsc -p tsconfig.json && SIMGREP_GIT_MIRRORS=/work/.mirror node dist/bench/prose/han-probe.js [filter-regex]
import path from 'node:path';
import { createSearcher } from '../../src/library.js';
import { countTerms } from '../../src/rank/chunk-scorer.js';
import { forEachGram, gramKey } from '../../src/rank/lexical/grams.js';
import { textNumbers } from '../../src/rank/lexical/words.js';
import type { RankPlan } from '../../src/rank/plan.js';
import { REPO_ROOT } from '../quality/dataset.js';
import { createBm25, icuWords } from './bm25-icu.js';
import { DEV_LANGUAGES, loadLanguage, shuffledCommonIds, type DevLanguage } from './dataset.js';
import { hanVariants, type HanQ } from './han-variants.js';
import { fileFrequencies, mrrAt10, probeQuestions, ProbeResults } from './probe-table.js';

const dir = path.join(REPO_ROOT, 'bench', '.tmp', 'prose');
const langs = (process.env.PROBE_LANGS?.split(',') ?? DEV_LANGUAGES) as DevLanguage[];
const all = DEV_LANGUAGES.map((l) => loadLanguage(l, dir));
const common = shuffledCommonIds(all, 31);
const sets = all.filter((s) => langs.includes(s.lang));
const ranges = (process.env.PROBE_RANGE ?? '0,400;400,1190').split(';').map((r) => r.split(',').map(Number));
const splits: Record<string, string[]> = Object.fromEntries(ranges.map(([a, b]) => [`${a}-${b}`, common.slice(a, b)]));
const filter = process.argv[2] ? new RegExp(process.argv[2]) : null;
const active = Object.entries(hanVariants).filter(([k]) => !filter || filter.test(k) || k === 'ship');

/** Each line's count of each plan term and then each of the query's numbers (tf), and of each gram (gtf). */
function counts(lines: string[], plan: RankPlan): { tf: Float64Array[]; gtf: Float64Array[] } {
  const nT = plan.terms.length;
  const nums = plan.prose!.numbers;
  const at = new Map(nums.map((n, k) => [n, nT + k]));
  const tf = lines.map((line) => {
    const t = new Float64Array(nT + nums.length);
    countTerms(line, plan, t);
    if (nums.length > 0) for (const n of textNumbers(line)) { const k = at.get(n); if (k !== undefined) t[k]++; }
    return t;
  });
  const gi = new Map(plan.prose!.grams.map((g, i) => [gramKey(g), i]));
  const gtf = lines.map((line) => { const r = new Float64Array(gi.size); forEachGram(line, (k) => { const i = gi.get(k); if (i !== undefined) r[i]++; }); return r; });
  return { tf, gtf };
}

async function main() {
  const searcher = createSearcher({ concurrency: 0 });
  const results = new ProbeResults();
  const lensOf = new Map<unknown, number[]>();
  const icuOf = new Map<unknown, ReturnType<typeof createBm25>>();
  for await (const { set, split, count, question, plan, cos } of probeQuestions(sets, splits, searcher, results)) {
    const lens = lensOf.get(set) ?? lensOf.set(set, set.lines.map((l) => (l.trim() === '' ? 0 : l.length))).get(set)!;
    const { tf, gtf } = counts(set.lines, plan);
    const stub = { v: new Float32Array(0), dim: 0, mean: new Float64Array(0) };
    const q: HanQ = { vecs: stub, qv: new Float32Array(0), cos2: cos, cos, w: plan.prose!.semantic, lens, tf, gtf, lines: set.lines, plan, query: question.text, freq: fileFrequencies({ lens, tf, gtf }) };
    const ranks: Record<string, number> = {};
    for (const [name, f] of active) { const m = mrrAt10(f(q), question.labels); ranks[name] = m; results.add(name, split, set.lang, m, count); }
    if (process.env.PROBE_DIAG && set.lang === 'zh') {
      const icu = icuOf.get(set) ?? icuOf.set(set, createBm25(set.lines)).get(set)!;
      const top = icu(question.text, 10);
      const r = top.findIndex((i) => question.labels.includes(i));
      const b = r < 0 ? 0 : 1 / (r + 1);
      if (ranks.ship < b) {
        const sc = hanVariants.ship(q);
        const order = [...sc.keys()].sort((x, y) => sc[y] - sc[x] || x - y);
        const label = question.labels[0];
        process.stdout.write(`\n${split} ship ${ranks.ship.toFixed(2)} bm25 ${b.toFixed(2)} | ${question.text}\n  icu   ${icuWords(question.text).join('|')}\n  terms ${plan.terms.map((t) => t.key).join('|')} nums ${plan.prose!.numbers.join('|')}\n  label ${icuWords(set.lines[label]).join('|')}  [score ${sc[label].toFixed(3)} cos ${cos[label].toFixed(3)} tf ${[...tf[label]].join(',')}]\n  top1  ${icuWords(set.lines[order[0]]).join('|')}  [score ${sc[order[0]].toFixed(3)} cos ${cos[order[0]].toFixed(3)} tf ${[...tf[order[0]]].join(',')}] ${order[0] - label}\n`);
      }
    }
  }
  results.print(Object.keys(splits), 18);
  await searcher.close();
}

main().catch((e) => { process.stderr.write(`${(e as Error).stack}\n`); process.exit(1); });
