// Native BERT tokenizer (BertNormalizer + BertPreTokenizer + WordPiece), id-identical to the library.
// Pure-ASCII text runs a char-code loop with an allocation-free word memo; anything else (non-ASCII,
// chars the normalizer drops) runs whole-string normalization with a bounded per-word Map memo.
import { AsciiWordMemo, MEMO_HASH_SEED } from './ascii-word-memo.js';
import { createAddedTokenSplitter } from './added-tokens.js';
import { asciiClasses, asciiFold, bertNormalize, bertPreTokenize, DROPPED, PUNCT_CHAR, SPACE } from './bert-text.js';
import type { WordPieceSpec } from './config.js';
import { createIdBuffer, pushIds, reserveIds, type IdBuffer } from './id-buffer.js';
import type { LineTokenizer } from './line-tokenizer.js';
import { createWordPieceModel } from './wordpiece-model.js';

/** Bound on the non-ASCII word memo; cleared wholesale when reached. */
const MAX_GENERAL_WORDS = 50_000;

export function createWordPieceTokenizer(spec: WordPieceSpec): LineTokenizer {
  const model = createWordPieceModel(spec);
  const added = createAddedTokenSplitter(spec.added);
  const cls = asciiClasses(spec.normalizer);
  const fold = asciiFold(spec.normalizer);
  const unkId = spec.unkId;
  const maxChars = spec.maxInputCharsPerWord;
  const memo = new AsciiWordMemo();
  const generalMemo = new Map<string, number[]>();

  // Ids of one-char words and punctuation, indexed by the (folded) char code.
  const singleIds = new Int32Array(128);
  for (let c = 0; c < 128; c++) {
    const ids = model.word(String.fromCharCode(fold[c]));
    singleIds[c] = ids.length === 1 ? ids[0] : unkId;
  }
  // An added token whose content an ASCII section could normalize to must be checked per section.
  const asciiReachable = spec.added.some((t) => isAsciiNormalForm(t.content, cls, fold));

  /** Fast path; returns false (buf untouched) when the section needs the general path. */
  function encodeAscii(s: string, buf: IdBuffer): boolean {
    const n = s.length;
    reserveIds(buf, n);
    const out = buf.ids;
    let at = buf.length;
    let i = 0;
    while (i < n) {
      let c = s.charCodeAt(i);
      if (c >= 128) return false;
      const k = cls[c];
      if (k === SPACE) { i++; continue; }
      if (k === PUNCT_CHAR) { out[at++] = singleIds[c]; i++; continue; }
      if (k === DROPPED) return false;
      const start = i;
      let h = MEMO_HASH_SEED;
      for (;;) {
        h = Math.imul(h ^ fold[c], 16777619);
        if (++i === n) break;
        c = s.charCodeAt(i);
        if (c >= 128) return false;
        if (cls[c] !== 0) break;
      }
      const len = i - start;
      if (len === 1) { out[at++] = singleIds[s.charCodeAt(start)]; continue; }
      if (len > maxChars) { out[at++] = unkId; continue; }
      let e = memo.find(s, start, i, h, fold);
      if (e < 0) {
        const word = foldSlice(s, start, i, fold);
        const ids = model.word(word);
        e = memo.insert(s, start, i, h, fold, ids);
        if (e < 0) { for (const id of ids) out[at++] = id; continue; }
      }
      const ids = memo.ids;
      const to = memo.idAt[e + 1];
      for (let j = memo.idAt[e]; j < to; j++) out[at++] = ids[j];
    }
    buf.length = at;
    return true;
  }

  function encodeGeneral(s: string, buf: IdBuffer): void {
    const normalized = bertNormalize(s, spec.normalizer);
    if (normalized.length === 0) return;
    const whole = added.ids.get(normalized);
    if (whole !== undefined) { pushIds(buf, [whole]); return; }
    for (const word of bertPreTokenize(normalized)) {
      let ids = generalMemo.get(word);
      if (ids === undefined) {
        ids = model.word(word);
        if (generalMemo.size >= MAX_GENERAL_WORDS) generalMemo.clear();
        generalMemo.set(word, ids);
      }
      pushIds(buf, ids);
    }
  }

  function encodeSection(s: string, buf: IdBuffer): void {
    if (asciiReachable || !encodeAscii(s, buf)) encodeGeneral(s, buf);
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

  const scratch = createIdBuffer(256);
  return {
    kind: 'wordpiece-native',
    vocabSize: spec.vocabSize,
    unkId,
    encodeInto,
    encode(text) {
      scratch.length = 0;
      encodeInto(text, scratch);
      return scratch.ids.slice(0, scratch.length);
    },
  };
}

function foldSlice(s: string, start: number, end: number, fold: Uint8Array): string {
  let out = '';
  for (let i = start; i < end; i++) out += String.fromCharCode(fold[s.charCodeAt(i)]);
  return out;
}

/** True when `content` could be the normalized form of an ASCII section the fast path handles. */
function isAsciiNormalForm(content: string, cls: Uint8Array, fold: Uint8Array): boolean {
  if (content.length === 0) return false;
  for (let i = 0; i < content.length; i++) {
    const c = content.charCodeAt(i);
    if (c >= 128 || cls[c] === DROPPED || fold[c] !== c) return false;
  }
  return true;
}
