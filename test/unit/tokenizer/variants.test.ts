// Parity on tokenizer.json variants (normalizer flags, added tokens, pre-tokenizer schemes, odd
// vocabularies) so every branch of the native paths and of the library fallback is compared.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLineTokenizer } from '../../../src/model/tokenizer/index.js';
import { hasShared, repoRoot } from '../../helpers/shared.js';
import { firstMismatch, libraryIds, loadFixtureTokenizer } from './parity-helpers.js';
import { buildSample, EDGE_LINES } from './sample-lines.js';

type Json = Record<string, any>;

interface Variant { name: string; base: 'wp' | 'ug'; kind: string; edit: (j: Json) => void }

const token = (id: number, content: string, extra: Json = {}) =>
  ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true, ...extra });

const variants: Variant[] = [
  { name: 'cased', base: 'wp', kind: 'wordpiece-native', edit: (j) => { j.normalizer.lowercase = false; } },
  { name: 'lowercase, keep accents', base: 'wp', kind: 'wordpiece-native', edit: (j) => { j.normalizer.strip_accents = false; } },
  { name: 'cased, strip accents', base: 'wp', kind: 'wordpiece-native', edit: (j) => { j.normalizer.lowercase = false; j.normalizer.strip_accents = true; } },
  { name: 'no clean_text, no CJK', base: 'wp', kind: 'wordpiece-native', edit: (j) => { j.normalizer.clean_text = false; j.normalizer.handle_chinese_chars = false; } },
  { name: 'no normalizer', base: 'wp', kind: 'wordpiece-native', edit: (j) => { j.normalizer = null; } },
  {
    name: 'one-element sequences', base: 'wp', kind: 'wordpiece-native',
    edit: (j) => { j.normalizer = { type: 'Sequence', normalizers: [j.normalizer] }; j.pre_tokenizer = { type: 'Sequence', pretokenizers: [j.pre_tokenizer] }; },
  },
  {
    name: 'added tokens with lstrip/rstrip, lowercase and spaced contents', base: 'wp', kind: 'wordpiece-native',
    edit: (j) => { j.added_tokens.push(token(29528, '<mask>', { lstrip: true, rstrip: true }), token(29529, 'foo bar', { rstrip: true }), token(29530, '##')); },
  },
  {
    name: 'cased with a lowercase added token', base: 'wp', kind: 'wordpiece-native',
    edit: (j) => { j.normalizer.lowercase = false; j.added_tokens.push(token(29528, '<mask>')); },
  },
  { name: 'max_input_chars_per_word 5', base: 'wp', kind: 'wordpiece-native', edit: (j) => { j.model.max_input_chars_per_word = 5; } },
  { name: 'empty continuing prefix', base: 'wp', kind: 'wordpiece-native', edit: (j) => { j.model.continuing_subword_prefix = ''; } },
  { name: 'WhitespaceSplit (chunk memo)', base: 'wp', kind: 'library-chunk-memo', edit: (j) => { j.pre_tokenizer = { type: 'WhitespaceSplit' }; } },
  {
    name: 'Replace in the normalizer (line memo)', base: 'wp', kind: 'library-line-memo',
    edit: (j) => { j.normalizer = { type: 'Sequence', normalizers: [j.normalizer, { type: 'Replace', pattern: { String: '_' }, content: ' ' }] }; },
  },
  {
    name: 'normalized added token (line memo)', base: 'wp', kind: 'library-line-memo',
    edit: (j) => { j.added_tokens.push(token(29528, 'Foo Bar', { normalized: true, special: false })); },
  },
  { name: 'prepend_scheme first', base: 'ug', kind: 'unigram-native', edit: (j) => { j.pre_tokenizer.prepend_scheme = 'first'; } },
  { name: 'prepend_scheme never', base: 'ug', kind: 'unigram-native', edit: (j) => { j.pre_tokenizer.prepend_scheme = 'never'; } },
  { name: 'no pre-tokenizer', base: 'ug', kind: 'unigram-native', edit: (j) => { j.pre_tokenizer = null; } },
  { name: 'a piece with ▁ inside (no word memo)', base: 'ug', kind: 'unigram-native', edit: (j) => { j.model.vocab.push(['s▁t', -9.5], ['▁a▁', -8]); } },
  {
    name: 'added tokens that normalization can produce', base: 'ug', kind: 'unigram-native',
    edit: (j) => { j.added_tokens.push(token(29524, 'υ'), token(29525, 'ς'), token(29526, '▁the'), token(29527, '<mask>', { lstrip: true })); },
  },
  {
    name: 'NFKC + Lowercase + Replace " {2,}" + Strip left', base: 'ug', kind: 'unigram-native',
    edit: (j) => {
      j.normalizer = { type: 'Sequence', normalizers: [{ type: 'NFKC' }, { type: 'Lowercase' }, { type: 'Replace', pattern: { Regex: ' {2,}' }, content: ' ' }, { type: 'Strip', strip_left: true, strip_right: false }] };
    },
  },
  { name: 'Precompiled + StripAccents + NFD', base: 'ug', kind: 'unigram-native', edit: (j) => { j.normalizer = { type: 'Sequence', normalizers: [{ type: 'Precompiled', precompiled_charsmap: '' }, { type: 'NFD' }, { type: 'StripAccents' }] }; } },
  { name: 'no normalizer', base: 'ug', kind: 'unigram-native', edit: (j) => { j.normalizer = null; } },
  // Score tables made of ties and near ties: every shortcut of the word-chained Viterbi is exercised.
  { name: 'all scores equal', base: 'ug', kind: 'unigram-native', edit: (j) => { for (const p of j.model.vocab) p[1] = -1; } },
  { name: 'scores rounded to 0.5', base: 'ug', kind: 'unigram-native', edit: (j) => { for (const p of j.model.vocab) p[1] = Math.round(p[1] * 2) / 2; } },
  { name: 'huge scores (large float drift)', base: 'ug', kind: 'unigram-native', edit: (j) => { for (const p of j.model.vocab) p[1] = p[1] * 1e13 + 0.1; } },
  { name: 'thirds (inexact sums)', base: 'ug', kind: 'unigram-native', edit: (j) => { for (const p of j.model.vocab) p[1] = -Math.round(-p[1] * 3) / 3; } },
];

describe.skipIf(!hasShared)('tokenizer parity on tokenizer.json variants', () => {
  const big = hasShared ? buildSample({ seed: 7, minLines: 50_000, sourceRoot: path.join(repoRoot, 'node_modules') }) : [];
  const sample = [...EDGE_LINES, ...big.filter((_, i) => i % 10 === 0)];
  const bases = hasShared ? { wp: loadFixtureTokenizer('test-model-float32'), ug: loadFixtureTokenizer('test-model-vocab-quantized') } : null;

  for (const v of variants) {
    it(`${v.base === 'wp' ? 'WordPiece' : 'Unigram'}: ${v.name}`, () => {
      const json = structuredClone(bases![v.base]) as Json;
      v.edit(json);
      const expected = libraryIds(structuredClone(json), sample);
      const tok = createLineTokenizer(json);
      expect(tok.kind).toBe(v.kind);
      expect(firstMismatch(tok, sample, expected)).toBeNull();
      expect(firstMismatch(createLineTokenizer(json, { memoEntries: 8 }), sample, expected)).toBeNull();
    });
  }
});
