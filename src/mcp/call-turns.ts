// The resident engine's read-only tool calls (search, find_related, status) of all its fronts, in turns.
// They run one at a time (engine.ts says why), and:
// - the fronts take turns: the next call to run is the oldest waiting one of the front served longest
//   ago, so one agent's burst of calls never holds another agent's call behind all of it;
// - a call identical to one still waiting for its turn (the same tool and the same arguments, from any
//   front: `callKey`) waits with it and gets its answer. After the engine is restarted (killed, idle)
//   every front re-sends what it had asked, and agents ask the same things: before this each identical
//   call was a scan of its own, one after another (trial39: 24, 39, 85 s, the last past the MCP client's
//   60 s timeout). A call never joins one already running: that one may have read a file (or checked the
//   index's freshness) before an edit the later caller made and expects to see. A run that starts after
//   every caller asked gives each of them the answer its own run would have given at that moment: the
//   same index state, the freshness it reports, the files as they were then.
// - a front that went away drops its calls still waiting (one shared with another front still runs);
// - a call its client cancelled is answered at once and leaves its run: a run no caller waits for any
//   more is not started, or, running, has its signal aborted and keeps the turn until it has wound down (a
//   scan stops at its next file; a search's save of changed files runs to its end, and a call run beside
//   it would answer from the index before it: mend41b); one that another caller still waits for goes on
//   for that caller.

/** What a call that runs gives its callers. */
export interface CallTurns<T> {
  /**
   * Runs `run` in `front`'s turn, or answers with the run of an identical call (`key`; null: never shared)
   * still waiting. `run`'s signal aborts once every call it answers was cancelled; `cancel`: this call's
   * client gave up (its signal), and what it is answered with then.
   */
  take(front: number, key: string | null, run: (signal: AbortSignal) => Promise<T>, cancel?: { signal: AbortSignal; answer: T }): Promise<T>;
  /** `front` went away: its calls are answered with `answer` (no one reads it) and cancelled: not run, or stopped, unless shared. */
  leave(front: number, answer: T): void;
  /** Calls waiting for their turn (not counting the one running). */
  readonly waiting: number;
  /** Settles once no run is under way, a cancelled one winding down included. */
  settled(): Promise<void>;
}

interface Waiter<T> { front: number; resolve(v: T): void; reject(e: unknown): void; off?(): void }
interface Job<T> { key: string | null; run: (signal: AbortSignal) => Promise<T>; waiters: Waiter<T>[]; stop: AbortController }

/**
 * `onShared`: said when a run answers more than one call; `onCancelled`: said when a cancelled call leaves
 * a run, with how many callers still wait for it (0: the run is not started, or stopped) (the engine's log).
 */
export function createCallTurns<T>(onShared?: (key: string, callers: number) => void, onCancelled?: (key: string | null, left: number, running: boolean) => void): CallTurns<T> {
  /** Waiting, in the order they came. */
  const jobs: Job<T>[] = [];
  /** The turn at which each front was last served (-1: never, or not since it came). */
  const servedAt = new Map<number, number>();
  let turn = 0;
  /** The run that holds the turn (a cancelled one winding down included), and when it has ended. */
  let current: Job<T> | null = null;
  let ended: Promise<void> | null = null;

  /** The job of the front served longest ago; of that front, its oldest (the order calls came breaks ties). */
  function pick(): number {
    let best = -1;
    let bestAt = Infinity;
    jobs.forEach((j, i) => {
      for (const w of j.waiters) {
        const at = servedAt.get(w.front) ?? -1;
        if (at < bestAt) { best = i; bestAt = at; }
      }
    });
    return best;
  }

  function next(): void {
    if (current || jobs.length === 0) return;
    const [job] = jobs.splice(pick(), 1);
    current = job;
    turn++;
    for (const w of job.waiters) servedAt.set(w.front, turn);
    if (job.key !== null && job.waiters.length > 1) onShared?.(job.key, job.waiters.length);
    ended = Promise.resolve().then(() => job.run(job.stop.signal)).then(
      (v) => { for (const w of job.waiters.splice(0)) { w.off?.(); w.resolve(v); } },
      (e: unknown) => { for (const w of job.waiters.splice(0)) { w.off?.(); w.reject(e); } },
    ).finally(() => {
      current = null;
      ended = null;
      next();
    });
  }

  /** `w` leaves the job it waits in (waiting or running), answered with `answer`; a job no one waits for is dropped or stopped. */
  function drop(w: Waiter<T>, answer: T): void {
    const job = current?.waiters.includes(w) ? current : jobs.find((j) => j.waiters.includes(w));
    if (!job) return;
    job.waiters.splice(job.waiters.indexOf(w), 1);
    w.off?.();
    w.resolve(answer);
    const running = job === current;
    onCancelled?.(job.key, job.waiters.length, running);
    if (job.waiters.length > 0) return;
    if (!running) { jobs.splice(jobs.indexOf(job), 1); return; }
    // No caller is left: the run stops, and keeps its turn until it has (cancel41 passed the turn now: the
    // next search ran beside a save still writing, and answered from the index before it, saying fresh).
    job.stop.abort();
  }

  return {
    take(front, key, run, cancel) {
      if (cancel?.signal.aborted) { onCancelled?.(key, 0, false); return Promise.resolve(cancel.answer); }
      return new Promise<T>((resolve, reject) => {
        const waiter: Waiter<T> = { front, resolve, reject };
        if (cancel) {
          const onAbort = () => drop(waiter, cancel.answer);
          cancel.signal.addEventListener('abort', onAbort, { once: true });
          waiter.off = () => cancel.signal.removeEventListener('abort', onAbort);
        }
        const same = key === null ? undefined : jobs.find((j) => j.key === key);
        if (same) same.waiters.push(waiter);
        else jobs.push({ key, run, waiters: [waiter], stop: new AbortController() });
        next();
      });
    },
    leave(front, answer) {
      servedAt.delete(front);
      for (const j of [...jobs, ...current ? [current] : []]) {
        for (const w of j.waiters.filter((x) => x.front === front)) drop(w, answer);
      }
    },
    get waiting() { return jobs.reduce((n, j) => n + j.waiters.length, 0); },
    async settled() {
      while (ended) await ended;
    },
  };
}

/** Tools whose calls may share an answer: they read, and their answer is theirs and their arguments' alone. */
const SHARED_TOOLS = new Set(['search', 'find_related', 'status']);

/**
 * The identity of a call whose answer may be shared, or null. The arguments as the server checked
 * them, every one (query, directory, filters, top_k/k, mode, n_lines, max_tokens, show_preview,
 * per_file, ...), keys sorted: the answer depends on nothing else but the engine's root (one per
 * engine) and the state of the index and files when it runs, which a run that starts after every
 * caller asked gives each of them.
 */
export function callKey(tool: string, args: Record<string, unknown>): string | null {
  return SHARED_TOOLS.has(tool) ? JSON.stringify([tool, sorted(args)]) : null;
}

function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])]));
}
