import { readSnapshotFile } from '../dist/src/index/snapshot-file.js';
import { selectCandidates } from '../dist/src/index/candidates.js';
import { buildRankPlan } from '../dist/src/rank/plan.js';
import { bundledLexicon } from '../dist/src/rank/lexical/lexicon.js';
import { createSearcher } from '../dist/src/searcher.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
const dir = 'bench/.tmp/index-ws';
const info = JSON.parse(readFileSync(path.join(dir, 'workspace.json'), 'utf8'));
const snap = readSnapshotFile(path.join(dir, 'snapshot.bin'), info.meta.complete);
const s = createSearcher({ concurrency: 0, model: 'bench/.tmp/potion-8m-shape' });
const display = snap.files.map((f) => 'bench/.tmp/index-tree/' + path.relative(path.resolve('bench/.tmp/index-tree'), f.key));
for (const q of ['where do we retry failed uploads', 'UserSession', 'retry', 'cache invalidation after writes']) {
  const plan = buildRankPlan(q, 'hybrid', bundledLexicon());
  const query = await s.embed([q]);
  for (let i = 0; i < 5; i++) { const t = performance.now(); const c = selectCandidates(snap, { plan, query, display, heapSize: 22 }); if (i >= 3) console.log(q, c.length, (performance.now() - t).toFixed(1)); }
}
await s.close();
