// WordPiece for one normalized pre-token: greedy longest-match-first over code points with a `##`-style
// continuation prefix; the whole word becomes [UNK] when any part fails or it is too long. Longest
// matches come from two tries (word-initial pieces, continuation pieces), so a word costs O(length).
import type { WordPieceSpec } from './config.js';
import { PieceTrie } from './piece-trie.js';
import { PreorderTrie } from './preorder-trie.js';

export interface WordPieceModel {
  /** Ids of one pre-token (already normalized). */
  word(word: string): number[];
  /** Ids of the ASCII pre-token text[start, end) after mapping each char through `fold`. */
  asciiWord(text: string, start: number, end: number, fold: Uint8Array): number[];
}

/** Word-initial and continuation pieces of a WordPiece vocabulary, as tries. */
export interface WordPieceTries { initial: PreorderTrie; continuing: PreorderTrie }

export function buildWordPieceTries(spec: WordPieceSpec): WordPieceTries {
  const { vocab, prefix } = spec;
  let chars = 0;
  for (const token of vocab.keys()) chars += token.length;
  const initial = new PieceTrie((chars >> 1) + 1);
  const continuing = new PieceTrie((chars >> 1) + 1);
  for (const [token, id] of vocab) {
    initial.insert(token, id);
    if (token.startsWith(prefix) && token.length > prefix.length) continuing.insert(token.slice(prefix.length), id);
  }
  return { initial: PreorderTrie.from(initial), continuing: PreorderTrie.from(continuing) };
}

export function createWordPieceModel(spec: Pick<WordPieceSpec, 'unkId' | 'maxInputCharsPerWord'>, tries: WordPieceTries): WordPieceModel {
  const { unkId, maxInputCharsPerWord } = spec;
  const { initial, continuing } = tries;
  let cps = new Int32Array(256);

  /** Greedy longest match over cps[0, n). */
  function greedy(n: number): number[] {
    const out: number[] = [];
    let start = 0;
    while (start < n) {
      const trie = start === 0 ? initial : continuing;
      const records = trie.records;
      let node = 0;
      let id = -1;
      let end = -1;
      for (let i = start; i < n; i++) {
        node = trie.child(node, cps[i]);
        if (node < 0) break;
        if (records[node] >= 0) { id = records[node]; end = i + 1; }
      }
      if (id < 0) return [unkId];
      out.push(id);
      start = end;
    }
    return out;
  }

  return {
    word(word) {
      if (cps.length < word.length) cps = new Int32Array(word.length * 2);
      let n = 0;
      for (const ch of word) cps[n++] = ch.codePointAt(0) as number;
      if (n > maxInputCharsPerWord) return [unkId];
      return greedy(n);
    },
    asciiWord(text, start, end, fold) {
      const n = end - start;
      if (n > maxInputCharsPerWord) return [unkId];
      if (cps.length < n) cps = new Int32Array(n * 2);
      for (let i = 0; i < n; i++) cps[i] = fold[text.charCodeAt(start + i)];
      return greedy(n);
    },
  };
}
