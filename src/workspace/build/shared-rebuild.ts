// One rebuild of the ranking snapshot from the store, shared by the loads that need it at once (open.ts
// loadSnapshot), and stopped once every load that waits for it has given up: a status cancelled by its
// client (an MCP `status`) stopped only after reading every file of the store (trust43).
import { SimgrepError } from '../../errors.js';
import type { Snapshot } from '../snapshot/snapshot.js';

/** What a rebuild reads between its steps: true once it must stop (AbortSignal has this shape). */
export interface StopCheck {
  readonly aborted: boolean;
  /**
   * Whether a load waiting now could still stop it (one waits with a signal, none without): only then does the
   * rebuild let the event loop turn for a stop to be seen (snapshot-rebuild.ts). Absent (an AbortSignal): true.
   */
  readonly stoppable?: boolean;
}

export class SharedRebuild {
  /** Loads waiting with a signal not yet aborted. */
  private waiting = 0;
  /** A load waits with no signal: the rebuild runs to its end. */
  private kept = false;
  /** Every load gave up: the rebuild is to stop at its next check, unless a load comes first and takes it back. */
  private asked = false;
  /** The rebuild saw `asked` at a check and is stopping: past taking back. */
  private acted = false;
  readonly done: Promise<Snapshot>;

  /**
   * `run` rebuilds, reading `stop.aborted` between its steps (true once every load has given up). The stop is
   * a request the run acts on at its next check: a load that comes before takes it back and joins (trust43
   * review: a status after a cancelled one found the first still in the store's reads, which do not check,
   * and started a second beside it: two copies of every chunk vector in memory).
   */
  constructor(readonly version: Snapshot['version'], run: (stop: StopCheck) => Promise<Snapshot>) {
    const self = this;
    this.done = run({
      get aborted() { if (self.asked) self.acted = true; return self.acted; },
      get stoppable() { return self.waiting > 0 && !self.kept; },
    });
    this.done.catch(() => {});
  }

  /** The rebuild is stopping (it saw that every load gave up): a load that comes now starts another. */
  get stopped(): boolean {
    return this.acted;
  }

  /** The rebuilt snapshot, or ABORTED as soon as `signal` aborts (the rebuild stops if no other load waits). */
  wait(signal?: AbortSignal): Promise<Snapshot> {
    if (signal?.aborted) return Promise.reject(rebuildAborted());
    // A load before the run acted on a stop takes the stop back (open.ts joins only a rebuild not `stopped`).
    this.asked = false;
    if (!signal) { this.kept = true; return this.done; }
    this.waiting++;
    return new Promise<Snapshot>((resolve, reject) => {
      let over = false;
      const end = (): boolean => {
        if (over) return false;
        over = true;
        this.waiting--;
        signal.removeEventListener('abort', giveUp);
        return true;
      };
      const giveUp = () => {
        if (!end()) return;
        if (this.waiting === 0 && !this.kept) this.asked = true;
        reject(rebuildAborted());
      };
      signal.addEventListener('abort', giveUp, { once: true });
      this.done.then((s) => { if (end()) resolve(s); }, (e: unknown) => { if (end()) reject(e); });
    });
  }
}

/** The ABORTED of a load that gave up waiting for a rebuild (or came with its signal aborted already). */
export function rebuildAborted(): SimgrepError {
  return new SimgrepError('ABORTED', 'aborted while the ranking snapshot was rebuilt from the index');
}
