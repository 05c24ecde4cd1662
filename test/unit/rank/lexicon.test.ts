// The lexicon's lookups: a term found one by one (a short query) and found among many in one pass (a
// pasted file's, lexicon.ts findAll) give the same count: its first line's, 0 when it has none.
import { describe, expect, it } from 'vitest';
import { parseLexicon } from '../../../src/rank/lexical/lexicon.js';

const TEXT = '#docs\t1000\nthe\t900\nretry\t12\n\nupload\t7\r\nretry\t99\nx\t3\nuploads\t5\n' +
  Array.from({ length: 500 }, (_, i) => `term${i}\t${i + 1}`).join('\n') + '\nlast\t4';

describe('parseLexicon', () => {
  it('finds many terms in one pass exactly as one by one: first line wins, CRLF and the last line read, unknown is 0', () => {
    const terms = ['the', 'retry', 'upload', 'uploads', 'x', 'last', 'missing', 'uploa', 'etry', ...Array.from({ length: 40 }, (_, i) => `term${i * 13}`), 'term500'];
    const one = parseLexicon(TEXT);
    const expected = terms.map((t) => one.df(t));
    expect(expected.slice(0, 9)).toEqual([900, 12, 7, 5, 3, 4, 0, 0, 0]);
    const many = parseLexicon(TEXT);
    many.prefetch!(terms);
    expect(terms.map((t) => many.df(t))).toEqual(expected);
    expect(many.df('term499')).toBe(500);
  });

  it('looks terms up in a table of its lines once it has gone over the text three times, with the same counts', () => {
    const terms = ['the', 'retry', 'upload', 'uploads', 'x', 'last', 'missing', 'uploa', 'etry', 'retry\t', '', ...Array.from({ length: 501 }, (_, i) => `term${i}`)];
    const expected = terms.map((t) => parseLexicon(TEXT).df(t));
    expect(expected.slice(0, 11)).toEqual([900, 12, 7, 5, 3, 4, 0, 0, 0, 0, 0]);
    const long = parseLexicon(TEXT);
    // Three passes of findAll (more than 16 new terms each), then every lookup from the table.
    for (let p = 0; p < 3; p++) long.prefetch!(Array.from({ length: 20 }, (_, i) => `term${p * 20 + i}`));
    long.prefetch!(terms);
    expect(terms.map((t) => long.df(t))).toEqual(expected);
  });
});
