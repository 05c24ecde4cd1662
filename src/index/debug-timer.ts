// Phase timings of index work on stderr with SIMGREP_DEBUG_TIMING=1: a development aid, silent and
// free otherwise.

/** Phase timings on stderr with SIMGREP_DEBUG_TIMING=1 (a development aid). */
export function timer(what: string): (phase: string) => void {
  if (!process.env.SIMGREP_DEBUG_TIMING) return () => {};
  let last = performance.now();
  return (phase) => {
    const now = performance.now();
    process.stderr.write(`[${what}] ${phase}: ${(now - last).toFixed(1)} ms\n`);
    last = now;
  };
}

