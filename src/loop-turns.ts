// Long work on the main thread gives the event loop a turn now and then: awaiting work that is already
// done runs no timers and no I/O. An index build in a resident engine held the loop for seconds, and a
// status or search call waited for it (left35: stalls of 1-12 s at load ~14 on the bench tree); a search
// or a snapshot rebuild that can be stopped saw a --timeout's timer or an MCP client's cancellation only
// after its last file (notes42, trust44). The one clock all three keep.

import { setImmediate as turn } from 'node:timers/promises';

/** Milliseconds of a resident index build's own work between turns (its engine's other calls wait no longer). */
export const TURN_EVERY_MS = 20;

/** Milliseconds of a search's or a snapshot rebuild's work between turns while a stop could come (a signal, a deadline). */
export const STOP_TURN_MS = 50;

export interface LoopTurns {
  /** Whether a turn is due: `everyMs` since the last and `when` holds (checked before each step: no await when not). */
  due(): boolean;
  /** A turn of the event loop; the clock starts again once it ends. */
  take(): Promise<void>;
}

/**
 * The turns of one run: `everyMs` between them (TURN_EVERY_MS by default); `when`, read at each check,
 * says whether the run takes any now (a search that nothing can stop does not).
 */
export function loopTurns(o: { everyMs?: number; when?: () => boolean } = {}): LoopTurns {
  const everyMs = o.everyMs ?? TURN_EVERY_MS;
  const when = o.when;
  let last = performance.now();
  return {
    due: () => (when === undefined || when()) && performance.now() - last >= everyMs,
    take: async () => { await turn(); last = performance.now(); },
  };
}
