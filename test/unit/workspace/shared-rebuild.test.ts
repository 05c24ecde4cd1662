// One rebuild of the ranking snapshot shared by the loads that wait for it (workspace/build/shared-rebuild.ts):
// a load that gives up stops waiting at once, and the rebuild stops once every load waiting for it has given up,
// never while one still waits (or one waits with no signal: a search, an index run).
import { expect, it } from 'vitest';
import { SharedRebuild } from '../../../src/workspace/build/shared-rebuild.js';
import { emptySnapshot, type Snapshot } from '../../../src/workspace/snapshot/snapshot.js';

/** A rebuild of `steps` turns that reads its signal before each, as rebuildSnapshot does before each file. */
function rebuild(steps: number): { r: SharedRebuild; done: () => number } {
  let n = 0;
  const r = new SharedRebuild('1.1', async (stop) => {
    for (; n < steps; n++) {
      if (stop.aborted) throw new Error('stopped');
      await new Promise((res) => setTimeout(res, 1));
    }
    return emptySnapshot(4);
  });
  return { r, done: () => n };
}

it('stops once every load waiting with a signal has given up', async () => {
  const { r, done } = rebuild(10_000);
  const a = new AbortController();
  const b = new AbortController();
  const pa = r.wait(a.signal);
  const pb = r.wait(b.signal);
  a.abort();
  await expect(pa).rejects.toMatchObject({ code: 'ABORTED' });
  await new Promise((res) => setTimeout(res, 30));
  const after = done();
  expect(after).toBeGreaterThan(0); // b still waits: the rebuild goes on
  b.abort();
  await expect(pb).rejects.toMatchObject({ code: 'ABORTED' });
  await expect(r.done).rejects.toThrow('stopped');
  expect(done()).toBeLessThan(after + 40);
});

it('runs to its end for a load with no signal, and hands the others that did not give up the snapshot', async () => {
  const { r, done } = rebuild(20);
  const a = new AbortController();
  const b = new AbortController();
  const pa = r.wait(a.signal);
  const kept = r.wait();
  const pb = r.wait(b.signal);
  a.abort();
  await expect(pa).rejects.toMatchObject({ code: 'ABORTED' });
  const snap: Snapshot = await kept;
  expect(await pb).toBe(snap);
  expect(done()).toBe(20);
  // A signal aborted already is refused at once, and does not stop a rebuild that ended.
  const c = new AbortController();
  c.abort();
  await expect(r.wait(c.signal)).rejects.toMatchObject({ code: 'ABORTED' });
  expect(await r.done).toBe(snap);
});

it('a load that comes after every load gave up, before the rebuild read its stop (still in its first reads), takes the stop back and joins', async () => {
  // The store's reads (fileStates, chunkVectors) come before the first check: held here by a gate.
  let release!: () => void;
  const reads = new Promise<void>((res) => { release = res; });
  let checks = 0;
  const r = new SharedRebuild('1.1', async (stop) => {
    await reads;
    for (let i = 0; i < 5; i++) { checks++; if (stop.aborted) throw new Error('stopped'); await new Promise((res) => setTimeout(res, 1)); }
    return emptySnapshot(4);
  });
  const a = new AbortController();
  const pa = r.wait(a.signal);
  a.abort();
  await expect(pa).rejects.toMatchObject({ code: 'ABORTED' });
  // Not stopping yet: open.ts joins it rather than start a second beside it (before: stopped at once).
  expect(r.stopped).toBe(false);
  const b = new AbortController();
  const pb = r.wait(b.signal);
  release();
  const snap = await pb;
  expect(await r.done).toBe(snap);
  expect(checks).toBe(5);
});

it('a stop the rebuild read is final: it is stopped, and a load then is refused by it', async () => {
  let release!: () => void;
  const reads = new Promise<void>((res) => { release = res; });
  const r = new SharedRebuild('1.1', async (stop) => {
    await reads;
    if (stop.aborted) throw new Error('stopped');
    return emptySnapshot(4);
  });
  const a = new AbortController();
  const pa = r.wait(a.signal);
  a.abort();
  await expect(pa).rejects.toMatchObject({ code: 'ABORTED' });
  release();
  await expect(r.done).rejects.toThrow('stopped');
  expect(r.stopped).toBe(true);
});

// mend44: the rebuild turned the event loop every 50 ms (snapshot-rebuild.ts) whatever its loads, since SharedRebuild
// always passes a stop check; it is needed only while a load that waits could stop it.
it('says it can be stopped only while a load waits with a signal and none without', async () => {
  let stop: { stoppable?: boolean } = {};
  let go = () => {};
  const r = new SharedRebuild('1.1', async (s) => {
    stop = s;
    await new Promise<void>((res) => { go = res; });
    return emptySnapshot(4);
  });
  expect(stop.stoppable).toBe(false); // no load yet
  const a = new AbortController();
  const pa = r.wait(a.signal);
  expect(stop.stoppable).toBe(true);
  a.abort();
  await expect(pa).rejects.toMatchObject({ code: 'ABORTED' });
  expect(stop.stoppable).toBe(false); // none waits
  const pb = r.wait(new AbortController().signal);
  expect(stop.stoppable).toBe(true);
  const kept = r.wait();
  expect(stop.stoppable).toBe(false); // a load without a signal keeps it going to its end
  go();
  await Promise.all([pb, kept]);
});
