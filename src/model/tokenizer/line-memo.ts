// Bounded whole-line memo (oldest entries evicted first) for tokenizers whose ids are only provably
// the library's when a line is tokenized as a whole. Long lines are not kept, so memory stays bounded.
import { pushIds, type IdBuffer } from './id-buffer.js';

export interface LineMemoOptions {
  maxLines?: number;
  maxLineChars?: number;
}

export interface LineMemo {
  /** Appends the ids of `text`, from the memo or by running `encode` (which appends into buf). */
  encodeInto(text: string, buf: IdBuffer, encode: (text: string, buf: IdBuffer) => void): number;
  readonly size: number;
}

export function createLineMemo(opts: LineMemoOptions = {}): LineMemo {
  const maxLines = opts.maxLines ?? 20_000;
  const maxLineChars = opts.maxLineChars ?? 1_000;
  const memo = new Map<string, Int32Array>();
  return {
    get size() { return memo.size; },
    encodeInto(text, buf, encode) {
      const hit = memo.get(text);
      if (hit !== undefined) { pushIds(buf, hit); return hit.length; }
      const before = buf.length;
      encode(text, buf);
      if (text.length <= maxLineChars) {
        if (memo.size >= maxLines) memo.delete(memo.keys().next().value as string);
        memo.set(text, buf.ids.slice(before, buf.length));
      }
      return buf.length - before;
    },
  };
}
