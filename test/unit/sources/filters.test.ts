import { describe, expect, it } from 'vitest';
import { hasWantedExtension, isHiddenPath, normalizeExtensions } from '../../../src/sources/filters.js';

describe('walk filters (local and remote alike)', () => {
  it('extensions: dot optional, case and spaces ignored', () => {
    expect(normalizeExtensions(['.PY', ' md', 'ts '])).toEqual(['.py', '.md', '.ts']);
  });

  it('an extension is the last dot of the name; a dotfile has none; no filter keeps all', () => {
    const exts = normalizeExtensions(['py']);
    expect(hasWantedExtension('a.b.PY', exts)).toBe(true);
    expect(hasWantedExtension('.py', exts)).toBe(false);
    expect(hasWantedExtension('py', exts)).toBe(false);
    expect(hasWantedExtension('.bashrc', [])).toBe(true);
  });

  it('hidden: any part of the relative path starting with a dot', () => {
    expect(isHiddenPath('a/.git/b')).toBe(true);
    expect(isHiddenPath('a/b.c/d')).toBe(false);
  });
});
