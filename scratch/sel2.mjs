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
const q0 = await s.embed(['x']);
let t = performance.now(); let acc = 0;
for (let r = 0; r < 10; r++) for (let c = 0; c < snap.start.length; c++) { let d = 0; const b = c * 256; for (let i = 0; i < 256; i++) d += snap.vectors[b + i] * q0[i]; acc += d; }
console.log('pure cosine per query', ((performance.now() - t) / 10).toFixed(1), 'ms', acc > 0);
const qs = ['where do we retry failed uploads', 'UserSession', 'retry', 'cache invalidation after writes', 'hash the password with a salt', 'read the json settings'];
const times = [];
for (const q of qs) {
  const plan = buildRankPlan(q, 'hybrid', bundledLexicon());
  const query = await s.embed([q]);
  for (let i = 0; i < 6; i++) { const t = performance.now(); const c = selectCandidates(snap, { plan, query, display, heapSize: 50 }); if (i >= 2) times.push(performance.now() - t); if (i === 5) console.log(q, c.length, (performance.now() - t).toFixed(1)); }
}
times.sort((a, b) => a - b); console.log('median', times[times.length >> 1].toFixed(1));
await s.close();
