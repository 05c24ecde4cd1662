// A local path a workspace holds is dropped (prune, an index run after a killed one) only when it is gone
// for good: ENOENT or ENOTDIR. One that cannot be reached now (a symlink loop: ELOOP, standing in for
// EACCES, which root's tests cannot stage) is kept; existsSync, used before, said false for both.
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { isGone } from '../../../src/sources/local-gone.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'simgrep-gone-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('only a path that does not exist, or under a part that is no longer a directory, is gone', () => {
  writeFileSync(path.join(dir, 'here.ts'), 'x\n');
  mkdirSync(path.join(dir, 'sub'));
  symlinkSync(path.join(dir, 'loop-b'), path.join(dir, 'loop-a'));
  symlinkSync(path.join(dir, 'loop-a'), path.join(dir, 'loop-b'));
  expect(isGone(path.join(dir, 'here.ts'))).toBe(false);
  expect(isGone(path.join(dir, 'sub'))).toBe(false);
  expect(isGone(path.join(dir, 'missing.ts'))).toBe(true);
  expect(isGone(path.join(dir, 'here.ts', 'inside.ts'))).toBe(true); // ENOTDIR
  const unreachable = path.join(dir, 'loop-a', 'file.ts'); // ELOOP
  expect(existsSync(unreachable)).toBe(false);
  expect(isGone(unreachable)).toBe(false);
});
