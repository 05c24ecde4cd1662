// The BERT normalizer facts the fast path relies on, checked over every code point.
import { describe, expect, it } from 'vitest';
import { bertNormalize } from '../../../src/model/tokenizer/bert-text.js';

const uncased = { cleanText: true, handleChineseChars: true, lowercase: true, stripAccents: true };

describe('bertNormalize', () => {
  it('never outputs A-Z when lowercasing, for any code point (added tokens with A-Z need no check)', () => {
    const bad: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      const out = bertNormalize(String.fromCodePoint(cp), uncased);
      if (/[A-Z]/.test(out)) bad.push(cp.toString(16));
    }
    expect(bad).toEqual([]);
  });

  it('keeps printable ASCII apart from lowercasing and tabs', () => {
    expect(bertNormalize('Foo\tBar (x) = 1;', uncased)).toBe('foo bar (x) = 1;');
    expect(bertNormalize('Foo\tBar', { ...uncased, cleanText: false, lowercase: false })).toBe('Foo\tBar');
  });

  it('drops controls, maps whitespace, isolates BMP CJK, strips marks', () => {
    expect(bertNormalize('a\x01b\u00A0c\uFEFFd中É', uncased)).toBe('ab cd 中 e');
  });
});
