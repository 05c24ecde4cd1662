// Progress while a search runs: the counts so far at most every 100 ms, and the read that has waited
// longest, so a slow or stuck source shows on the terminal (it also ticks while nothing arrives).
import type { PipelineOptions, SearchStats } from './types.js';

export class Progress {
  /** Files being read now, and since when: shown on progress, named when the deadline stops the search. */
  readonly reading = new Map<string, number>();
  private last = 0;
  private readonly ticker: NodeJS.Timeout | null;

  constructor(private readonly onProgress: PipelineOptions['onProgress'], private readonly stats: SearchStats, private readonly started: number) {
    this.ticker = onProgress ? setInterval(() => this.report(), 250) : null;
    this.ticker?.unref();
  }

  report(): void {
    if (!this.onProgress) return;
    const now = performance.now();
    if (now - this.last < 100) return;
    this.last = now;
    // The oldest read still open: what a stalled search is waiting on.
    const [oldest] = this.reading;
    this.onProgress({ ...this.stats, ms: now - this.started, ...(oldest && { waitingOn: { path: oldest[0], ms: now - oldest[1] } }) });
  }

  stop(): void {
    if (this.ticker) clearInterval(this.ticker);
  }
}
