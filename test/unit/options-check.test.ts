// The library's options from plain JavaScript: a wrong type gets a BAD_FLAG message that names the
// option (paths: "dir" and extensions: ".js" threw raw TypeErrors, paths: [5] said "check its
// permissions", query: 42 said "the query is empty").
import { describe, expect, it } from 'vitest';
import { createSearcher } from '../../src/searcher.js';
import { checkOptionTypes } from '../../src/options-check.js';

describe('library option types', () => {
  it.each([
    [{ query: 'q', paths: 'dir' }, 'option paths must be an array of strings (paths or URIs), e.g. ["./src"] (got the string "dir")'],
    [{ query: 'q', paths: ['.'], extensions: '.js' }, 'option extensions must be an array of strings, e.g. [".ts", ".md"] (got the string ".js")'],
    [{ query: 'q', paths: [5] }, 'option paths must be an array of strings (paths or URIs), e.g. ["./src"] (got an array: [5])'],
    [{ query: 42, paths: ['.'] }, 'option query must be a string (got number 42)'],
    [{ query: 'q', paths: ['.'], topK: '3' }, 'option topK must be a number (got the string "3")'],
    [{ query: 'q', paths: ['.'], hidden: 'yes' }, 'option hidden must be true or false (got the string "yes")'],
  ])('%j is refused with a message naming the option', async (opts, message) => {
    expect(() => checkOptionTypes(opts)).toThrow(message);
    const searcher = createSearcher({ concurrency: 0 });
    try {
      await expect(searcher.search(opts as never)).rejects.toMatchObject({ code: 'BAD_FLAG', message });
    } finally {
      await searcher.close();
    }
  });

  it('accepts the documented shapes, and leaves options it does not know alone', () => {
    expect(() => checkOptionTypes({ query: 'q', paths: ['a', 's3://b/'], extensions: ['.ts'], topK: 3, ignoreCase: true, signal: AbortSignal.timeout(10), remote: {} })).not.toThrow();
  });
});
