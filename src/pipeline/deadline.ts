// The overall time budget of a search (--timeout): one signal for the sources (the caller's abort or
// the deadline, whichever comes first), and waits that end when the deadline fires, even on a read
// that never returns (a stuck pipe or server).

/** Thrown inside the pipeline when the deadline fires; caught at the top, never escapes. `note`: what it cut, for the TIMEOUT warning. */
export class DeadlineReached extends Error {
  constructor(readonly note?: string) { super(); }
}

export class Deadline {
  /** What the sources read under. */
  readonly readSignal: AbortSignal | undefined;
  private readonly fired: Promise<never> | null;

  constructor(private readonly budget: { signal: AbortSignal; seconds: number } | undefined, signal: AbortSignal | undefined) {
    this.readSignal = budget ? (signal ? eitherSignal(signal, budget.signal) : budget.signal) : signal;
    this.fired = budget
      ? new Promise<never>((_, reject) => {
          const fire = () => reject(new DeadlineReached());
          if (budget.signal.aborted) fire(); else budget.signal.addEventListener('abort', fire, { once: true });
        })
      : null;
    this.fired?.catch(() => {});
  }

  get reached(): boolean {
    return this.budget?.signal.aborted === true;
  }

  get seconds(): number {
    return this.budget?.seconds ?? Infinity;
  }

  /** `p`, or a DeadlineReached rejection once the deadline fires first. */
  until<T>(p: Promise<T>): Promise<T> {
    return this.fired ? Promise.race([p, this.fired]) : p;
  }
}

/** A signal that aborts when either does (AbortSignal.any, which Node 20.0-20.2 lack). */
function eitherSignal(a: AbortSignal, b: AbortSignal): AbortSignal {
  if (typeof AbortSignal.any === 'function') return AbortSignal.any([a, b]);
  const both = new AbortController();
  const fire = (s: AbortSignal) => () => both.abort(s.reason);
  if (a.aborted || b.aborted) both.abort((a.aborted ? a : b).reason);
  a.addEventListener('abort', fire(a), { once: true });
  b.addEventListener('abort', fire(b), { once: true });
  return both.signal;
}
