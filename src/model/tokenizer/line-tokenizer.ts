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
  /**
   * Optional (wordpiece-native): encodeInto, but each memoised word comes as one code, -1 - its entry in
   * `words` (its ids: words.ids[words.idAt[e], words.idAt[e + 1])), every other token as its id (>= 0):
   * the same ids in the same order once expanded. An entry named stays that word's until
   * words.generation changes, which happens only at the start of a call.
   */
  encodeWordsInto?(text: string, buf: IdBuffer): number;
  readonly words?: WordTable;
}

/** The memo that encodeWordsInto's word codes name. */
export interface WordTable {
  readonly generation: number;
  /** Entry indices are below this. */
  readonly capacity: number;
  readonly idAt: Int32Array;
  readonly ids: Int32Array;
}

/** Builds a LineTokenizer from its allocation-free encodeInto; encode() copies out of a scratch buffer. */
export function lineTokenizerFrom(
  parts: {
    kind: string; vocabSize: number; unkId: number | null; encodeInto: (text: string, buf: IdBuffer) => number;
    encodeWordsInto?: (text: string, buf: IdBuffer) => number; words?: WordTable;
  },
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
