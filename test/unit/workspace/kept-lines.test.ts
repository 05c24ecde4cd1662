// The kept candidate lines (src/workspace/search/kept-lines.ts): a search's windows are served only when
// every line of them was kept (or lies past the file's end), and the bound drops the least recently used.
import { describe, expect, it } from 'vitest';
import { KeptLines } from '../../../src/workspace/search/kept-lines.js';

const file = (n: number, whole = true) => ({ lines: Array.from({ length: n }, (_, i) => `line ${i}`), extent: n, whole });

describe('KeptLines', () => {
  it('serves only windows whose lines were all kept; a file read in part is a miss past what was read', () => {
    const kept = new KeptLines();
    kept.set('a', file(20), [[2, 6]]);
    expect(kept.get('a', [[2, 6]])?.lines.slice(2, 6)).toEqual(['line 2', 'line 3', 'line 4', 'line 5']);
    expect(kept.get('a', [[5, 9]])).toBeNull(); // lines 6-8 were not kept
    expect(kept.get('other state', [[2, 6]])).toBeNull();
    kept.set('a', file(20), [[5, 9]]); // joined with what was kept
    expect(kept.get('a', [[2, 9]])?.lines[8]).toBe('line 8');
    kept.set('b', file(10, false), [[8, 10]]);
    expect(kept.get('b', [[8, 12]])).toBeNull(); // read up to line 10 only, the file may go on
    kept.set('c', file(10, true), [[8, 10]]);
    expect(kept.get('c', [[8, 12]])?.extent).toBe(10); // the file ends at line 10
  });
  it('drops the least recently used file past its bound', () => {
    const kept = new KeptLines(8 * 200); // a file's windows may take an eighth: 200 counted characters
    for (const s of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j']) kept.set(s, file(3), [[0, 3]]); // 64 + 3 * 38 each
    expect(kept.get('a', [[0, 3]])).toBeNull();
    expect(kept.get('j', [[0, 3]])).not.toBeNull();
    kept.set('big', file(10), [[0, 10]]); // over an eighth of the bound: not kept
    expect(kept.get('big', [[0, 1]])).toBeNull();
  });
});
