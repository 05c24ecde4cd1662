// Bounded whole-line memo for tokenizers whose ids are only provably the library's when a line is
// tokenized as a whole. Two generations (recent lines survive one turnover; a Map used as a FIFO
// degrades in V8), and long lines are not kept, so memory stays bounded.
import { pushIds, type IdBuffer } from './id-buffer.js';

/** Bounds of every memo a tokenizer keeps (entries; each memo is cleared or turned over when full). */
export interface MemoSizes {
  words: number;
  chunks: number;
  lines: number;
}

export function memoSizes(entries: number): MemoSizes {
  const n = Math.max(1, Math.floor(entries));
  return { words: n, chunks: n, lines: Math.max(1, n >> 3) };
}

export interface LineMemoOptions {
  /** Lines per generation (at most twice this many are kept). */
  maxLines?: number;
  maxLineChars?: number;
}

export interface LineMemo {
  /** Appends the ids of `text`, from the memo or by running `encode` (which appends into buf). */
  encodeInto(text: string, buf: IdBuffer, encode: (text: string, buf: IdBuffer) => void): number;
  readonly size: number;
}

export function createLineMemo(opts: LineMemoOptions = {}): LineMemo {
  const maxLines = opts.maxLines ?? 10_000;
  const maxLineChars = opts.maxLineChars ?? 512;
  let young = new Map<string, Int32Array>();
  let old = new Map<string, Int32Array>();

  function remember(text: string, ids: Int32Array): void {
    if (young.size >= maxLines) { old = young; young = new Map(); }
    young.set(text, ids);
  }

  return {
    get size() { return young.size + old.size; },
    encodeInto(text, buf, encode) {
      if (text.length > maxLineChars) {
        const before = buf.length;
        encode(text, buf);
        return buf.length - before;
      }
      let hit = young.get(text);
      if (hit === undefined) {
        hit = old.get(text);
        if (hit !== undefined) remember(text, hit);
      }
      if (hit !== undefined) { pushIds(buf, hit); return hit.length; }
      const before = buf.length;
      encode(text, buf);
      remember(text, buf.ids.slice(before, buf.length));
      return buf.length - before;
    },
  };
}
