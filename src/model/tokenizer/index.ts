// Line tokenizers for model2vec: picks the fastest implementation that gives exactly the ids of
// @huggingface/tokenizers' encode(text, { add_special_tokens: false }) for a parsed tokenizer.json.
import { readRoot, readUnigram, readWordPiece } from './config.js';
import { DEFAULT_MEMO_WORDS } from './ascii-word-memo.js';
import { createLibraryTokenizer } from './library-memo.js';
import { memoSizes } from './line-memo.js';
import type { LineTokenizer } from './line-tokenizer.js';
import { createUnigramTokenizer } from './unigram-native.js';
import { createWordPieceTokenizer } from './wordpiece-native.js';

export type { LineTokenizer } from './line-tokenizer.js';
export { createIdBuffer, reserveIds, type IdBuffer } from './id-buffer.js';

export interface LineTokenizerOptions {
  /** false forces the library-backed implementation (for parity checks and benchmarks). */
  native?: boolean;
  /** Entries per memo (words, chunks; lines get an eighth). Default 65536; small values test eviction. */
  memoEntries?: number;
}

/**
 * Builds a tokenizer from a parsed tokenizer.json. Throws SimgrepError('TOKENIZER_CORRUPT') when the
 * JSON is malformed or uses something the library cannot run.
 */
export function createLineTokenizer(tokenizerJson: unknown, opts: LineTokenizerOptions = {}): LineTokenizer {
  const root = readRoot(tokenizerJson);
  const memo = memoSizes(opts.memoEntries ?? DEFAULT_MEMO_WORDS);
  if (opts.native !== false) {
    const wordPiece = readWordPiece(root);
    if (wordPiece) return createWordPieceTokenizer(wordPiece, memo);
    const unigram = readUnigram(root);
    if (unigram) return createUnigramTokenizer(unigram, memo);
  }
  return createLibraryTokenizer(root, memo);
}
