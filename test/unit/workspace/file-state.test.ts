// A snapshot file's state (documentState: key, size, mtime, hash) made once per file object (fileState), so
// the maps keyed by it (the kept text, the kept documents) are asked with the very string their warm-up set.
// A file the index saw change is another object in the next snapshot: its state is its new one.
import { describe, expect, it } from 'vitest';
import { documentState, fileState } from '../../../src/workspace/snapshot/prose-stats-file.js';

describe('fileState', () => {
  it("is documentState of the file, and a changed file's (a new object) is its new state", () => {
    const a = { key: '/t/a.ts', size: 10, mtime: 1000, hash: 'aa' };
    expect(fileState(a)).toBe(documentState(a));
    expect(fileState(a)).toBe(fileState({ ...a }));
    const edited = { ...a, size: 11, mtime: 2000, hash: 'bb' };
    expect(fileState(edited)).toBe(documentState(edited));
    expect(fileState(edited)).not.toBe(fileState(a));
    // The same key in two snapshots, changed between them: each snapshot's object answers its own state.
    const b1 = { key: '/t/b.md', size: 5, mtime: 1, hash: 'x1' };
    const b2 = { key: '/t/b.md', size: 5, mtime: 2, hash: 'x2' };
    expect([fileState(b1), fileState(b2), fileState(b1)]).toEqual([documentState(b1), documentState(b2), documentState(b1)]);
  });
});
