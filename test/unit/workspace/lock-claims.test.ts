// The in-process lock queue's record of who waits (lock.ts waitsBehind): index runs and prunes, and the files
// searches' saves claim, which a search that found only those changed waits for (save42).
import { expect, it } from 'vitest';
import { inProcess, waitsBehind } from '../../../src/workspace/lock.js';

it('a search waits only for saves that claim every file it found changed; runs and claims are counted apart, and cleared as each call ends', async () => {
  const f = '/tmp/simgrep-lock-claims-unit';
  expect(waitsBehind(f, ['/t/big/a'])).toBe('nothing');
  let release!: () => void;
  const a = inProcess(f, () => new Promise<void>((r) => { release = r; }), { claims: ['/t/big/a', '/t/big/b'] });
  const b = inProcess(f, async () => undefined, { claims: ['/t/big/c'] });
  expect(waitsBehind(f, [])).toBe('saves');
  expect(waitsBehind(f, ['/t/big/a'])).toBe('saves');
  expect(waitsBehind(f, ['/t/big/b', '/t/big/c'])).toBe('saves'); // across two saves
  // Before save42: no such question; every search beside a save waited for it, whatever its paths.
  expect(waitsBehind(f, ['/t/big/a', '/t/small/s0'])).toBe('other');
  expect(waitsBehind('/tmp/simgrep-lock-claims-other', ['/t/big/a'])).toBe('nothing');
  await new Promise((r) => setImmediate(r));
  release();
  await a;
  expect(waitsBehind(f, ['/t/big/a'])).toBe('other'); // its save ended: only the save of c is left
  expect(waitsBehind(f, ['/t/big/c'])).toBe('saves');
  // An index run or a prune waiting too: whatever the files, the search does not wait behind it.
  const run = inProcess(f, async () => { throw new Error('run fails'); }).catch((e: Error) => e.message);
  expect(waitsBehind(f, ['/t/big/c'])).toBe('other');
  expect(waitsBehind(f, [])).toBe('other');
  await b;
  expect(await run).toBe('run fails');
  expect([waitsBehind(f, []), waitsBehind(f, ['/t/big/c'])]).toEqual(['nothing', 'nothing']);
});
