// searchContent takes search()'s options: the per-file answers apply to its one text, and the file
// filters, which choose files by name, are refused with a message (they were silently ignored).
import { afterAll, describe, expect, it } from 'vitest';
import { createSearcher } from '../../src/searcher.js';

const content = ['retry the failed upload', 'parse the config file', 'retry the upload that failed', 'render a button', 'upload failed: retry'].join('\n');

describe('searchContent options', () => {
  const s = createSearcher({ concurrency: 0 });
  afterAll(() => s.close());

  it('perFile and filesWithMatches treat the text as one file', async () => {
    const all = await s.searchContent({ query: 'retry the failed upload', content, name: 'notes.txt', mode: 'line', topK: 3, merge: false, nLines: 0 });
    expect(all.results.length).toBe(3);
    const one = await s.searchContent({ query: 'retry the failed upload', content, name: 'notes.txt', mode: 'line', topK: 3, merge: false, nLines: 0, perFile: 1 });
    expect(one.results.map((r) => r.match_line)).toEqual([all.results[0].match_line]);
    const files = await s.searchContent({ query: 'retry the failed upload', content, name: 'notes.txt', mode: 'line', filesWithMatches: true });
    expect(files.files).toEqual(['notes.txt']);
  });

  it('refuses file filters, naming them', async () => {
    await expect(s.searchContent({ query: 'retry', content, types: ['py'], globs: ['*.md'] }))
      .rejects.toMatchObject({ code: 'BAD_FLAG', message: expect.stringContaining('drop globs, types') });
    await expect(s.searchContent({ query: 'retry', content, extensions: ['.md'] })).rejects.toMatchObject({ code: 'BAD_FLAG' });
  });
});
