// A long run on the main thread (an index build in a resident engine) gives the event loop a turn every
// few milliseconds: awaiting work that is already done runs no timers and no I/O, so a build whose
// files were in the page cache held the loop for seconds at a time, and a status or search call of
// the engine waited for it (left35: stalls of 1-12 s at load ~14 on the bench tree).
import { setImmediate as turn } from 'node:timers/promises';

/** Milliseconds of a run's own work between turns of the event loop. */
export const TURN_EVERY_MS = 20;

/** A function that returns a turn of the event loop to await once TURN_EVERY_MS have passed since the last, else null. */
export function loopTurns(everyMs = TURN_EVERY_MS): () => Promise<void> | null {
  let last = performance.now();
  return () => {
    const now = performance.now();
    if (now - last < everyMs) return null;
    return turn().then(() => { last = performance.now(); });
  };
}
