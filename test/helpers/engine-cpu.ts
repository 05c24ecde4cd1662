// A spawned engine's CPU time read from /proc (Linux), and a wait for it to go quiet: a log line saying the
// made-up searches ended does not mean the engine is idle (the chunk warm-up and the start's keeping of the
// prose documents run after them: 840 ms of CPU in an idle 3 s, review of start42); both, for an engine
// started over an index built earlier (untilWarmedUp).
import { readFileSync } from 'node:fs';

/** The process's CPU time so far, user and system, in ms (clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

/**
 * Waits until `pid` spends less than `underMs` of CPU over `windowMs` (default: < 20 ms over 500 ms), at most
 * `boundMs`; throws then, with the last window's figure.
 */
export async function untilQuiet(pid: number, o: { underMs?: number; windowMs?: number; boundMs?: number } = {}): Promise<void> {
  const { underMs = 20, windowMs = 500, boundMs = 60_000 } = o;
  let spent = Infinity;
  for (const end = Date.now() + boundMs; Date.now() < end;) {
    const from = cpuMs(pid);
    await new Promise((r) => setTimeout(r, windowMs));
    spent = cpuMs(pid) - from;
    if (spent < underMs) return;
  }
  throw new Error(`process ${pid} did not go quiet in ${boundMs / 1000} s: ${spent} ms of CPU in the last ${windowMs} ms`);
}

/**
 * Waits until an engine started over an index built earlier has ended its made-up searches (its log says so,
 * `log` reads it; at most 90 s) and then gone quiet: the tests that count its CPU start from there.
 */
export async function untilWarmedUp(pid: number, log: () => string): Promise<void> {
  for (const end = Date.now() + 90_000; !/made-up searches over the index of workspace \S+: \d+ ran/.test(log());) {
    if (Date.now() > end) throw new Error(`the engine's made-up searches did not end in 90 s: ${log()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  await untilQuiet(pid);
}
