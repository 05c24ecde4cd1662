// The note of a search whose filters passed no file is held to a fifth of the answer's budget, as the warning
// note is: 50 long globs with max_tokens 200 made a note of 31,788 tokens (mend47a). The way to write the glob
// meant comes before the filters' names, which the request already has.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { filterNote } from '../../../src/mcp/filter-note.js';

const at = { filesSearched: 0, dir: '/r', root: '/r' };

describe('filterNote: within its share of max_tokens', () => {
  it('50 long globs at max_tokens 200: the note is cut to 160 characters, its start kept (was the whole list: an answer of 31,788 tokens)', () => {
    const globs = Array.from({ length: 50 }, (_, i) => `nomatch${i}/${'x\\'.repeat(500)}`);
    const note = filterNote({ globs }, { ...at, maxTokens: 200 })!;
    expect(note.length).toBeLessThanOrEqual(160);
    expect(note).toBe(`no file in the root passed the filters; globs take / between directories (a \\ escapes the character after it): write "nomatch0/${'x/'.repeat(16)}…`);
  });

  it('a long list of filters is named cut where the budget allows, the advice whole', () => {
    const globs = Array.from({ length: 50 }, (_, i) => `src/deep${i}/*.py`);
    const note = filterNote({ globs }, { ...at, maxTokens: 1000 })!;
    expect(note.length).toBe(800);
    expect(note).toMatch(/^no file in the root passed the filters \(globs \["src\/deep0\/\*\.py",.*…\); a glob with a \/ in it matches from the root down: "\*\*\/src\/deep0\/\*\.py" matches at any depth; globs are case-sensitive and relative to the searched directory; widen or drop them to search every file$/);
  });

  it('is as before where it fits (the default budget)', () => {
    expect(filterNote({ globs: ['sansio/*.py'] }, { ...at, maxTokens: 4000 })).toBe('no file in the root passed the filters (globs ["sansio/*.py"]); a glob with a / in it matches from the root down: "**/sansio/*.py" matches at any depth; globs are case-sensitive and relative to the searched directory; widen or drop them to search every file');
  });

  it('never passes a fifth of the budget (any filters, any budget)', () => {
    const list = fc.option(fc.array(fc.string({ maxLength: 300 }), { maxLength: 60 }), { nil: undefined });
    fc.assert(fc.property(list, list, list, fc.string({ maxLength: 400 }), fc.integer({ min: 200, max: 100_000 }), (globs, types, extensions, sub, maxTokens) => {
      const note = filterNote({ globs, types, extensions }, { filesSearched: 0, dir: `/r/${sub}`, root: '/r', maxTokens });
      if (note !== null) expect(note.length).toBeLessThanOrEqual(Math.floor(maxTokens * 4 / 5));
    }));
  });
});
