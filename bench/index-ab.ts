// Two builds side by side on the 1M-line bench tree (the same copy, interleaved run by run, so a loaded
// machine weighs on both alike): index build, cold CLI queries (stdout compared), re-index with nothing
// changed, re-index after touching one Markdown file, and a fresh library handle's back-to-back queries.
// Wall and CPU time (user + sys of the whole process, from /usr/bin/time) per step; prints JSON, writes
// nothing else. The other build is a dist/ directory of another checkout (copy it with the repo's
// src/model/bundled beside it, as dist/../src/model/bundled, and a node_modules reachable from it).
//   npm run build && node dist/bench/index-ab.js --base /tmp/main-build/dist [--steps index,cold,unchanged,touch,library]
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildBenchModel, REPO_ROOT } from './bench-model.js';
import { generateTree } from './corpus.js';
import { QUERIES } from './queries.js';

const arg = (name: string) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
const base = arg('--base');
if (!base) throw new Error('pass --base DIST: the dist/ directory of the build to compare with');
const steps = (arg('--steps') ?? 'index,cold,unchanged,touch,library').split(',');
const builds = { base: path.resolve(base), this: path.join(REPO_ROOT, 'dist') } as const;
type Build = keyof typeof builds;
const WORK = path.join(REPO_ROOT, 'bench/.tmp/index-ab');
const TREE = path.join(WORK, 'tree');
const idx = (b: Build) => path.join(WORK, `idx-${b}`);
const MODEL = path.join(REPO_ROOT, 'bench/.tmp/potion-8m-shape');
const env = { ...process.env, SIMGREP_CACHE_DIR: path.join(WORK, 'cache'), SIMGREP_HOME: path.join(WORK, 'home') };
const m = ['--model', MODEL, '-J', '2'];
const log = (s: string) => process.stderr.write(`[bench:index-ab] ${s}\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

interface Run { ms: number; cpuMs: number; peakRssMb: number; out: string; err: string; code: number | null }

function cli(b: Build, args: string[]): Run {
  const t = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '@@%U %S %M', process.execPath, path.join(builds[b], 'src/cli/main.js'), ...args], { env, encoding: 'utf8', maxBuffer: 1 << 26 });
  const ms = performance.now() - t;
  const tm = /@@([\d.]+) ([\d.]+) (\d+)\n?$/.exec(r.stderr);
  return { ms, cpuMs: tm ? (Number(tm[1]) + Number(tm[2])) * 1000 : NaN, peakRssMb: tm ? Number(tm[3]) / 1024 : NaN, out: r.stdout, err: r.stderr.replace(/@@.*\n?$/, ''), code: r.status };
}

function du(p: string): number {
  let total = 0;
  for (const n of readdirSync(p, { recursive: true })) { const s = statSync(path.join(p, String(n))); if (s.isFile()) total += s.size; }
  return total;
}

/** Both builds, alternately, `n` rounds of `args(i)`: medians of wall and CPU time. */
function pair(n: number, args: (b: Build, i: number) => string[], before?: (i: number) => void): Record<Build, { ms: number; cpuMs: number }> & { stdoutDiffers: number } {
  const runs: Record<Build, Run[]> = { base: [], this: [] };
  let stdoutDiffers = 0;
  for (let i = 0; i < n; i++) {
    before?.(i);
    for (const b of ['base', 'this'] as const) runs[b].push(cli(b, args(b, i)));
    if (runs.base[i].out !== runs.this[i].out) stdoutDiffers++;
  }
  const sum = (b: Build) => ({ ms: Math.round(median(runs[b].map((r) => r.ms))), cpuMs: Math.round(median(runs[b].map((r) => r.cpuMs))) });
  return { base: sum('base'), this: sum('this'), stdoutDiffers };
}

const out: Record<string, unknown> = { date: new Date().toISOString(), base: builds.base, load: os.loadavg() };
if (steps.includes('index')) {
  buildBenchModel(MODEL);
  const source = path.join(REPO_ROOT, 'bench/corpus/tree-1m');
  generateTree({ out: source, lines: 1_000_000 });
  rmSync(WORK, { recursive: true, force: true });
  cpSync(source, TREE, { recursive: true });
  for (const b of ['base', 'this'] as const) {
    log(`index build (${b})`);
    const r = cli(b, ['index', TREE, '--index-dir', idx(b), ...m]);
    if (r.code !== 0) throw new Error(`index (${b}) failed: ${r.err}`);
    out[`build-${b}`] = { ms: Math.round(r.ms), cpuMs: Math.round(r.cpuMs), peakRssMb: Math.round(r.peakRssMb), bytesOnDisk: du(idx(b)) };
  }
}
if (steps.includes('cold')) {
  log('cold CLI queries');
  out.cold = pair(7, (b, i) => [QUERIES[i], TREE, '--index-dir', idx(b), ...m]);
}
if (steps.includes('unchanged')) {
  log('re-index, nothing changed');
  out.unchanged = pair(3, (b) => ['index', TREE, '--index-dir', idx(b), ...m]);
}
if (steps.includes('touch')) {
  log('re-index after touching one Markdown file');
  const docs = readdirSync(TREE, { recursive: true }).map(String).filter((f) => f.endsWith('.md')).sort();
  out.touchedMarkdown = pair(3, (b) => ['index', TREE, '--index-dir', idx(b), ...m], (i) => appendFileSync(path.join(TREE, docs[20 + 9 * i]), `\nretry the upload once more, take ${i}\n`));
}
if (steps.includes('library')) {
  for (const b of ['base', 'this'] as const) {
    log(`fresh library handle (${b})`);
    const script = `const { createWorkspace } = await import(${JSON.stringify(path.join(builds[b], 'src/workspace/workspace.js'))});
      const queries = ${JSON.stringify(QUERIES)};
      const ws = createWorkspace({ dir: ${JSON.stringify(idx(b))}, model: ${JSON.stringify(MODEL)}, concurrency: 2 });
      let t = performance.now(); await ws.search({ query: 'warm up', paths: [${JSON.stringify(TREE)}] }); const first = performance.now() - t;
      const xs = []; for (let rep = 0; rep < 2; rep++) for (const query of queries) { t = performance.now(); await ws.search({ query, paths: [${JSON.stringify(TREE)}] }); xs.push(performance.now() - t); }
      await ws.close(); xs.sort((a, b) => a - b);
      console.log(JSON.stringify({ firstMs: Math.round(first), p50Ms: Math.round(xs[xs.length >> 1]), p95Ms: Math.round(xs[Math.floor(xs.length * 0.95)]), n: xs.length }));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env, encoding: 'utf8' });
    out[`library-${b}`] = r.status === 0 ? JSON.parse(r.stdout.trim().split('\n').pop()!) : { error: r.stderr.slice(-500) };
  }
}
out.loadAfter = os.loadavg();
console.log(JSON.stringify(out, null, 2));
