// Preloaded (`NODE_OPTIONS=--import=.../warm-probe.mjs`, with WARM_PROBE_DIR set) into the MCP harness
// (dist/bench/mcp-agent.js), its `simgrep mcp` front and the resident engine: where a warm MCP call's wall
// time goes beyond the engine's main-thread CPU (issue 30, branch warm32; bench/mcp-hops/warm-stages.mjs
// reads what it writes). On each process's main thread only, stamped with the shared monotonic clock
// (process.hrtime, ms) and the thread's own [CPU, run-queue wait] so far (/proc schedstat, ms; the rest of
// the wall time it slept): every socket or pipe read ('in', with the tool a request names) and write
// ('out'); in the engine also every line of the debug timer (SIMGREP_DEBUG_TIMING=1: a search's stages,
// '[search] ' and '[mcp] '), every garbage collection (perf_hooks 'gc': start, duration, kind), and the
// event loop's turns while a call is under way (a setImmediate chain until the answer is written).
// Written to $WARM_PROBE_DIR/ROLE-PID.json at exit. WARM_AUTOGROUP=-15 (root, sched_autogroup): the engine,
// detached into a session of its own, gives its autogroup that niceness, as the harness's shell does with
// `echo -15 > /proc/self/autogroup`: near-idle runs on a shared machine. Only for the bench.
import net from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

const dir = process.env.WARM_PROBE_DIR;
const argv = process.argv.join(' ');
const role = !isMainThread ? null
  : / serve .*--mcp|--mcp .* serve/.test(argv) || (process.argv.includes('serve') && process.argv.includes('--mcp')) ? 'engine'
  : process.argv.includes('mcp') ? 'front'
  : /mcp-agent\.js/.test(process.argv[1] ?? '') ? 'client' : null;
if (dir && role) {
  const stat = `/proc/self/task/${process.pid}/schedstat`;
  const cpu = () => { const f = readFileSync(stat, 'utf8').split(' '); return [Number(f[0]) / 1e6, Number(f[1]) / 1e6]; };
  const now = () => Number(process.hrtime.bigint()) / 1e6;
  // performance.now() (the GC entries' clock) to the shared one.
  const shift = now() - performance.now();
  const ev = [];
  const stamp = (kind, extra) => ev.push([now(), cpu(), kind, extra]);
  let chain = 0;
  const write = net.Socket.prototype.write;
  net.Socket.prototype.write = function (chunk, ...rest) {
    stamp('out', typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length);
    chain++; // the call has answered: the turns' chain stops
    return write.call(this, chunk, ...rest);
  };
  const emit = net.Socket.prototype.emit;
  net.Socket.prototype.emit = function (e, ...args) {
    if (e === 'data') {
      const s = String(args[0]).slice(0, 400);
      const tool = /"name":"(search|find_related|index|status)"/.exec(s)?.[1] ?? null;
      stamp('in', tool);
      if (tool && role === 'engine') turns();
    }
    return emit.call(this, e, ...args);
  };
  if (role === 'engine') {
    if (process.env.WARM_AUTOGROUP) writeFileSync('/proc/self/autogroup', process.env.WARM_AUTOGROUP);
    const err = process.stderr.write;
    process.stderr.write = function (chunk, ...rest) {
      const s = String(chunk);
      if (s.startsWith('[search] ') || s.startsWith('[mcp] ')) stamp('mark', s.slice(s.indexOf(' ') + 1, s.indexOf(' ms (at ')));
      return err.call(this, chunk, ...rest);
    };
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) ev.push([e.startTime + shift, null, 'gc', [e.duration, e.detail?.kind ?? e.kind]]);
    }).observe({ entryTypes: ['gc'] });
  }
  // The loop's turns while a call runs: a chain of setImmediate until the next write (the answer), 2 s at most.
  function turns() {
    const mine = ++chain;
    const until = now() + 2000;
    const step = () => { if (mine !== chain || now() > until) return; ev.push([now(), null, 'turn', null]); setImmediate(step); };
    setImmediate(step);
  }
  process.on('exit', () => writeFileSync(`${dir}/${role}-${process.pid}.json`, JSON.stringify(ev)));
}
