// fusion-replay, step 2: runs every dev-set query once in hybrid mode with the dump hook applied
// (dump-hook.patch), so each chunk's signals land in $SIMGREP_FUSION_DUMP; the queries, targets and
// hits go beside it (<dump>.queries.jsonl). Arguments: optional repo names, comma-separated.
import { appendFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createSearcher } from '../../../src/index.js';
import { DEV_SETS, loadDataset, toUpstreamPath } from '../dataset.js';
import { ensureCorpus } from '../corpora.js';
import { UNAVAILABLE } from '../pins.js';

async function main(): Promise<void> {
  const out = process.env.SIMGREP_FUSION_DUMP!;
  const meta = out + '.queries.jsonl';
  writeFileSync(out, '');
  writeFileSync(meta, '');
  const only = process.argv[2]?.split(',');
  const searcher = createSearcher({ concurrency: 2 });
  for (const id of DEV_SETS) {
    const data = loadDataset(id);
    for (const repo of data.repos) {
      if (UNAVAILABLE[repo.name]) continue;
      if (only && !only.includes(repo.name)) continue;
      const c = ensureCorpus(repo.name);
      const qs = data.queries.filter((q) => q.repo === repo.name);
      for (const q of qs) {
        appendFileSync(out, `#Q\t${id}\t${repo.name}\t${q.index}\n`);
        const r = await searcher.search({ query: q.query, paths: [c.root], topK: 10, mode: 'hybrid' });
        appendFileSync(meta, JSON.stringify({ set: id, repo: repo.name, index: q.index, query: q.query, category: q.category, targets: q.targets, root: c.root,
          prefix: toUpstreamPath(repo, 'X').slice(0, -1), hits: r.results.map((h) => path.relative(c.root, h.filename)) }) + '\n');
      }
      process.stderr.write(`${id} ${repo.name} done\n`);
    }
  }
  await searcher.close();
}
main().catch((e) => { console.error(e); process.exit(1); });
