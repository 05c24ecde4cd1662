// deferModule: a stand-in in require's cache that loads the real module on first use, and nothing before.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deferModule } from '../../../src/workspace/store/deferred-module.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-deferred-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A package `dep` whose evaluation is counted, and a file that requires it as a dependent would. */
function fixture(name: string): { from: string; loads: () => number } {
  const root = path.join(tmp, name);
  mkdirSync(path.join(root, 'node_modules', 'dep'), { recursive: true });
  const key = `__deferredLoads_${name}`;
  writeFileSync(path.join(root, 'node_modules', 'dep', 'index.js'), `globalThis.${key} = (globalThis.${key} ?? 0) + 1;\nexports.answer = 42;\nexports.twice = (x) => 2 * x;\n`);
  const from = path.join(root, 'user.js');
  writeFileSync(from, 'module.exports = () => require("dep");\n');
  return { from, loads: () => (globalThis as Record<string, unknown>)[key] as number ?? 0 };
}

describe('deferModule', () => {
  it('loads the real module only when a property is first read, then forwards to it', () => {
    const { from, loads } = fixture('a');
    deferModule(from, 'dep');
    const dep = createRequire(from)(from)() as { answer: number; twice: (x: number) => number };
    expect(loads()).toBe(0);
    expect(createRequire(from).cache[createRequire(from).resolve('dep')]?.id).toMatch(/ \(deferred\)$/);
    expect(dep.answer).toBe(42);
    expect(dep.twice(4)).toBe(8);
    expect(Object.keys(dep).sort()).toEqual(['answer', 'twice']);
    expect(loads()).toBe(1);
    // The real module is in the cache now: a later require gets it, not the stand-in.
    expect(createRequire(from)('dep').answer).toBe(42);
    expect(loads()).toBe(1);
  });

  it('leaves a module that is already loaded, and a missing one, alone', () => {
    const { from, loads } = fixture('b');
    const first = createRequire(from)('dep');
    deferModule(from, 'dep');
    expect(createRequire(from)('dep')).toBe(first);
    expect(loads()).toBe(1);
    expect(() => deferModule(from, 'no-such-package')).not.toThrow();
  });
});
