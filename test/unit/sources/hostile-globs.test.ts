// A hostile pattern must not hang a walk: the `ignore` package's and picomatch's regular expressions
// took time exponential in the stars of one segment (a .gitignore line a*a*a*a*a*a*a*b against a name
// of 60 a's: 4 s; one star more, minutes), in the main thread, where no --timeout or cancel stops them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createFsSource } from '../../../src/sources/fs.js';
import { checkGlob, compileGlobs } from '../../../src/sources/glob-filter.js';
import { IgnoreStack } from '../../../src/sources/ignore-rules.js';

const HOSTILE = 'a*a*a*a*a*a*a*b';
const LONG = 'a'.repeat(60);
/** CPU milliseconds of f (not wall time: the machine is shared). */
function cpuMs<T>(f: () => T): [T, number] {
  const start = process.cpuUsage();
  const r = f();
  const used = process.cpuUsage(start);
  return [r, (used.user + used.system) / 1000];
}

let root: string;
beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'simgrep-hostile-globs-'));
  // (Stars and names sized for the old code to fail in seconds; test/e2e/hostile.test.ts has the ones that hung it.)
  writeFileSync(path.join(root, '.gitignore'), `${HOSTILE}\n`);
  writeFileSync(path.join(root, LONG), 'x\n');
  writeFileSync(path.join(root, `${LONG}c`), 'x\n');
  mkdirSync(path.join(root, 'sub'));
  writeFileSync(path.join(root, 'sub', `${LONG}b`), 'x\n');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('hostile globs take time polynomial in the name and pattern', () => {
  it('a .gitignore line of many stars against long names (was 4 s a name; one star more, minutes)', async () => {
    const stack = await IgnoreStack.empty().enter(root);
    const [verdicts, ms] = cpuMs(() => [LONG, `${LONG}c`, `sub/${LONG}b`].map((n) => stack.ignores(path.join(root, n), false)));
    expect(verdicts).toEqual([false, false, true]);
    expect(ms).toBeLessThan(200);
  });

  it('long .gitignore lines of [, of spaces, of backslashes parse in linear time (the old code: quadratic, 3 s a line of 40,000)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'simgrep-long-lines-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const n = 40_000;
    writeFileSync(path.join(dir, '.gitignore'), ['['.repeat(n) + 'x', `a${' '.repeat(n)}x`, `${'\\'.repeat(n)} x`, `${' '.repeat(n)}x`].join('\n'));
    const start = process.cpuUsage();
    const stack = await IgnoreStack.empty().enter(dir);
    const ignored = stack.ignores(path.join(dir, 'x'), false);
    const used = process.cpuUsage(start);
    expect(ignored).toBe(false);
    expect((used.user + used.system) / 1000).toBeLessThan(300);
  });

  it('-g with many stars against long names (picomatch: 1.6 s a name at 6 stars, > 60 s at 10)', () => {
    const [kept, ms] = cpuMs(() => {
      const filter = compileGlobs([`!${HOSTILE}`, `x/${HOSTILE}`])!;
      return [LONG, `${LONG}b`, `x/${LONG}`, `x/${LONG}b`].map((n) => filter.listed(n));
    });
    expect(kept).toEqual([false, false, false, true]);
    expect(ms).toBeLessThan(200);
  });

  it('a walk of a tree with a hostile .gitignore and a glob root of many stars ends at once', async () => {
    const [listing, ms] = await (async () => {
      const start = process.cpuUsage();
      const found: string[] = [];
      for await (const e of createFsSource({ paths: [root], hidden: true }).list()) found.push(path.relative(root, e.path));
      for await (const e of createFsSource({ paths: [path.join(root, HOSTILE.replace(/b$/, 'c'))] }).list()) found.push(path.relative(root, e.path));
      const used = process.cpuUsage(start);
      return [found.sort(), (used.user + used.system) / 1000] as const;
    })();
    // The walk: sub/aaa…b is ignored; the glob root: a*…*c keeps aaa…c alone.
    expect(listing).toEqual(['.gitignore', LONG, `${LONG}c`, `${LONG}c`].sort());
    expect(ms).toBeLessThan(1000);
  });
});

describe('a glob with a long run of slashes (trust47)', () => {
  // `/\/+$/` (a glob's trailing slashes cut) tried every slash of a run that does not end the glob, each to the
  // run's end: 8 s for `src` + 50,000 slashes + `*.ts` (a -g of the user's, a library caller's glob, an action's).
  it('is checked and compiled at once', () => {
    const globs = [`src${'/'.repeat(50_000)}*.ts`, `!vendor${'/'.repeat(50_000)}x/`];
    const [filter, ms] = cpuMs(() => { for (const g of globs) checkGlob(g); return compileGlobs(globs); });
    expect(ms).toBeLessThan(500);
    expect(filter!.listed('lib/a.ts')).toBe(false);
  });
});
