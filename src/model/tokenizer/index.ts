// Line tokenizers for model2vec: picks the fastest implementation that gives exactly the ids of
// @huggingface/tokenizers' encode(text, { add_special_tokens: false }) for a parsed tokenizer.json.
import { readRoot, readUnigram, readWordPiece } from './config.js';
import { createLibraryTokenizer } from './library-memo.js';
import type { LineTokenizer } from './line-tokenizer.js';
import { createUnigramTokenizer } from './unigram-native.js';
import { createWordPieceTokenizer } from './wordpiece-native.js';

export type { LineTokenizer } from './line-tokenizer.js';
export { createIdBuffer, reserveIds, type IdBuffer } from './id-buffer.js';

export interface LineTokenizerOptions {
  /** Force the library-backed implementation (for parity checks and benchmarks). */
  native?: boolean;
}

/**
 * Builds a tokenizer from a parsed tokenizer.json. Throws SimgrepError('TOKENIZER_CORRUPT') when the
 * JSON is malformed or uses something the library cannot run.
 */
export function createLineTokenizer(tokenizerJson: unknown, opts: LineTokenizerOptions = {}): LineTokenizer {
  const root = readRoot(tokenizerJson);
  if (opts.native !== false) {
    const wordPiece = readWordPiece(root);
    if (wordPiece) return createWordPieceTokenizer(wordPiece);
    const unigram = readUnigram(root);
    if (unigram) return createUnigramTokenizer(unigram);
  }
  return createLibraryTokenizer(root);
}
