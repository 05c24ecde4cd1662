// Usage: node bench/plan-memory-side.mjs named|unnamed (after npm run build; TREE=the bench tree). mend36c.
// Heap a line scorer holds after 10 distinct searches, each scored as a worker gets them (a structured clone of the plan per batch, named by the pool).
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createLineScorer } from '../dist/src/embed/line-scorer.js';
import { planKeyOf } from '../dist/src/embed/plan-key.js';
import { loadModel } from '../dist/src/model/load.js';
import { bundledModelDir } from '../dist/src/model/default-model.js';
import { bundledLexicon } from '../dist/src/rank/lexical/lexicon.js';
import { buildRankPlan } from '../dist/src/rank/plan.js';
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');
const named = process.argv[2] !== 'unnamed';
const root = process.env.TREE ?? new URL('corpus/tree-1m', import.meta.url).pathname;
const files = [];
(function walk(d) { for (const e of readdirSync(d, { withFileTypes: true })) { const p = path.join(d, e.name); if (e.isDirectory()) walk(p); else if (/\.(ts|js|py|go|rs)$/.test(e.name)) files.push(p); } })(root);
files.sort();
// Batches of ~2,064 lines, ranges per file.
const batches = [];
let cur = null;
for (const f of files.slice(0, 3000)) {
  const lines = readFileSync(f, 'utf8').split('\n');
  if (!cur || cur.lines.length + lines.length > 2064) { if (cur) batches.push(cur); cur = { lines: [], ranges: [], paths: [] }; }
  cur.ranges.push(cur.lines.length, cur.lines.length + lines.length); cur.paths.push(f); cur.lines.push(...lines);
}
const enc = new TextEncoder();
function request(b, plan, query, planKey) {
  const bytes = enc.encode(b.lines.map((l) => `${l}\n`).join(''));
  const offsets = new Uint32Array(b.lines.length + 1);
  for (let i = 0, at = 0; i < b.lines.length; i++) { at += enc.encode(b.lines[i]).length + 1; offsets[i + 1] = at; }
  return { bytes, offsets, scoreRanges: Uint32Array.from(b.ranges), query, queryKey: plan.terms.map((t) => t.key).join(' '), ignoreCase: false,
    chunks: { plan, planKey, rangeFirstLines: Uint32Array.from(b.ranges.filter((_, i) => i % 2 === 0)), rangePaths: b.paths } };
}
const QUERIES = ['retry failed uploads with backoff', 'where is the request handler registered', 'decode remote location string', 'build shared keys for the cache',
  'cancel a pending result', 'flush large store to disk', 'filter private types', 'emit raw component events', 'fetch unique tree nodes', 'check nested vector bounds'];
const model = await loadModel(bundledModelDir(), { offline: true });
const scorer = await createLineScorer(model, 'static');
const plans = QUERIES.map((q) => buildRankPlan(q, 'hybrid', bundledLexicon()));
const queries = await scorer.embedTexts(QUERIES);
const dim = queries.length / QUERIES.length;
// Warm the thread-wide memos (run dictionary, ident stems) with one unrelated search first.
const warm = buildRankPlan('open the index', 'hybrid', bundledLexicon());
for (const b of batches) await scorer.score(request(b, structuredClone(warm), queries.subarray(0, dim)));
gc(); gc();
const before = process.memoryUsage().heapUsed;
for (let q = 0; q < plans.length; q++) {
  const key = named ? planKeyOf(plans[q]) : undefined;
  for (const b of batches) await scorer.score(request(b, structuredClone(plans[q]), queries.subarray(q * dim, (q + 1) * dim), key));
}
gc(); gc();
const after = process.memoryUsage().heapUsed;
console.log(JSON.stringify({ named, batches: batches.length, lines: batches.reduce((s, b) => s + b.lines.length, 0), heldMB: +((after - before) / 2 ** 20).toFixed(2), heapMB: +(after / 2 ** 20).toFixed(1), rssMB: +(process.memoryUsage().rss / 2 ** 20).toFixed(1) }));
await scorer.close();
