// Progress on stderr: drawn only on a terminal and only for long runs, erased before results print.
import { describe, expect, it } from 'vitest';
import { createProgress } from '../../../src/cli/progress.js';

function fakeStream(isTTY: boolean) {
  const writes: string[] = [];
  return { stream: { isTTY, write: (s: string) => { writes.push(s); return true; } } as unknown as NodeJS.WriteStream, writes };
}

const stats = (ms: number) => ({ files: 1200, lines: 345_678, bytes: 9_000_000, skipped: 0, binary: 0, errors: 0, ms });

describe('progress', () => {
  it('draws a long search on a terminal and erases it', () => {
    const { stream, writes } = fakeStream(true);
    const p = createProgress(stream);
    p.search(stats(200));
    expect(writes).toEqual([]);
    p.search(stats(2000));
    expect(writes).toEqual(['\r\x1b[Ksearched 1200 files, 345,678 lines (172,839 lines/s)']);
    p.clear();
    p.clear();
    expect(writes.slice(1)).toEqual(['\r\x1b[K']);
  });

  it('names the read a stalled search is waiting on (a stuck server held every result back in silence)', () => {
    const { stream, writes } = fakeStream(true);
    const p = createProgress(stream);
    p.search({ ...stats(3000), waitingOn: { path: 'https://example.com/slow.md', ms: 1500 } });
    p.search({ ...stats(9000), waitingOn: { path: 'https://example.com/slow.md', ms: 7400 } });
    expect(writes).toEqual([
      '\r\x1b[Ksearched 1200 files, 345,678 lines (115,226 lines/s)',
      '\r\x1b[Ksearched 1200 files, 345,678 lines (38,409 lines/s); waiting on https://example.com/slow.md for 7 s',
    ]);
  });

  it('shows a cluster search\'s shards done out of those enqueued so far', () => {
    const { stream, writes } = fakeStream(true);
    const p = createProgress(stream);
    p.search({ ...stats(2000), shards: { done: 3, total: 10, listing: true } });
    p.search({ ...stats(2000), shards: { done: 12, total: 12, listing: false } });
    expect(writes).toEqual([
      '\r\x1b[Kshards 3/10+ (listing), searched 1200 files, 345,678 lines (172,839 lines/s)',
      '\r\x1b[Kshards 12/12, searched 1200 files, 345,678 lines (172,839 lines/s)',
    ]);
  });

  it('writes nothing when stderr is not a terminal', () => {
    const { stream, writes } = fakeStream(false);
    const p = createProgress(stream);
    p.search(stats(5000));
    p.download({ file: 'model.safetensors', received: 10, total: 100 });
    p.clear();
    expect(writes).toEqual([]);
  });
});
