// The one-shot CLI's cold scan of a tree (`--no-server --no-index`, the harness's first question, top 10,
// --json), two or more variants alternating (branch first30e): per run the whole process's CPU (GNU time's
// user + system), its main thread's and its busiest other threads' CPU (the pool's workers first, then V8's
// platform threads: /proc, sampled), peak RSS and wall time, and whether every variant printed the same.
// A variant is LABEL|ROOT[|VAR=V,...[|node flags]]: ROOT a checkout with dist/ built, VAR=V environment
// for that run only (J=N: -J N, 2 unless given), then flags for node (V8's: --max-semi-space-size=16 ...).
// Usage: [ROUNDS=3] [Q=question] node bench/scan-side.mjs TREE MODEL VARIANT [VARIANT...]   (after npm run build)
// On a busy shared machine, `echo -15 > /proc/self/autogroup` in the same shell first (root, a kernel with
// sched_autogroup): the runs then get most of the cores, and their wall times come close to an idle one's.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { measure } from '../dist/bench/measure.js';

const [tree, model, ...specs] = process.argv.slice(2);
if (!model || specs.length === 0) throw new Error('usage: node bench/scan-side.mjs TREE MODEL LABEL|ROOT[|VAR=V,...[|flags]] ...');
const question = process.env.Q ?? 'where is the request handler registered';
const rounds = Number(process.env.ROUNDS ?? 3);
const variants = specs.map((s) => {
  const [label, root, vars = '', flags = ''] = s.split('|');
  return { label, root, env: Object.fromEntries(vars ? vars.split(',').map((e) => e.split('=')) : []), flags: flags ? flags.split(' ') : [] };
});
const args = (v) => [...v.flags, path.join(v.root, 'dist/src/cli/main.js'), '--no-server', '--no-index', '-J', v.env.J ?? '2', '--top-k', '10', '--model', model, '--json', question, tree];
const cpu = {};
for (let r = 0; r < rounds; r++) {
  for (const v of variants) {
    const res = await measure(process.execPath, args(v), { cwd: process.cwd(), timeoutMs: 600_000, env: { ...process.env, ...v.env } });
    (cpu[v.label] ??= []).push(res.cpuS);
    console.log(`${v.label.padEnd(10)} CPU ${res.cpuS.toFixed(2)} s: main ${res.mainCpuS.toFixed(2)}, others ${res.threadCpuS.slice(0, 6).map((x) => x.toFixed(2)).join(' ')}`
      + `; peak RSS ${(res.peakRssKb / 1024).toFixed(0)} MB, wall ${(res.wallMs / 1000).toFixed(1)} s, load ${res.load1.toFixed(1)}${res.exitCode ? `, exit ${res.exitCode}` : ''}`);
  }
}
for (const [label, xs] of Object.entries(cpu)) console.log(`${label}: CPU ${[...xs].sort((a, b) => a - b).map((x) => x.toFixed(2)).join(' / ')} s (mean ${(xs.reduce((a, b) => a + b) / xs.length).toFixed(2)})`);
// The outputs once more, one run each, compared byte for byte.
const outs = variants.map((v) => spawnSync(process.execPath, args(v), { env: { ...process.env, ...v.env }, maxBuffer: 1 << 26 }).stdout.toString());
console.log(outs.every((o) => o === outs[0]) ? `the same output from every variant (${outs[0].length} bytes)` : 'DIFFERENT outputs');
