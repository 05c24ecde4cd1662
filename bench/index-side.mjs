// An index build of a tree from nothing (`simgrep index --no-server --index-dir DIR`, a fresh scratch dir
// and SIMGREP_HOME each run), two or more variants alternating (branch first30f): per run the wall time,
// the whole process's CPU (GNU time's user + system), its main thread's and its busiest other threads'
// CPU (/proc, sampled), peak RSS and the load. A variant is LABEL|ROOT[|J]: ROOT a checkout with dist/
// built, J the -J value (none: the default). On a busy shared machine run it in a scheduling group of
// its own with a high priority (root, sched_autogroup: `echo -15 > /proc/self/autogroup` in the same
// shell first), so its wall times come close to an idle machine's.
// Usage: [ROUNDS=2] node bench/index-side.mjs TREE MODEL VARIANT [VARIANT...]   (after npm run build)
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { measure } from '../dist/bench/measure.js';

const [tree, model, ...specs] = process.argv.slice(2);
if (!model || specs.length === 0) throw new Error('usage: node bench/index-side.mjs TREE MODEL LABEL|ROOT[|J] ...');
const rounds = Number(process.env.ROUNDS ?? 2);
const cacheDir = path.resolve(path.dirname(new URL(import.meta.url).pathname), '.tmp/cache');
const variants = specs.map((s) => { const [label, root, j = ''] = s.split('|'); return { label, root, j }; });
const rows = {};
for (let r = 0; r < rounds; r++) {
  for (const v of variants) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'simgrep-index-side-'));
    const home = mkdtempSync(path.join(os.tmpdir(), 'simgrep-index-home-'));
    const args = [path.join(v.root, 'dist/src/cli/main.js'), 'index', '--no-server', '--index-dir', dir, ...(v.j ? ['-J', v.j] : []), '--model', model, tree];
    try {
      const x = await measure(process.execPath, args, { cwd: process.cwd(), timeoutMs: 900_000, env: { ...process.env, SIMGREP_HOME: home, SIMGREP_CACHE_DIR: cacheDir } });
      (rows[v.label] ??= []).push(x);
      console.log(`${v.label.padEnd(10)} wall ${(x.wallMs / 1000).toFixed(1)} s, CPU ${x.cpuS.toFixed(2)} s: main ${x.mainCpuS.toFixed(2)}, others ${x.threadCpuS.slice(0, 5).map((t) => t.toFixed(2)).join(' ')}`
        + `; peak RSS ${(x.peakRssKb / 1024).toFixed(0)} MB, load ${x.load1.toFixed(1)}${x.exitCode ? `, exit ${x.exitCode}: ${x.stderrTail}` : ''}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    }
  }
}
for (const [label, xs] of Object.entries(rows)) {
  console.log(`${label}: wall ${xs.map((x) => (x.wallMs / 1000).toFixed(1)).join(' / ')} s, CPU ${xs.map((x) => x.cpuS.toFixed(1)).join(' / ')} s`);
}
