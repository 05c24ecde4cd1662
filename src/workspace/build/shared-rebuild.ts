// One rebuild of the ranking snapshot from the store, shared by the loads that need it at once (open.ts
// loadSnapshot), and stopped once every load that waits for it has given up: a status cancelled by its
// client (an MCP `status`) stopped only after reading every file of the store (trust43).
import { SimgrepError } from '../../errors.js';
import type { Snapshot } from '../snapshot/snapshot.js';

export class SharedRebuild {
  /** Loads waiting with a signal not yet aborted. */
  private waiting = 0;
  /** A load waits with no signal: the rebuild runs to its end. */
  private kept = false;
  private readonly stop = new AbortController();
  readonly done: Promise<Snapshot>;

  /** `run` rebuilds, reading `signal` (aborted once every load has given up) between its files. */
  constructor(readonly version: Snapshot['version'], run: (signal: AbortSignal) => Promise<Snapshot>) {
    this.done = run(this.stop.signal);
    this.done.catch(() => {});
  }

  /** Every load waiting for it gave up: it is stopping, and a load that comes now starts another. */
  get stopped(): boolean {
    return this.stop.signal.aborted;
  }

  /** The rebuilt snapshot, or ABORTED as soon as `signal` aborts (the rebuild stops if no other load waits). */
  wait(signal?: AbortSignal): Promise<Snapshot> {
    if (!signal) { this.kept = true; return this.done; }
    if (signal.aborted) return Promise.reject(aborted());
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
        if (this.waiting === 0 && !this.kept) this.stop.abort();
        reject(aborted());
      };
      signal.addEventListener('abort', giveUp, { once: true });
      this.done.then((s) => { if (end()) resolve(s); }, (e: unknown) => { if (end()) reject(e); });
    });
  }
}

function aborted(): SimgrepError {
  return new SimgrepError('ABORTED', 'aborted while the ranking snapshot was rebuilt from the index');
}
