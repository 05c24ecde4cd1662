// Phase timings of index work on stderr with SIMGREP_DEBUG_TIMING=1: a development aid, silent and
// free otherwise.
import { readFileSync } from 'node:fs';

/** Phase timings on stderr with SIMGREP_DEBUG_TIMING=1 (a development aid). */
export function timer(what: string): (phase: string) => void {
  if (!process.env.SIMGREP_DEBUG_TIMING) return () => {};
  let last = performance.now();
  return (phase) => {
    const now = performance.now();
    const m = process.memoryUsage();
    process.stderr.write(`[${what}] ${phase}: ${(now - last).toFixed(1)} ms (at ${now.toFixed(0)} ms since start; rss ${Math.round(m.rss / 1048576)} MB${peakRss()}, heap ${Math.round(m.heapUsed / 1048576)} MB, external ${Math.round((m.external + m.arrayBuffers) / 1048576)} MB)\n`);
    last = now;
  };
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
