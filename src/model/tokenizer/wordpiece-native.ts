// Native BERT tokenizer (BertNormalizer + BertPreTokenizer + WordPiece), id-identical to the library.
// ASCII runs a char-code loop with an allocation-free word memo; a whitespace-delimited chunk holding
// non-ASCII (or chars the normalizer drops) runs whole-string normalization, memoized per chunk.
import { AsciiWordMemo, MEMO_HASH_SEED } from './ascii-word-memo.js';
import { createAddedTokenSplitter } from './added-tokens.js';
import { asciiClasses, asciiFold, bertNormalize, bertPreTokenize, DROPPED, PUNCT_CHAR, SPACE, WORD } from './bert-text.js';
import type { WordPieceSpec } from './config.js';
import { pushIds, reserveIds, type IdBuffer } from './id-buffer.js';
import { lineTokenizerFrom, type LineTokenizer } from './line-tokenizer.js';
import type { MemoSizes } from './line-memo.js';
import { buildWordPieceTries, createWordPieceModel, type WordPieceTries } from './wordpiece-model.js';

const MAX_MEMO_CHUNK_CHARS = 256;

/** A WordPiece spec with its vocabulary already built into tries (what the compiled cache stores). */
export type CompiledWordPiece = Omit<WordPieceSpec, 'vocab'> & { tries: WordPieceTries };

export function compileWordPiece(spec: WordPieceSpec): CompiledWordPiece {
  const { vocab: _vocab, ...rest } = spec;
  return { ...rest, tries: buildWordPieceTries(spec) };
}

export function createWordPieceTokenizer(spec: CompiledWordPiece, sizes: MemoSizes): LineTokenizer {
  const model = createWordPieceModel(spec, spec.tries);
  const added = createAddedTokenSplitter(spec.added);
  const cls = asciiClasses(spec.normalizer);
  const fold = asciiFold(spec.normalizer);
  const unkId = spec.unkId;
  const maxChars = spec.maxInputCharsPerWord;
  const memo = new AsciiWordMemo(sizes.words);
  const chunkMemo = new Map<string, number[]>();

  // Ids of one-char words and punctuation, indexed by the raw char code.
  const singleIds = new Int32Array(128);
  for (let c = 0; c < 128; c++) {
    const ids = model.word(String.fromCharCode(fold[c]));
    singleIds[c] = ids.length === 1 ? ids[0] : unkId;
  }
  // The library emits an added token when a whole normalized section equals its content. Lowercased
  // output never holds A-Z (a unit test checks every code point), so such contents need no check.
  const reachable = spec.added
    .map((t) => t.content)
    .filter((c) => c.length > 0 && !(spec.normalizer.lowercase && /[A-Z]/.test(c)));

  /** Id of the added token that the whole normalized section equals, else -1. */
  function sectionAddedId(s: string): number {
    for (let i = 0; i < s.length; i++) {
      if (s.charCodeAt(i) >= 128) return added.ids.get(bertNormalize(s, spec.normalizer)) ?? -1;
    }
    for (const content of reachable) if (asciiNormalizesTo(s, content, cls, fold, spec.normalizer.cleanText)) return added.ids.get(content) ?? -1;
    return -1;
  }

  /**
   * A chunk between ASCII whitespace that holds non-ASCII or dropped chars: normalized and split on
   * its own, which equals doing it inside the line because every step is blind across a space.
   */
  function encodeChunk(chunk: string, buf: IdBuffer): void {
    let ids = chunkMemo.get(chunk);
    if (ids === undefined) {
      ids = [];
      for (const word of bertPreTokenize(bertNormalize(chunk, spec.normalizer))) ids.push(...model.word(word));
      if (chunk.length <= MAX_MEMO_CHUNK_CHARS) {
        if (chunkMemo.size >= sizes.chunks) chunkMemo.clear();
        chunkMemo.set(chunk, ids);
      }
    }
    pushIds(buf, ids);
  }

  /** One section (no added tokens inside): the ASCII char loop, with non-ASCII chunks handed off. */
  function encodeSection(s: string, buf: IdBuffer): void {
    if (reachable.length > 0) {
      const id = sectionAddedId(s);
      if (id >= 0) { pushIds(buf, [id]); return; }
    }
    const n = s.length;
    reserveIds(buf, n); // the ASCII loop emits at most one id per char
    let out = buf.ids;
    let at = buf.length;
    let chunkStart = 0;
    let chunkAt = at;
    let i = 0;
    while (i < n) {
      let c = s.charCodeAt(i);
      if (c < 128) {
        const k = cls[c];
        if (k === SPACE) { i++; chunkStart = i; chunkAt = at; continue; }
        if (k === PUNCT_CHAR) { out[at++] = singleIds[c]; i++; continue; }
        if (k === WORD) {
          const start = i;
          let h = MEMO_HASH_SEED;
          for (;;) {
            h = Math.imul(h ^ fold[c], 16777619);
            if (++i === n) break;
            c = s.charCodeAt(i);
            if (c >= 128 || cls[c] !== WORD) break;
          }
          if (i === n || (c < 128 && cls[c] !== DROPPED)) {
            at = emitWord(s, start, i, h, out, at);
            continue;
          }
        }
      }
      // Non-ASCII or a dropped char: redo the whole whitespace-delimited chunk on the general path.
      let end = i;
      while (end < n) {
        const d = s.charCodeAt(end);
        if (d < 128 && cls[d] === SPACE) break;
        end++;
      }
      buf.length = chunkAt;
      encodeChunk(s.slice(chunkStart, end), buf);
      reserveIds(buf, n - end);
      out = buf.ids;
      at = buf.length;
      i = chunkStart = end;
      chunkAt = at;
    }
    buf.length = at;
  }

  /** Writes the ids of the ASCII word text[start, end) at out[at]; returns the new end. */
  function emitWord(s: string, start: number, end: number, hash: number, out: Int32Array, at: number): number {
    const len = end - start;
    if (len === 1) { out[at++] = singleIds[s.charCodeAt(start)]; return at; }
    if (len > maxChars) { out[at++] = unkId; return at; }
    let e = memo.find(s, start, end, hash, fold);
    if (e < 0) {
      const ids = model.asciiWord(s, start, end, fold);
      e = memo.insert(s, start, end, hash, fold, ids);
      if (e < 0) { for (const id of ids) out[at++] = id; return at; }
    }
    const ids = memo.ids;
    const to = memo.idAt[e + 1];
    for (let j = memo.idAt[e]; j < to; j++) out[at++] = ids[j];
    return at;
  }

  function encodeInto(text: string, buf: IdBuffer): number {
    const before = buf.length;
    const sections = added.split(text);
    if (sections === null) {
      encodeSection(text, buf);
      return buf.length - before;
    }
    for (const s of sections) {
      if (s.length === 0) continue;
      const id = added.ids.get(s);
      if (id !== undefined) pushIds(buf, [id]);
      else encodeSection(s, buf);
    }
    return buf.length - before;
  }

  return lineTokenizerFrom({ kind: 'wordpiece-native', vocabSize: spec.vocabSize, unkId, encodeInto });
}

/** Whether the ASCII section `s` normalizes to exactly `content` (drops removed, folds, maps \t\n\r). */
function asciiNormalizesTo(s: string, content: string, cls: Uint8Array, fold: Uint8Array, cleanText: boolean): boolean {
  let k = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (cls[c] === DROPPED) continue;
    const want = cleanText && (c === 9 || c === 10 || c === 13) ? 32 : fold[c];
    if (k >= content.length || content.charCodeAt(k) !== want) return false;
    k++;
  }
  return k === content.length;
}
