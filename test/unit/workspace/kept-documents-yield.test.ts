// A resident process counts its kept documents' line terms in the background (kept-documents.ts); while
// a search is under way that counting waits (issue 30: a fresh index's documents took 1-3 s of the
// thread in 2 ms slices, and a warm search's every await could wait behind one).
import { describe, expect, it } from 'vitest';
import { keepDocument, keptLines, keptLinesCounted, searchUnderWay, type StatedEntry } from '../../../src/workspace/search/kept-documents.js';

const text = Array.from({ length: 300 }, (_, i) => `Line ${i}: the uploads are retried when a worker fails, then counted.`).join('\n');

describe('background counting of kept documents', () => {
  it('waits while a search is under way, and counts once none is', async () => {
    const entry = { path: 'docs/yield.md', state: 'docs/yield.md\u00001\u00001\u0000yield-test' } as StatedEntry;
    const ended = searchUnderWay();
    const other = searchUnderWay();
    keepDocument(entry.state, new TextEncoder().encode(text));
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(keptLines(entry)).toBeUndefined();
    ended();
    ended(); // a second call of the same end counts once
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(keptLines(entry)).toBeUndefined();
    other();
    await keptLinesCounted();
    expect(keptLines(entry)).toBeTruthy();
  });
});
