// The pool's search-first gate (issue 30: the first MCP answer of a cold directory came only when its
// background index build ended, the scan's batches queued behind the build's): while a search scores
// (and briefly after) a build keeps one batch in flight, so the search has most of the workers and the
// build still moves on; otherwise a build queues one batch per thread.
import { describe, expect, it } from 'vitest';
import { createSearchFirstGate } from '../../src/pool.js';

/** A task that runs until released, logging when it starts. */
function task(log: string[], name: string) {
  let release!: () => void;
  const done = new Promise<void>((r) => { release = r; });
  return { run: async () => { log.push(name); await done; return name; }, release };
}
const tick = async () => { for (let i = 0; i < 3; i++) await new Promise((r) => setTimeout(r, 0)); };

describe('search-first gate', () => {
  it('a build alone runs one batch per thread at a time', async () => {
    const gate = createSearchFirstGate(2);
    const log: string[] = [];
    const tasks = ['b1', 'b2', 'b3'].map((n) => task(log, n));
    const all = tasks.map((t) => gate.build(t.run));
    await tick();
    expect(log).toEqual(['b1', 'b2']);
    tasks[0].release();
    await tick();
    expect(log).toEqual(['b1', 'b2', 'b3']);
    tasks[1].release(); tasks[2].release();
    expect(await Promise.all(all)).toEqual(['b1', 'b2', 'b3']);
  });

  it('scan_starved_by_background_build: during a search a build keeps one batch in flight, and gets the threads back once it has been quiet', async () => {
    const gate = createSearchFirstGate(2);
    const log: string[] = [];
    const [b1, b2, b3, b4, b5] = ['b1', 'b2', 'b3', 'b4', 'b5'].map((n) => task(log, n));
    const [s1, s2] = ['s1', 's2'].map((n) => task(log, n));
    const builds = [gate.build(b1.run), gate.build(b2.run)];
    await tick();
    const search1 = gate.search(s1.run);
    builds.push(gate.build(b3.run), gate.build(b4.run), gate.build(b5.run));
    await tick();
    expect(log).toEqual(['b1', 'b2', 's1']);
    b1.release();
    await tick();
    // One build batch is still in flight (b2): the next waits.
    expect(log).toEqual(['b1', 'b2', 's1']);
    b2.release();
    await tick();
    expect(log).toEqual(['b1', 'b2', 's1', 'b3']);
    s1.release();
    await search1;
    // The pipeline's next batch comes within the quiet time: still one build batch at a time.
    const search2 = gate.search(s2.run);
    b3.release();
    await tick();
    expect(log).toEqual(['b1', 'b2', 's1', 'b3', 's2', 'b4']);
    s2.release();
    await search2;
    await new Promise((r) => setTimeout(r, 60));
    expect(log).toEqual(['b1', 'b2', 's1', 'b3', 's2', 'b4', 'b5']);
    b4.release(); b5.release();
    expect(await Promise.all(builds)).toEqual(['b1', 'b2', 'b3', 'b4', 'b5']);
  });
});
