// Malformed or unsupported tokenizer.json files fail with TOKENIZER_CORRUPT and a message that says
// what is wrong, never with a bare TypeError from deep inside a tokenizer.
import { describe, expect, it } from 'vitest';
import { isSimgrepError } from '../../../src/errors.js';
import { createLineTokenizer } from '../../../src/model/tokenizer/index.js';

function corruptMessage(json: unknown): string {
  try {
    createLineTokenizer(json);
  } catch (e) {
    if (isSimgrepError(e) && e.code === 'TOKENIZER_CORRUPT') return e.message;
    throw e;
  }
  throw new Error('expected TOKENIZER_CORRUPT');
}

const wp = (vocab: unknown) => ({ model: { type: 'WordPiece', vocab, unk_token: '[UNK]', continuing_subword_prefix: '##' }, normalizer: null, pre_tokenizer: { type: 'BertPreTokenizer' } });

describe('createLineTokenizer on bad input', () => {
  it.each([
    ['null', null, /not a JSON object/],
    ['a string', 'tokenizer', /not a JSON object/],
    ['an array', [], /not a JSON object/],
    ['no model', { normalizer: null }, /no "model"/],
    ['added_tokens not a list', { model: { type: 'WordPiece', vocab: {} }, added_tokens: {} }, /added_tokens/],
    ['an added token without content', { ...wp({ '[UNK]': 0 }), added_tokens: [{ id: 1 }] }, /added_tokens\[0\]/],
    ['a WordPiece vocab list', wp([['a', 0]]), /WordPiece model has no "vocab" object/],
    ['a WordPiece id that is not an integer', wp({ '[UNK]': 0, a: 'x' }), /non-integer id/],
    ['a Unigram vocab of strings', { model: { type: 'Unigram', vocab: ['a', 'b'], unk_id: 0 } }, /not a \[piece, score\] pair/],
    ['an empty Unigram vocab', { model: { type: 'Unigram', vocab: [], unk_id: 0 } }, /Unigram vocab is empty/],
    ['an unknown model type', { model: { type: 'Nonsense' } }, /could not be loaded/],
    ['an unknown normalizer', { model: { type: 'Unigram', vocab: [['a', -1]], unk_id: 0 }, normalizer: { type: 'Nonsense' } }, /normalizer/],
    ['an unknown pre-tokenizer', { model: { type: 'Unigram', vocab: [['a', -1]], unk_id: 0 }, pre_tokenizer: { type: 'Nonsense' } }, /could not be loaded/],
  ])('rejects %s', (_, json, pattern) => {
    const message = corruptMessage(json);
    expect(message).toMatch(pattern);
    expect(message).toMatch(/Re-download the model/);
  });

  it('tokenizes a minimal valid WordPiece tokenizer', () => {
    const tok = createLineTokenizer(wp({ '[UNK]': 0, hello: 1, '##s': 2, '!': 3 }));
    expect(tok.kind).toBe('wordpiece-native');
    expect(Array.from(tok.encode('hellos! xyz'))).toEqual([1, 2, 3, 0]);
    expect(tok.unkId).toBe(0);
    expect(tok.vocabSize).toBe(4);
  });
});
