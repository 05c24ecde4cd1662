// Samples a running process from /proc: peak RSS (VmHWM) and CPU seconds per thread, so the bench can
// tell main-thread work from worker work. Linux only; elsewhere every reading is simply absent.
import { readdirSync, readFileSync } from 'node:fs';

/** Kernel clock ticks per second for /proc/<pid>/stat times (USER_HZ is 100 on Linux). */
const TICKS_PER_S = 100;

export interface ProcSampler {
  /** Reads once; call on a timer. */
  sample(): void;
  readonly peakRssKb: number;
  /** CPU seconds of the main thread (tid == pid) at the last sample. */
  readonly mainCpuS: number;
  /** CPU seconds of the other threads at the last sample, busiest first. */
  readonly otherCpuS: number[];
}

function read(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** Under /usr/bin/time the measured program is the wrapper's only child. */
export function childPid(pid: number): number | null {
  const first = read(`/proc/${pid}/task/${pid}/children`)?.trim().split(/\s+/)[0];
  return first ? Number(first) : null;
}

export function createProcSampler(resolvePid: () => number | null): ProcSampler {
  let peakRssKb = 0;
  const ticks = new Map<number, number>();
  let pid: number | null = null;
  return {
    sample() {
      pid ??= resolvePid();
      if (pid === null) return;
      const hwm = /VmHWM:\s+(\d+) kB/.exec(read(`/proc/${pid}/status`) ?? '');
      if (hwm) peakRssKb = Math.max(peakRssKb, Number(hwm[1]));
      let tids: string[];
      try { tids = readdirSync(`/proc/${pid}/task`); } catch { return; }
      for (const tid of tids) {
        const stat = read(`/proc/${pid}/task/${tid}/stat`);
        if (!stat) continue;
        // Fields after "pid (comm) ": state is [0], utime [11], stime [12].
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        ticks.set(Number(tid), Number(f[11]) + Number(f[12]));
      }
    },
    get peakRssKb() { return peakRssKb; },
    get mainCpuS() { return pid !== null && ticks.has(pid) ? ticks.get(pid)! / TICKS_PER_S : NaN; },
    get otherCpuS() {
      return [...ticks].filter(([tid]) => tid !== pid).map(([, t]) => t / TICKS_PER_S).sort((a, b) => b - a);
    },
  };
}
