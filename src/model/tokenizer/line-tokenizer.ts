// The LineTokenizer seam: one line of text in, token ids out, identical to what
// @huggingface/tokenizers' encode(text, { add_special_tokens: false }).ids returns.
import { createIdBuffer, type IdBuffer } from './id-buffer.js';

export interface LineTokenizer {
  /** Token ids for one line, no special tokens; unknown-token ids are INCLUDED (callers drop them). */
  encode(text: string): Int32Array;
  /**
   * Appends the ids of `text` to buf.ids at buf.length (growing buf.ids when needed; re-read it after
   * the call) and returns how many ids were appended. The allocation-free hot path.
   */
  encodeInto(text: string, buf: IdBuffer): number;
  /** Highest token id + 1. */
  readonly vocabSize: number;
  /** Id of the unknown token, or null when the tokenizer has none. */
  readonly unkId: number | null;
  /** Which implementation runs: 'wordpiece-native', 'unigram-native', 'library-memo'. */
  readonly kind: string;
}

/** Builds a LineTokenizer from its allocation-free encodeInto; encode() copies out of a scratch buffer. */
export function lineTokenizerFrom(
  parts: { kind: string; vocabSize: number; unkId: number | null; encodeInto: (text: string, buf: IdBuffer) => number },
): LineTokenizer {
  const scratch = createIdBuffer(256);
  return {
    ...parts,
    encode(text) {
      scratch.length = 0;
      parts.encodeInto(text, scratch);
      return scratch.ids.slice(0, scratch.length);
    },
  };
}
