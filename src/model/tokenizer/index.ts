// Line tokenizers for model2vec: picks the fastest implementation that gives exactly the ids of
// @huggingface/tokenizers' encode(text, { add_special_tokens: false }) for a parsed tokenizer.json.
import { readRoot, readUnigram, readWordPiece } from './config.js';
import { DEFAULT_MEMO_WORDS } from './ascii-word-memo.js';
import { decodeCompiledWordPiece, encodeCompiledWordPiece } from './compiled-wordpiece.js';
import { createLibraryTokenizer } from './library-memo.js';
import { memoSizes } from './line-memo.js';
import type { LineTokenizer } from './line-tokenizer.js';
import { createUnigramTokenizer } from './unigram-native.js';
import { compileWordPiece, createWordPieceTokenizer, type CompiledWordPiece } from './wordpiece-native.js';

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
    if (wordPiece) return createWordPieceTokenizer(compileWordPiece(wordPiece), memo);
    const unigram = readUnigram(root);
    if (unigram) return createUnigramTokenizer(unigram, memo);
  }
  return createLibraryTokenizer(root, memo);
}

/**
 * The line tokenizer of a parsed tokenizer.json as bytes for a cache (lineTokenizerFromCompiled loads
 * them), or null when it does not run on the native WordPiece path (other kinds build from JSON).
 */
export function compileLineTokenizer(tokenizerJson: unknown): Uint8Array | null {
  const compiled = compileLineTokenizerTables(tokenizerJson);
  return compiled && encodeCompiledTokenizer(compiled);
}

/** A compiled tokenizer, decoded and checked; its tables are shared by every tokenizer made from it. */
export type CompiledLineTokenizer = CompiledWordPiece;

/** compileLineTokenizer without the bytes: the tables themselves, for use right away. */
export function compileLineTokenizerTables(tokenizerJson: unknown): CompiledLineTokenizer | null {
  const wordPiece = readWordPiece(readRoot(tokenizerJson));
  return wordPiece ? compileWordPiece(wordPiece) : null;
}

export function encodeCompiledTokenizer(compiled: CompiledLineTokenizer): Uint8Array {
  return encodeCompiledWordPiece(compiled);
}

/** Decodes compileLineTokenizer's bytes; throws when they are not a valid compiled tokenizer. */
export function decodeCompiledTokenizer(bytes: Uint8Array): CompiledLineTokenizer {
  return decodeCompiledWordPiece(bytes);
}

export function createCompiledLineTokenizer(compiled: CompiledLineTokenizer, opts: Pick<LineTokenizerOptions, 'memoEntries'> = {}): LineTokenizer {
  return createWordPieceTokenizer(compiled, memoSizes(opts.memoEntries ?? DEFAULT_MEMO_WORDS));
}
