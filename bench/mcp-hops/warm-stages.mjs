// Where a warm MCP call's wall time goes (issue 30, branch warm32): reads what warm-probe.mjs wrote in DIR
// (the harness's client, its front and the resident engine, one run) and splits each warm `search` (the
// harness's 40 measured ones: those right before its first find_related) and `find_related` (its last 40)
// into the hops between the processes and, in the engine, the debug timer's stages (SIMGREP_DEBUG_TIMING=1:
// workspace/search-run.ts), each with its wall time, the main thread's CPU, its wait on the run queue
// (ready, no core free) and the rest (asleep: awaiting I/O, a worker, a timer); with the garbage
// collections and the event loop's turns inside the engine's part. p50 and mean per stage.
// Usage: [EACH=1] node bench/mcp-hops/warm-stages.mjs DIR
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
const dir = process.argv[2];
const load = (role) => { const f = readdirSync(dir).find((x) => x.startsWith(`${role}-`)); return f ? JSON.parse(readFileSync(path.join(dir, f), 'utf8')) : null; };
const ev = load('engine'), front = load('front'), client = load('client');
const calls = [];
for (let i = 0; i < ev.length; i++) {
  const [t, c, kind, tool] = ev[i];
  if (kind !== 'in' || !tool) continue;
  let j = i + 1;
  while (j < ev.length && ev[j][2] !== 'out') j++;
  if (j >= ev.length) break;
  const end = ev[j];
  const stages = [];
  let prev = [t, c];
  let turns = 0;
  for (let k = i + 1; k <= j; k++) {
    const [tk, ck, kk, x] = ev[k];
    if (kk === 'turn') { turns++; continue; }
    if (kk !== 'mark' && kk !== 'out') continue;
    const name = kk === 'out' ? 'to the answer\'s write' : x.replace(/ \(.*\)/, '').replace(/: [\d.]+$/, '');
    stages.push({ name, wall: tk - prev[0], cpu: ck[0] - prev[1][0], rq: ck[1] - prev[1][1] });
    prev = [tk, ck];
  }
  const call = { tool, t0: t, t1: end[0], wall: end[0] - t, cpu: end[1][0] - c[0], rq: end[1][1] - c[1], stages, gc: { n: 0, ms: 0, kinds: {} }, turns, hops: null };
  if (front && client) {
    const last = (xs, kind, before) => { let r = null; for (const e of xs) { if (e[0] >= before) break; if (e[2] === kind) r = e; } return r; };
    const first = (xs, kind, after) => xs.find((e) => e[0] > after && e[2] === kind) ?? null;
    const f1 = last(front, 'out', t), f0 = f1 && last(front, 'in', f1[0]);
    const f2 = first(front, 'in', end[0]), f3 = f2 && first(front, 'out', f2[0]);
    const c0 = f0 && last(client, 'out', f0[0]), c1 = f3 && first(client, 'in', f3[0]);
    if (c0 && c1) {
      const d = (a, b) => b[0] - a[0];
      call.hops = { 'client -> front': d(c0, f0), 'front: request on': d(f0, f1), 'front -> engine': d(f1, ev[i]), 'engine -> front': d(end, f2), 'front: answer on': d(f2, f3), 'front -> client': d(f3, c1), 'client write to read': d(c0, c1),
        'front cpu': f3[1][0] - f0[1][0] + 0, 'client cpu in the hops': c1[1][0] - c0[1][0] };
    }
  }
  calls.push(call);
}
// GC entries come when the observer's callback runs: matched to a call by their start.
for (const [tg, , kk, x] of ev) if (kk === 'gc') for (const cl of calls) if (tg >= cl.t0 && tg <= cl.t1) { cl.gc.n++; cl.gc.ms += x[0]; cl.gc.kinds[x[1]] = (cl.gc.kinds[x[1]] ?? 0) + 1; }
const at = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(s.length * p))]; };
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const f = (x) => (x === null || x === undefined || Number.isNaN(x) ? '-' : x.toFixed(2));
const firstRelated = calls.findIndex((c) => c.tool === 'find_related');
const sets = { search: calls.slice(0, firstRelated).filter((c) => c.tool === 'search').slice(-40), find_related: calls.filter((c) => c.tool === 'find_related').slice(-40) };
for (const [tool, cs] of Object.entries(sets)) {
  if (cs.length === 0) continue;
  console.log(`${tool}: ${cs.length} calls; engine in->out wall p50 ${f(at(cs.map((c) => c.wall), 0.5))} p95 ${f(at(cs.map((c) => c.wall), 0.95))} mean ${f(mean(cs.map((c) => c.wall)))}; main CPU p50 ${f(at(cs.map((c) => c.cpu), 0.5))} mean ${f(mean(cs.map((c) => c.cpu)))}; run-queue wait mean ${f(mean(cs.map((c) => c.rq)))}; asleep mean ${f(mean(cs.map((c) => c.wall - c.cpu - c.rq)))}`);
  console.log(`  GC: ${f(mean(cs.map((c) => c.gc.n)))} a call, ${f(mean(cs.map((c) => c.gc.ms)))} ms a call (p95 ${f(at(cs.map((c) => c.gc.ms), 0.95))}, max ${f(Math.max(...cs.map((c) => c.gc.ms)))}); kinds ${JSON.stringify(cs.reduce((o, c) => { for (const [k, v] of Object.entries(c.gc.kinds)) o[k] = (o[k] ?? 0) + v; return o; }, {}))}; event-loop turns a call: mean ${f(mean(cs.map((c) => c.turns)))}`);
  const names = [];
  for (const c of cs) for (const s of c.stages) if (!names.includes(s.name)) names.push(s.name);
  console.log(`  ${'stage'.padEnd(24)} ${'wall p50'.padStart(9)} ${'wall mean'.padStart(9)} ${'cpu p50'.padStart(8)} ${'cpu mean'.padStart(8)} ${'rq mean'.padStart(8)} ${'asleep'.padStart(8)}`);
  for (const name of names) {
    const ss = cs.map((c) => c.stages.find((s) => s.name === name)).filter(Boolean);
    const w = ss.map((s) => s.wall), cp = ss.map((s) => s.cpu), rq = ss.map((s) => s.rq), sl = ss.map((s) => s.wall - s.cpu - s.rq);
    console.log(`  ${name.padEnd(24)} ${f(at(w, 0.5)).padStart(9)} ${f(mean(w)).padStart(9)} ${f(at(cp, 0.5)).padStart(8)} ${f(mean(cp)).padStart(8)} ${f(mean(rq)).padStart(8)} ${f(mean(sl)).padStart(8)}`);
  }
  const hs = cs.filter((c) => c.hops);
  if (hs.length) {
    console.log(`  hops (${hs.length} calls): ${Object.keys(hs[0].hops).map((k) => `${k} p50 ${f(at(hs.map((c) => c.hops[k]), 0.5))} mean ${f(mean(hs.map((c) => c.hops[k])))}`).join('; ')}`);
  }
  if (process.env.EACH) for (const c of cs) console.log(`  ${f(c.wall)} cpu ${f(c.cpu)} rq ${f(c.rq)} gc ${c.gc.n}/${f(c.gc.ms)} turns ${c.turns} | ${c.stages.map((s) => `${s.name} ${f(s.wall)}/${f(s.cpu)}`).join(', ')}${c.hops ? ` | client ${f(c.hops['client write to read'])}` : ''}`);
}
