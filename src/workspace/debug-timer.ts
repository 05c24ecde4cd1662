// Phase timings of index work on stderr with SIMGREP_DEBUG_TIMING=1: a development aid, silent and
// free otherwise.
import { readFileSync } from 'node:fs';

/**
 * Phase timings on stderr with SIMGREP_DEBUG_TIMING=1 (a development aid). `memory: false`: without the memory
 * figures, for the phases of one search or MCP call: in a resident engine they cost a warm search ~2-3 ms of its
 * main thread's CPU (process.memoryUsage and /proc/self/status at each of ~14 marks, branch fixed43), so the
 * stages they timed (bench/mcp-hops/warm-probe.mjs) were each ~0.1-0.2 ms dearer than without the timer.
 */
export function timer(what: string, o: { memory?: boolean } = {}): (phase: string) => void {
  if (!process.env.SIMGREP_DEBUG_TIMING) return () => {};
  const memory = o.memory !== false;
  let last = performance.now();
  let lastCpu = mainThreadCpuMs();
  return (phase) => {
    const now = performance.now();
    const cpu = mainThreadCpuMs();
    // The main thread's own CPU time beside the wall time: steadier on a loaded machine.
    const onCpu = cpu >= 0 && lastCpu >= 0 ? `; main thread CPU ${(cpu - lastCpu).toFixed(1)} ms` : '';
    process.stderr.write(`[${what}] ${phase}: ${(now - last).toFixed(1)} ms (at ${now.toFixed(0)} ms since start${onCpu}${memory ? memoryNow() : ''})\n`);
    last = now;
    lastCpu = cpu;
  };
}

/** The process's memory now (its RSS, peak RSS, V8's heap and the memory outside it), as a timer line ends. */
function memoryNow(): string {
  const m = process.memoryUsage();
  return `; rss ${Math.round(m.rss / 1048576)} MB${peakRss()}, heap ${Math.round(m.heapUsed / 1048576)} MB, external ${Math.round((m.external + m.arrayBuffers) / 1048576)} MB`;
}

/** CPU time the main thread has run, in ms, where the system says (Linux's schedstat, in ns); else -1. */
function mainThreadCpuMs(): number {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return -1;
  }
}

/** The process's peak RSS so far, where the system says (Linux): which phase set a build's peak. */
function peakRss(): string {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    return kb ? `, peak ${Math.round(Number(kb) / 1024)} MB` : '';
  } catch {
    return '';
  }
}
