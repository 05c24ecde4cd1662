// The pool's search-first gate (issue 30: the first MCP answer of a cold directory came only when its
// background index build ended, the scan's batches queued behind the build's): a build's embeddings
// wait while a search scores, at most one per thread is queued, and a build alone is not held back.
import { describe, expect, it } from 'vitest';
import { createSearchFirstGate } from '../../src/pool.js';

/** A task that runs until released, logging when it starts. */
function task(log: string[], name: string) {
  let release!: () => void;
  const done = new Promise<void>((r) => { release = r; });
  return { run: async () => { log.push(name); await done; return name; }, release };
}
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('search-first gate', () => {
  it('a build alone runs one task per thread at a time', async () => {
    const gate = createSearchFirstGate(2);
    const log: string[] = [];
    const tasks = ['b1', 'b2', 'b3'].map((n) => task(log, n));
    const all = tasks.map((t) => gate.build(t.run));
    await tick();
    expect(log).toEqual(['b1', 'b2']);
    tasks[0].release();
    await tick(); await tick();
    expect(log).toEqual(['b1', 'b2', 'b3']);
    tasks[1].release(); tasks[2].release();
    expect(await Promise.all(all)).toEqual(['b1', 'b2', 'b3']);
  });

  it('scan_starved_by_background_build: build batches queued after a search starts wait until it has been quiet', async () => {
    const gate = createSearchFirstGate(1);
    const log: string[] = [];
    const b1 = task(log, 'b1');
    const b2 = task(log, 'b2');
    const s1 = task(log, 's1');
    const s2 = task(log, 's2');
    const first = gate.build(b1.run);
    await tick();
    const search1 = gate.search(s1.run);
    const second = gate.build(b2.run);
    b1.release();
    await tick(); await tick();
    // The search runs beside the build batch already queued; the next batch waits.
    expect(log).toEqual(['b1', 's1']);
    s1.release();
    await search1;
    // The pipeline's next batch comes within the quiet time: the build still waits.
    const search2 = gate.search(s2.run);
    await tick();
    expect(log).toEqual(['b1', 's1', 's2']);
    s2.release();
    await search2;
    await new Promise((r) => setTimeout(r, 60));
    expect(log).toEqual(['b1', 's1', 's2', 'b2']);
    b2.release();
    expect(await Promise.all([first, second])).toEqual(['b1', 'b2']);
  });
});
