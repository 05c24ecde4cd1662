// Property test (fast-check) for the tokenizer against @huggingface/tokenizers: any line of outside
// text (any Unicode, control characters, long words, mixed scripts) gets the library's ids, from the
// native tokenizer and from its compiled form (the tokenizer cache). Runs on the bundled model's
// tokenizer always, and on the shared fixtures' WordPiece and Unigram ones where present.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bundledModelDir } from '../../../src/model/default-model.js';
import {
  compileLineTokenizer, createCompiledLineTokenizer, createLineTokenizer, decodeCompiledTokenizer, type LineTokenizer,
} from '../../../src/model/tokenizer/index.js';
import { hasShared } from '../../helpers/shared.js';
import { firstMismatch, loadFixtureTokenizer } from './parity-helpers.js';
import { EDGE_LINES } from './sample-lines.js';

const WORDS = ['retry', 'upload', 'failed', 'CamelCase', 'snake_case', 'HTTPServer', 'über', 'naïve', 'Straße', '日本語', '中文', 'кириллица', 'ελληνικά', 'עברית', 'العربية', '😀', '👩‍👩‍👧', 'e\u0301', '\u00a0', '\u200b', '\ufeff', '\t', '\r', '\u0000', '\u2028'];
const PUNCT = [' ', ' ', ' ', '.', ',', '(', ')', '{', '}', '=>', '::', '//', '#', '"', "'", '-', '_', '0x1F', '3.14', '\\'];

/** Lines mixing vocabulary words, punctuation, edge lines from the parity sample and arbitrary code points. */
const line = fc.array(fc.oneof(
  { arbitrary: fc.constantFrom(...WORDS), weight: 4 },
  { arbitrary: fc.constantFrom(...PUNCT), weight: 4 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 4 }), weight: 1 },
  { arbitrary: fc.constantFrom(...EDGE_LINES.filter((l) => l.length < 400)), weight: 1 },
  { arbitrary: fc.stringMatching(/^[a-z]{20,120}$/), weight: 1 },
), { maxLength: 24 }).map((parts) => parts.join(''));

const tokenizers: Array<{ name: string; json: () => unknown }> = [
  { name: 'the bundled model (WordPiece)', json: () => JSON.parse(readFileSync(path.join(bundledModelDir(), 'tokenizer.json'), 'utf8')) },
  ...(hasShared ? [
    { name: 'potion-base-8M (WordPiece)', json: () => loadFixtureTokenizer('test-model-float32') },
    { name: 'vocab-quantized (Unigram + Metaspace)', json: () => loadFixtureTokenizer('test-model-vocab-quantized') },
  ] : []),
];

describe('tokenizer parity with @huggingface/tokenizers (property)', () => {
  for (const t of tokenizers) {
    it(`any line gets the library's ids: ${t.name}, native and compiled`, () => {
      const json = t.json();
      const compiled = compileLineTokenizer(json as never);
      const native: LineTokenizer[] = [createLineTokenizer(json as never), ...(compiled ? [createCompiledLineTokenizer(decodeCompiledTokenizer(compiled))] : [])];
      const lib = new Tokenizer(json as never, {});
      fc.assert(fc.property(fc.array(line, { minLength: 1, maxLength: 4 }), (lines) => {
        const expected = lines.map((l) => lib.encode(l, { add_special_tokens: false }).ids);
        for (const tok of native) expect(firstMismatch(tok, lines, expected)).toBeNull();
      }), { numRuns: 250 });
    });
  }
});
