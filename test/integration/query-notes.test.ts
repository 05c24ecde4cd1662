// The whole-search notes of a hybrid query with nothing to match (searcher.ts): a number and no other word
// gets the numbers note, stop words alone the stop-words note; a long query is quoted cut (budget.ts
// quotedQuery), on a code point boundary, so the advice after it shows (trial35 review).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearcher } from '../../src/searcher.js';

let tmp = '';
const searcher = createSearcher({ concurrency: 0 });
beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-query-notes-'));
  writeFileSync(path.join(tmp, 'dates.txt'), 'The bridge opened in 1964 after six years of work.\nThe tower was finished in 1889.\n');
});
afterAll(async () => {
  await searcher.close();
  rmSync(tmp, { recursive: true, force: true });
});

const notes = async (query: string) => (await searcher.search({ query, paths: [tmp] })).warnings.filter((w) => w.path === '');
/** Half a surrogate pair: not well-formed UTF-16. */
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('a hybrid query with nothing to match', () => {
  it.each(['1964', 'in 1964', 'the 1964', 'the of 1964 and'])('%j: the numbers note, no match', async (query) => {
    const r = await searcher.search({ query, paths: [tmp] });
    expect(r.results).toEqual([]);
    expect(r.warnings.filter((w) => w.path === '').map((w) => w.code)).toEqual(['QUERY_NUMBERS_ONLY']);
  });

  it('stop words alone: the stop-words note', async () => {
    expect((await notes('the of and')).map((w) => w.code)).toEqual(['QUERY_STOP_WORDS']);
  });

  it('a long query is quoted cut to 60 characters, never half a character, and the advice after it shows', async () => {
    // A symbol beyond the BMP that is no word (an emoji would be one since words35: 😀 is a term).
    const query = `${'the '.repeat(14)}of 𝄞 ${'and '.repeat(100)}`;
    expect(query.charCodeAt(59)).toBeGreaterThanOrEqual(0xd800); // the cut falls inside the surrogate pair
    const [note] = await notes(query);
    expect(note.code).toBe('QUERY_STOP_WORDS');
    expect(note.message).toBe(`the query "${'the '.repeat(14)}of …" has only common words (stop words), which match any line by chance: no match; use identifiers or words, or --mode semantic for the nearest lines anyway`);
    expect(note.message).not.toMatch(LONE);
    const [numbers] = await notes(`${'1964 '.repeat(40)}`);
    expect(numbers.message).toMatch(/^the query "(1964 ){12}…" has numbers but no word: .* --mode lexical for the lines that hold it \(--mode line for the nearest lines\)$/);
  });
});
