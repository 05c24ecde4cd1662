import { readFileSync } from 'node:fs';
const p = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const target = process.argv[3];
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const selfTime = new Map();
const dt = p.timeDeltas;
p.samples.forEach((id, i) => selfTime.set(id, (selfTime.get(id) ?? 0) + dt[i]));
const agg = new Map();
for (const n of p.nodes) {
  if (n.callFrame.functionName !== target) continue;
  const chain = [];
  let cur = parent.get(n.id);
  for (let k = 0; k < 4 && cur; k++) { const f = byId.get(cur).callFrame; chain.push(`${f.functionName}@${f.url.split('/').slice(-1)[0]}:${f.lineNumber}`); cur = parent.get(cur); }
  const key = chain.join(' < ');
  agg.set(key, (agg.get(key) ?? 0) + (selfTime.get(n.id) ?? 0));
}
[...agg].sort((a, b) => b[1] - a[1]).slice(0, 6).forEach(([k, v]) => console.log((v / 1000).toFixed(1), k));
