// The CLI row of bench/mcp-agent.ts without its 30 s build from nothing (issue 30): a whole `simgrep`
// process answering from a workspace index, a 100,000-character query (the first 100,000 characters of
// src/*.ts and src/*/*.ts, as bench/mcp-agent.ts makes it) beside "retry failed uploads", with the
// harness's flags. The index is built once into HOME (by the first CLI) and reused; two or more builds
// alternate run by run, so all see the same load on a shared machine.
// Usage: node bench/query-length/cli-index.mjs TREE MODEL HOME [REPS] ROOT...  (ROOT: a built checkout)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const [tree, model, home, repsArg, ...roots] = process.argv.slice(2);
if (!roots.length) throw new Error('usage: node bench/query-length/cli-index.mjs TREE MODEL HOME REPS ROOT...');
const reps = Number(repsArg);
const env = { ...process.env, SIMGREP_HOME: path.resolve(home), SIMGREP_CACHE_DIR: path.join(path.resolve(home), 'cache'), HF_HUB_OFFLINE: '1' };
const cli = (root) => path.join(path.resolve(root), 'dist/src/cli/main.js');
// GNU time, where there is one, also gives the process's CPU seconds (all threads): steadier than
// the wall time on a loaded machine.
const GNU_TIME = '/usr/bin/time';
const tmp = mkdtempSync(path.join(os.tmpdir(), 'simgrep-qlen-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
const run = (root, args) => {
  const cmd = [process.execPath, cli(root), ...args];
  const timed = existsSync(GNU_TIME);
  const t = performance.now();
  const r = timed
    ? spawnSync(GNU_TIME, ['-f', '%U %S', '-o', path.join(tmp, 'cpu'), ...cmd], { env, encoding: 'utf8', maxBuffer: 1 << 26 })
    : spawnSync(cmd[0], cmd.slice(1), { env, encoding: 'utf8', maxBuffer: 1 << 26 });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${root}: exit ${r.status}: ${r.stderr.slice(-2000)}`);
  const cpuMs = timed ? readFileSync(path.join(tmp, 'cpu'), 'utf8').trim().split(/\s+/).slice(-2).reduce((a, x) => a + Number(x) * 1000, 0) : NaN;
  return { ms, cpuMs, out: r.stdout };
};

if (!existsSync(path.join(home, 'workspaces'))) {
  process.stderr.write(`building the index of ${tree} into ${home} with ${roots[0]} (once)\n`);
  run(roots[0], ['index', '--model', model, '-J', '2', tree]);
}
const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const src = path.join(repo, 'src');
const files = [src, ...readdirSync(src, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => path.join(src, d.name))]
  .flatMap((dir) => readdirSync(dir).filter((f) => f.endsWith('.ts')).sort().map((f) => path.join(dir, f)));
let long = '';
for (const f of files) { long += readFileSync(f, 'utf8'); if (long.length >= 100_000) break; }
long = long.slice(0, 100_000);

const search = (root, q) => run(root, ['--model', model, '-J', '2', '--top-k', '10', '--no-server', '--', q, tree]);
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const out = roots.map(() => ({ short: [], long: [], shortCpu: [], longCpu: [], answers: new Set() }));
const load = [os.loadavg()[0]];
for (const root of roots) { search(root, 'warm the page cache'); }
for (let i = 0; i < reps; i++) {
  roots.forEach((root, j) => {
    const s = search(root, 'retry failed uploads');
    out[j].short.push(s.ms);
    out[j].shortCpu.push(s.cpuMs);
    const l = search(root, long);
    out[j].long.push(l.ms);
    out[j].longCpu.push(l.cpuMs);
    out[j].answers.add(l.out);
  });
  load.push(os.loadavg()[0]);
}
const same = new Set(out.map((o) => [...o.answers].join('\u0000'))).size === 1;
roots.forEach((root, j) => {
  const r = out[j];
  console.log(`${root}: short ${median(r.short).toFixed(0)} ms, ${long.length}-character query ${median(r.long).toFixed(0)} ms: `
    + `+${(median(r.long) - median(r.short)).toFixed(0)} ms (medians of ${reps}; short ${r.short.map((x) => x.toFixed(0)).join(' ')}; long ${r.long.map((x) => x.toFixed(0)).join(' ')}); `
    + `CPU (user + system, all threads) short ${median(r.shortCpu).toFixed(0)} ms, long ${median(r.longCpu).toFixed(0)} ms: +${(median(r.longCpu) - median(r.shortCpu)).toFixed(0)} ms`);
});
console.log(`load average (1 min) ${load.map((x) => x.toFixed(2)).join(' ')}; the long query's answers ${same ? 'are the same in every build' : 'DIFFER between builds'}`);
