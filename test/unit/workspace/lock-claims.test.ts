// The in-process lock queue's record of who waits (lock.ts): index runs and prunes (runInProcess), and the files
// searches' saves claim (claimedInProcess), which a search that found only those changed waits for (save42).
import { expect, it } from 'vitest';
import { busyInProcess, claimedInProcess, inProcess, runInProcess } from '../../../src/workspace/lock.js';

it('a search waits only for saves that claim every file it found changed; runs and claims are counted apart, and cleared as each call ends', async () => {
  const f = '/tmp/simgrep-lock-claims-unit';
  let release!: () => void;
  const a = inProcess(f, () => new Promise<void>((r) => { release = r; }), { claims: ['/t/big/a', '/t/big/b'] });
  const b = inProcess(f, async () => undefined, { claims: ['/t/big/c'] });
  expect([busyInProcess(f), runInProcess(f)]).toEqual([true, false]);
  expect(claimedInProcess(f, ['/t/big/a'])).toBe(true);
  expect(claimedInProcess(f, ['/t/big/b', '/t/big/c'])).toBe(true); // across two saves
  // Before: no such question; every search beside a save waited for it, whatever its paths.
  expect(claimedInProcess(f, ['/t/big/a', '/t/small/s0'])).toBe(false);
  expect(claimedInProcess('/tmp/simgrep-lock-claims-other', ['/t/big/a'])).toBe(false);
  const run = inProcess(f, async () => { throw new Error('run fails'); }).catch((e: Error) => e.message);
  expect(runInProcess(f)).toBe(true);
  await new Promise((r) => setImmediate(r));
  release();
  await a;
  expect(claimedInProcess(f, ['/t/big/a'])).toBe(false); // its save ended
  expect(claimedInProcess(f, ['/t/big/c'])).toBe(true);
  await b;
  expect(await run).toBe('run fails');
  expect([busyInProcess(f), runInProcess(f), claimedInProcess(f, ['/t/big/c'])]).toEqual([false, false, false]);
});
