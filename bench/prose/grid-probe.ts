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
import { REPO_ROOT } from '../quality/dataset.js';
import { DEV_LANGUAGES, loadLanguage, shuffledCommonIds, type DevLanguage } from './dataset.js';
import type { Q } from './loss-fields.js';
import { GRID_VARIANTS, withNumbers } from './grid-rule.js';
import './grid-variants.js';
import './cjk-variants.js';
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

async function main() {
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
