// Jinja's wordwrap (Python's textwrap.wrap per line, joined by the wrap string): each row's expected text
// is what Jinja2 3.1.6's wordwrap (TEA's) gave for the same arguments, pasted.
import { describe, expect, it } from 'vitest';
import { wordwrap } from '../../src/actions/workflow/py-textwrap.js';

const CASES: [string, number, boolean, string | null, boolean, string][] = [
  ["well-known e-mail re-run of long-hyphenated-words", 10, true, null, true, "well-known\ne-mail re-\nrun of\nlong-hyphe\nnated-\nwords"],
  ["a  b   c\tdd", 4, true, null, true, "a  b\nc\tdd"],
  ["   leading spaces stay on the first line", 12, true, null, true, "   leading\nspaces stay\non the first\nline"],
  ["xxxxxxxxxxxxxxxxxxxxxxxxx yy", 7, true, null, true, "xxxxxxx\nxxxxxxx\nxxxxxxx\nxxxx yy"],
  ["xxxxxxxxxxxxxxxxxxxxxxxxx yy", 7, false, null, true, "xxxxxxxxxxxxxxxxxxxxxxxxx\nyy"],
  ["one--two em--dash words", 8, true, null, true, "one--two\nem--dash\nwords"],
  ["first line\r\nsecond  line\n\nfourth", 6, true, " / ", true, "first / line / second / line /  / fourth"],
  ["déjà vu über naïve façade", 9, true, null, true, "déjà vu\nüber\nnaïve\nfaçade"],
  ["ab-cd-ef-gh", 5, true, null, false, "ab-cd\n-ef-g\nh"],
  ["ab-cd-ef-gh", 5, true, null, true, "ab-\ncd-\nef-gh"],
  ["", 5, true, null, true, ""],
  ["word ", 4, true, null, true, "word"],
  // A line exactly full and a long word next: textwrap breaks nothing onto the full line (space_left 0).
  ["abc defghijk", 4, true, " / ", true, "abc  / defg / hijk"],
];

describe('wordwrap as Jinja2\'s', () => {
  it.each(CASES)('%j at width %i', (text, width, breakLong, wrapstring, breakHyphens, expected) => {
    expect(wordwrap(text, width, breakLong, wrapstring, breakHyphens)).toBe(expected);
  });

  it('a width under 1 is the ValueError textwrap raises', () => {
    expect(() => wordwrap('a b', 0)).toThrow('ValueError: invalid width 0 (must be > 0)');
  });
});
