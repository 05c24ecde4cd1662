// Per-question ranks of the answering line for the default mode (through the library, as the bench
// asks) beside plain BM25 over ICU words, monolingual, one JSON line per question: the lists the
// margin's losses are read from (issue 31). Exploratory, not the bench.
// npx tsc -p tsconfig.json && SIMGREP_GIT_MIRRORS=/work/.mirror node dist/bench/prose/rank-dump.js FROM TO [langs] > out.jsonl
import path from 'node:path';
import { createSearcher } from '../../src/library.js';
import { REPO_ROOT } from '../quality/dataset.js';
import { createBm25 } from './bm25-icu.js';
import { DEV_LANGUAGES, loadLanguage, shuffledCommonIds, type DevLanguage } from './dataset.js';

async function main(): Promise<void> {
  const [from, to] = [Number(process.argv[2] ?? 80), Number(process.argv[3] ?? 480)];
  const langs = (process.argv[4]?.split(',') ?? DEV_LANGUAGES) as DevLanguage[];
  const dir = path.join(REPO_ROOT, 'bench', '.tmp', 'prose');
  const all = DEV_LANGUAGES.map((l) => loadLanguage(l, dir));
  const ids = shuffledCommonIds(all, 31).slice(from, to);
  const searcher = createSearcher({ concurrency: 0 });
  const rank = (ranked: number[], labels: number[]) => ranked.findIndex((l) => labels.includes(l)) + 1;
  try {
    for (const set of all.filter((s) => langs.includes(s.lang))) {
      const bm25 = createBm25(set.lines);
      for (const id of ids) {
        const q = set.questions.get(id)!;
        const b = bm25(q.text, 10);
        const r = await searcher.search({ query: q.text, paths: [set.file], mode: 'hybrid', topK: 10, merge: false, nLines: 0 });
        const d = r.results.map((x) => x.match_line);
        process.stdout.write(`${JSON.stringify({ lang: set.lang, id, pos: ids.indexOf(id) + from, q: q.text, labels: q.labels, def: rank(d, q.labels), bm25: rank(b, q.labels), defTop: d.slice(0, 3), bmTop: b.slice(0, 3) })}\n`);
      }
      process.stderr.write(`${set.lang} done\n`);
    }
  } finally {
    await searcher.close();
  }
}

main().catch((e) => { process.stderr.write(`${(e as Error).stack}\n`); process.exit(1); });
