// A long run gives the event loop a turn every few ms (loop-turns.ts): a timer set before a busy stretch
// fires during it, not after (an index build held a resident engine's loop for seconds: left35).
import { describe, expect, it } from 'vitest';
import { loopTurns } from '../../../../src/workspace/build/loop-turns.js';

describe('loopTurns', () => {
  it('no turn before everyMs, one after; a timer runs inside a busy loop that takes its turns', async () => {
    const turns = loopTurns(5);
    expect(turns()).toBeNull();
    let fired = -1;
    setTimeout(() => { fired = performance.now(); }, 0);
    const start = performance.now();
    let turnsTaken = 0;
    // 60 ms of synchronous work in 1 ms steps, as a build's files come one after another.
    while (performance.now() - start < 60) {
      const t0 = performance.now();
      while (performance.now() - t0 < 1) { /* busy */ }
      const t = turns();
      if (t) { turnsTaken++; await t; }
    }
    const end = performance.now();
    expect(turnsTaken).toBeGreaterThan(3);
    expect(fired).toBeGreaterThan(0);
    expect(fired).toBeLessThan(end - 20);
  });
});
