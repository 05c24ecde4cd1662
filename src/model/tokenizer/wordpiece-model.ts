// WordPiece for one normalized pre-token: greedy longest-match-first over code points, `##`-style
// continuation prefix, the whole word becomes [UNK] when any part fails or it is too long.
import type { WordPieceSpec } from './config.js';

export interface WordPieceModel {
  /** Ids of one pre-token (already normalized). */
  word(word: string): number[];
}

function codePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // A surrogate pair is one code point; lone surrogates count as one each (like [...s]).
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

export function createWordPieceModel(spec: WordPieceSpec): WordPieceModel {
  const { vocab, unkId, prefix, maxInputCharsPerWord } = spec;
  // No vocab entry is longer than this, so longer candidates can be skipped without changing results.
  let maxPieceChars = 1;
  for (const token of vocab.keys()) maxPieceChars = Math.max(maxPieceChars, codePointLength(token));

  function greedy(chars: string[] | string, n: number): number[] {
    const out: number[] = [];
    let start = 0;
    const asString = typeof chars === 'string';
    while (start < n) {
      let end = Math.min(n, start + maxPieceChars);
      let id: number | undefined;
      while (start < end) {
        const sub = asString ? chars.slice(start, end) : (chars as string[]).slice(start, end).join('');
        id = vocab.get(start > 0 ? prefix + sub : sub);
        if (id !== undefined) break;
        end--;
      }
      if (id === undefined) return [unkId];
      out.push(id);
      start = end;
    }
    return out;
  }

  return {
    word(word) {
      let hasSurrogate = false;
      for (let i = 0; i < word.length; i++) {
        const c = word.charCodeAt(i);
        if (c >= 0xd800 && c <= 0xdfff) { hasSurrogate = true; break; }
      }
      if (!hasSurrogate) {
        if (word.length > maxInputCharsPerWord) return [unkId];
        return greedy(word, word.length);
      }
      const chars = [...word];
      if (chars.length > maxInputCharsPerWord) return [unkId];
      return greedy(chars, chars.length);
    },
  };
}
