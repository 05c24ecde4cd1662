// Scans while a resident process builds its index (issue 30, branch build30): what the MCP engine and
// `simgrep serve PATH` answer with before the index is fresh. One process per build given, in turn: a
// resident searcher answers the first question by a scan of TREE, then its workspace's index of TREE
// builds in the background while the next questions are scanned one after another (as an agent asks),
// until the build is published. Per answer: wall, the process's CPU over it (the build's included:
// both share the cores) and the main thread's, and how many files the build had pooled (0 for a build
// without pooledFilesOf). Last, with the build done, the same questions scanned again alternating with
// and without the pooled files' sums (only for a build that has them: KEEP_POOLED), their CPU side by
// side, and every answer compared byte for byte (JSON) with the plain scan's.
// Usage: [NQ=8] [J=2] [KEEP_POOLED=1 [MODES=hybrid,lexical,semantic]] node bench/build-scans-side.mjs TREE MODEL ROOT [ROOT...]   (ROOT: a checkout with dist/ built)
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const [tree, model, ...roots] = process.argv.slice(2);
if (!model || roots.length === 0) throw new Error('usage: node bench/build-scans-side.mjs TREE MODEL ROOT [ROOT...]');
const QUESTIONS = ['where is the request handler registered', 'retry failed uploads with backoff', 'parse the config file', 'database connection pool',
  'render the markdown table', 'validate the email address', 'cache invalidation on write', 'how are errors logged', 'open a websocket connection',
  'compute the checksum of a file', 'schedule a background job', 'read environment variables'];

if (process.env.CHILD) await child(process.env.CHILD);
else {
  for (const root of roots) {
    const home = mkdtempSync(path.join(os.tmpdir(), 'simgrep-build-scans-'));
    const r = spawnSync(process.execPath, [new URL(import.meta.url).pathname, tree, model, root], { env: { ...process.env, CHILD: root, SIMGREP_HOME: home }, stdio: 'inherit' });
    rmSync(home, { recursive: true, force: true });
    if (r.status !== 0) process.exitCode = 1;
  }
}

async function child(root) {
  const dist = path.resolve(root, 'dist/src');
  const { createSearcher, ...searcherMod } = await import(`${dist}/searcher.js`);
  const { createWorkspace } = await import(`${dist}/workspace/workspace.js`);
  const nq = Number(process.env.NQ ?? 8);
  const J = Number(process.env.J ?? 2);
  const mainCpu = () => { const s = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8'); const f = s.slice(s.lastIndexOf(')') + 2).split(' '); return (Number(f[11]) + Number(f[12])) / 100; };
  const cpu = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1e6; };
  const searcher = createSearcher({ model, concurrency: J });
  await searcher.warm();
  const ws = createWorkspace({ name: 'bench', searcher, resident: true, concurrency: J });
  const pooled = searcherMod.pooledFilesOf ? searcherMod.pooledFilesOf(searcher) : new Map();
  const answer = (r) => JSON.stringify({ results: r.results, files: r.stats.files, lines: r.stats.lines });
  const ask = async (q, mode) => {
    const t = performance.now(), c = cpu(), m = mainCpu(), files = pooled.size;
    const r = await searcher.search({ query: q, paths: [tree], topK: 10, ...(mode && { mode }) });
    return { wallMs: performance.now() - t, cpuS: cpu() - c, mainS: mainCpu() - m, files, json: answer(r) };
  };
  const label = path.basename(path.resolve(root));
  const first = await ask(QUESTIONS[0]);
  console.log(`${label}: answer 1 (no build yet) wall ${first.wallMs.toFixed(0)} ms, CPU ${first.cpuS.toFixed(2)} s (main ${first.mainS.toFixed(2)})`);
  // What the build pooled, kept aside (it lets go of them at publish) for the side-by-side after it.
  const seen = new Map();
  const copy = setInterval(() => { for (const [k, v] of pooled) seen.set(k, v); }, 50);
  const t0 = performance.now(), c0 = cpu();
  let built = false;
  const build = ws.index([tree]).then((rep) => { built = true; return rep; });
  const during = [];
  for (let i = 1; !built && i < 1 + nq * 4; i++) {
    const a = await ask(QUESTIONS[i % QUESTIONS.length]);
    if (built) break; // published under it: not an answer while building
    during.push({ q: QUESTIONS[i % QUESTIONS.length], ...a });
    console.log(`${label}: answer ${i + 1} while building: wall ${a.wallMs.toFixed(0)} ms, CPU ${a.cpuS.toFixed(2)} s (main ${a.mainS.toFixed(2)}), files pooled at its start ${a.files}`);
  }
  const rep = await build;
  clearInterval(copy);
  for (const [k, v] of pooled) seen.set(k, v);
  console.log(`${label}: build done after ${((performance.now() - t0) / 1000).toFixed(1)} s, process CPU ${(cpu() - c0).toFixed(1)} s (${rep.indexed} files), ${during.length} answers while building, load ${os.loadavg()[0].toFixed(1)}`);
  // The answers while building against a plain scan's (the files no longer keyed: none pooled now).
  const plainOf = new Map();
  for (const d of during) {
    if (!plainOf.has(d.q)) plainOf.set(d.q, (await ask(d.q)).json);
  }
  const differ = during.filter((d) => d.json !== plainOf.get(d.q)).length;
  console.log(`${label}: ${differ} of ${during.length} answers while building differ from a plain scan's`);
  if (process.env.KEEP_POOLED && searcherMod.pooledFilesOf) {
    // Registered as a build of the bench's own (a registry per build since left31; one map before it).
    const own = pooled.build ? pooled.build().files : pooled;
    const sums = { kept: [], plain: [] };
    const mains = { kept: [], plain: [] };
    let diff = 0;
    const modes = (process.env.MODES ?? 'hybrid').split(',');
    const asks = Array.from({ length: nq }, (_, i) => modes.map((m) => [QUESTIONS[i % QUESTIONS.length], m])).flat();
    for (let i = 0; i < asks.length; i++) {
      const [q, m] = asks[i];
      const runs = {};
      for (const mode of i % 2 ? ['plain', 'kept'] : ['kept', 'plain']) {
        if (mode === 'kept') for (const [k, v] of seen) own.set(k, v); else own.clear();
        runs[mode] = await ask(q, m);
        sums[mode].push(runs[mode].cpuS);
        mains[mode].push(runs[mode].mainS);
      }
      own.clear();
      if (runs.kept.json !== runs.plain.json) diff++;
      console.log(`${label}: "${q}" (${m}) CPU kept ${runs.kept.cpuS.toFixed(2)} s (main ${runs.kept.mainS.toFixed(2)}, wall ${runs.kept.wallMs.toFixed(0)} ms) against plain ${runs.plain.cpuS.toFixed(2)} s (main ${runs.plain.mainS.toFixed(2)}, wall ${runs.plain.wallMs.toFixed(0)} ms)`);
    }
    const sum = (xs) => xs.reduce((a, b) => a + b, 0);
    const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
    console.log(`${label}: all ${seen.size} files pooled: CPU sum ${sum(sums.kept).toFixed(1)} against ${sum(sums.plain).toFixed(1)} s (median ${med(sums.kept).toFixed(2)} / ${med(sums.plain).toFixed(2)}), main median ${med(mains.kept).toFixed(2)} / ${med(mains.plain).toFixed(2)}; ${diff} of ${asks.length} answers differ`);
  }
  console.log(`${label}: peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
  await ws.close();
  await searcher.close();
  if (process.env.OUT) writeFileSync(process.env.OUT + '-' + label + '.json', JSON.stringify(during.map((d) => ({ q: d.q, json: d.json }))));
}
