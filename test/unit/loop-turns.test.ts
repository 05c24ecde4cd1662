// A long run gives the event loop a turn every few ms (src/loop-turns.ts): a timer set before a busy stretch
// fires during it, not after (an index build held a resident engine's loop for seconds: left35).
import { describe, expect, it } from 'vitest';
import { loopTurns } from '../../src/loop-turns.js';

describe('loopTurns', () => {
  it('no turn before everyMs, one after; a timer runs inside a busy loop that takes its turns', async () => {
    const turns = loopTurns({ everyMs: 5 });
    expect(turns.due()).toBe(false);
    let fired = -1;
    setTimeout(() => { fired = performance.now(); }, 0);
    let turnsTaken = 0;
    // 60 steps of at least 1 ms of synchronous work, as a build's files come one after another. Counted in
    // steps, not 60 ms of wall time: at a load of 14 a step stalled past the window and 3 turns came in it.
    // Each step takes 1 ms or more, so no 5 steps in a row pass without a turn (10 turns or more), and the timer fires
    // by the second turn: 40 steps (ms) or more before the end.
    for (let step = 0; step < 60; step++) {
      const t0 = performance.now();
      while (performance.now() - t0 < 1) { /* busy */ }
      if (turns.due()) { turnsTaken++; await turns.take(); }
    }
    const end = performance.now();
    expect(turnsTaken).toBeGreaterThan(3);
    expect(fired).toBeGreaterThan(0);
    expect(fired).toBeLessThan(end - 20);
  });

  it('takes no turn while `when` says no, and one once it says yes', async () => {
    let stoppable = false;
    // 30 ms between turns: the check right after a turn must find the clock started again, and at CI's load
    // more than 1 ms (the first form's period) passed between the turn's end and that check.
    const turns = loopTurns({ everyMs: 30, when: () => stoppable });
    const t0 = performance.now();
    while (performance.now() - t0 < 35) { /* busy */ }
    expect(turns.due()).toBe(false);
    stoppable = true;
    expect(turns.due()).toBe(true);
    await turns.take();
    expect(turns.due()).toBe(false); // the clock started again
  });
});
