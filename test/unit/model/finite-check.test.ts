// The finite check of a float table: NaN and Infinity are found and named; a model file that passed
// is not scanned again (a marker in the cache keyed by its path, inode, size and mtime), and a file
// changed since is scanned again, so damage written later is still refused.
import { mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { firstNonFinite, firstNonFiniteOf } from '../../../src/model/finite-check.js';
import { simgrepCacheDir } from '../../../src/model/tokenizer-file.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-finite-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the finite check', () => {
  it('names the first NaN or Infinity of the table, then of the weights', () => {
    expect(firstNonFinite(Float32Array.from([0, 1, 2, NaN]), 2)).toBe('table row 1 (NaN)');
    expect(firstNonFinite(Float32Array.from([0, 1]), 2, Float32Array.from([1, -Infinity]))).toBe('weights[1] (-Infinity)');
    expect(firstNonFinite(Int8Array.from([1, 2]), 2)).toBeNull();
  });

  it('remembers a file that passed, and checks it again once it changes', () => {
    const file = path.join(tmp, 'model.safetensors');
    writeFileSync(file, 'first version');
    const markers = () => { try { return readdirSync(path.join(simgrepCacheDir()!, 'models-checked')).filter((n) => readFileSync(path.join(simgrepCacheDir()!, 'models-checked', n), 'utf8').startsWith(file)); } catch { return []; } };
    expect(firstNonFiniteOf(file, Float32Array.from([1, 2]), 2)).toBeNull();
    expect(markers()).toHaveLength(1);
    // Passed before: not scanned (a NaN table given for the same file identity goes unseen).
    expect(firstNonFiniteOf(file, Float32Array.from([NaN, 2]), 2)).toBeNull();
    // The file changed (new content and mtime): scanned again, the damage found, nothing remembered.
    writeFileSync(file, 'second version, damaged');
    utimesSync(file, 2_000_000_000, 2_000_000_000);
    expect(firstNonFiniteOf(file, Float32Array.from([NaN, 2]), 2)).toBe('table row 0 (NaN)');
    expect(markers()).toHaveLength(1);
  });
});
