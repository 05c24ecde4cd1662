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
// - a front that went away drops its calls still waiting (one shared with another front still runs).

/** What a call that runs gives its callers. */
export interface CallTurns<T> {
  /** Runs `run` in `front`'s turn, or answers with the run of an identical call (`key`; null: never shared) still waiting. */
  take(front: number, key: string | null, run: () => Promise<T>): Promise<T>;
  /** `front` went away: its calls still waiting are answered with `answer` (no one reads it) and not run unless shared. */
  leave(front: number, answer: T): void;
  /** Calls waiting for their turn (not counting the one running). */
  readonly waiting: number;
}

interface Waiter<T> { front: number; resolve(v: T): void; reject(e: unknown): void }
interface Job<T> { key: string | null; run: () => Promise<T>; waiters: Waiter<T>[] }

/** `onShared`: said when a run answers more than one call (the engine's log). */
export function createCallTurns<T>(onShared?: (key: string, callers: number) => void): CallTurns<T> {
  /** Waiting, in the order they came. */
  const jobs: Job<T>[] = [];
  /** The turn at which each front was last served (-1: never, or not since it came). */
  const servedAt = new Map<number, number>();
  let turn = 0;
  let busy = false;

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
    if (busy || jobs.length === 0) return;
    const [job] = jobs.splice(pick(), 1);
    busy = true;
    turn++;
    for (const w of job.waiters) servedAt.set(w.front, turn);
    if (job.key !== null && job.waiters.length > 1) onShared?.(job.key, job.waiters.length);
    void Promise.resolve().then(job.run).then(
      (v) => { for (const w of job.waiters) w.resolve(v); },
      (e: unknown) => { for (const w of job.waiters) w.reject(e); },
    ).finally(() => { busy = false; next(); });
  }

  return {
    take(front, key, run) {
      return new Promise<T>((resolve, reject) => {
        const waiter = { front, resolve, reject };
        const same = key === null ? undefined : jobs.find((j) => j.key === key);
        if (same) same.waiters.push(waiter);
        else jobs.push({ key, run, waiters: [waiter] });
        next();
      });
    },
    leave(front, answer) {
      servedAt.delete(front);
      for (let i = jobs.length - 1; i >= 0; i--) {
        const j = jobs[i];
        for (const w of j.waiters.filter((x) => x.front === front)) w.resolve(answer);
        j.waiters = j.waiters.filter((x) => x.front !== front);
        if (j.waiters.length === 0) jobs.splice(i, 1);
      }
    },
    get waiting() { return jobs.reduce((n, j) => n + j.waiters.length, 0); },
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
