// The library's options from plain JavaScript: a wrong type gets a BAD_FLAG message that names the
// option (paths: "dir" and extensions: ".js" threw raw TypeErrors, paths: [5] said "check its
// permissions", query: 42 said "the query is empty").
import { describe, expect, it } from 'vitest';
import { createSearcher } from '../../src/searcher.js';
import { checkOptionTypes, SEARCH_OPTION_NAMES } from '../../src/options-check.js';
import { FILTER_OPTIONS } from '../../src/sources/filter-options.js';

describe('library option types', () => {
  it.each([
    [{ query: 'q', paths: 'dir' }, 'option paths must be an array of strings (paths or URIs), e.g. ["./src"] (got the string "dir")'],
    [{ query: 'q', paths: ['.'], extensions: '.js' }, 'option extensions must be an array of strings, e.g. [".ts", ".md"] (got the string ".js")'],
    [{ query: 'q', paths: [5] }, 'option paths must be an array of strings (paths or URIs), e.g. ["./src"] (got an array: [5])'],
    [{ query: 42, paths: ['.'] }, 'option query must be a string (got number 42)'],
    [{ query: 'q', paths: ['.'], topK: '3' }, 'option topK must be a number (got the string "3")'],
    [{ query: 'q', paths: ['.'], hidden: 'yes' }, 'option hidden must be true or false (got the string "yes")'],
    // trial33: these were ignored (signal, onProgress) or threw raw TypeErrors (a source without list()).
    [{ query: 'q', paths: ['.'], signal: 'x' }, 'option signal must be an AbortSignal (new AbortController().signal, AbortSignal.timeout(ms)) (got the string "x")'],
    [{ query: 'q', paths: ['.'], onProgress: 5 }, 'option onProgress must be a function (got number 5)'],
    // audit44: an object was shown as "object [object Object]".
    [{ query: '', paths: ['.'], like: { path: 'a.ts' } }, 'option like must be { path: string, line: number } (got an object: {"path":"a.ts"})'],
    [{ query: 'q', sources: [{}] }, 'option sources must be an array of Source objects, each with list() and read(entry) (createFsSource, createContentSource, or your own) (got an array: [{}])'],
  ])('%j is refused with a message naming the option', async (opts, message) => {
    expect(() => checkOptionTypes(opts)).toThrow(message);
    const searcher = createSearcher({ concurrency: 0 });
    try {
      await expect(searcher.search(opts as never)).rejects.toMatchObject({ code: 'BAD_FLAG', message });
    } finally {
      await searcher.close();
    }
  });

  // trial33: `topk: 1` (for topK) was dropped without a word and the search gave 3 results.
  it.each([
    [{ query: 'q', paths: ['.'], topk: 1 }, 'unknown option topk: did you mean topK?'],
    [{ query: 'q', paths: ['.'], maxDistanc: 0.3 }, 'unknown option maxDistanc: did you mean maxDistance?'],
    [{ query: 'q', paths: ['.'], ignorecase: true }, 'unknown option ignorecase: did you mean ignoreCase?'],
    [{ query: 'q', paths: ['.'], filesWithMatch: true }, 'unknown option filesWithMatch: did you mean filesWithMatches?'],
    [{ query: 'q', path: ['.'] }, 'unknown option path: did you mean paths?'],
  ])('%j: an unknown option is refused, with the closest known name', async (opts, message) => {
    expect(() => checkOptionTypes(opts)).toThrow(message);
    const searcher = createSearcher({ concurrency: 0 });
    try {
      await expect(searcher.search(opts as never)).rejects.toMatchObject({ code: 'BAD_FLAG', message });
      const { paths: _p, ...rest } = opts as Record<string, unknown>;
      await expect(searcher.searchContent({ ...rest, content: 'retry the upload\n' } as never)).rejects.toMatchObject({ code: 'BAD_FLAG', message });
    } finally {
      await searcher.close();
    }
  });

  it('knows every file filter of the filters\' table', () => {
    for (const f of FILTER_OPTIONS) expect(SEARCH_OPTION_NAMES.has(f.key), f.key).toBe(true);
  });

  it('an unknown option far from every name lists them all', () => {
    expect(() => checkOptionTypes({ query: 'q', colour: 'red' })).toThrow(/^unknown option colour; the options are query, mode, paths, .*topK, .*remote, globs, typesNot, perFile, filesWithMatches \(docs\/library\.md\)$/);
  });

  it('accepts the documented shapes (and an unknown name left undefined)', () => {
    expect(() => checkOptionTypes({ query: 'q', topk: undefined })).not.toThrow();
    expect(() => checkOptionTypes({ query: 'q', paths: ['a', 's3://b/'], extensions: ['.ts'], topK: 3, ignoreCase: true, signal: AbortSignal.timeout(10), remote: {} })).not.toThrow();
  });

  // trial33: searchContent() without content threw "Cannot read properties of undefined"; a negative
  // maxFileBytes skipped every file ("over --max-filesize -1"); an unknown embedder ran the static one.
  it('searchContent needs its content, maxFileBytes is a size, and createSearcher knows its embedders', async () => {
    const searcher = createSearcher({ concurrency: 0 });
    try {
      await expect(searcher.searchContent({ query: 'retry' } as never)).rejects.toMatchObject({ code: 'BAD_FLAG', message: 'searchContent needs content, the text to search, as a string (got nothing)' });
      // Paths or sources beside the content were silently left unsearched.
      await expect(searcher.searchContent({ query: 'retry', content: 'retry\n', paths: ['src'] } as never)).rejects.toMatchObject({ code: 'BAD_FLAG', message: 'searchContent searches only the text it is given: drop paths, or call search() for them' });
      await expect(searcher.searchContent({ query: 'retry', content: 'retry\n', paths: [] } as never)).resolves.toBeDefined();
      await expect(searcher.searchContent({ query: 'retry', content: new Uint8Array(3) } as never)).rejects.toMatchObject({ code: 'BAD_FLAG', message: 'option content must be a string (got a Uint8Array)' });
      await expect(searcher.search({ query: 'retry', paths: ['.'], maxFileBytes: -1 })).rejects.toMatchObject({ code: 'BAD_FLAG', message: '--max-filesize must be a whole number of bytes >= 0 (got -1)' });
    } finally {
      await searcher.close();
    }
    expect(() => createSearcher({ embedder: 'gpu' as never })).toThrow("embedder must be 'static' or 'onnx' (got the string \"gpu\")");
    expect(() => createSearcher({ concurrency: '2' as never })).toThrow('concurrency (-J) must be a whole number >= 0 (got the string "2"); use 0 for in-process');
  });
});
