// HOW to read a file's bytes as text: the first chunk decides binary (a NUL byte) or text, a UTF-16
// byte-order mark switches to transcoding, a UTF-8 one is dropped, and a byte cap stops reading at
// bytes actually received.
import { hasUtf8Bom, transcodeUtf16, utf16Bom, type Utf16 } from './encoding.js';
import { looksBinary } from './decode.js';

export type OpenedText =
  | { kind: 'empty' }
  | { kind: 'binary' }
  | { kind: 'text'; encoding: 'utf-8' | Utf16; chunks: AsyncIterable<Uint8Array> };

/** Looks at the first chunk, and gives back the whole stream as UTF-8 text when it is text. */
export async function openText(chunks: AsyncIterable<Uint8Array>): Promise<OpenedText> {
  const it = chunks[Symbol.asyncIterator]();
  // A BOM needs up to 3 bytes: a pipe may deliver less in its first chunk.
  let head: Uint8Array = new Uint8Array(0);
  while (head.length < 3) {
    const next = await it.next();
    if (next.done) break;
    head = head.length === 0 ? next.value : Buffer.concat([head, next.value]);
  }
  if (head.length === 0) return { kind: 'empty' };
  if (hasUtf8Bom(head)) head = head.subarray(3);
  const rest: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]: () => {
      let sentHead = false;
      return {
        next: () => (sentHead ? it.next() : (sentHead = true, Promise.resolve({ done: false as const, value: head }))),
        return: async () => { await it.return?.(); return { done: true as const, value: undefined }; },
      };
    },
  };
  const utf16 = utf16Bom(head);
  if (utf16) return { kind: 'text', encoding: utf16, chunks: transcodeUtf16(rest, utf16) };
  if (looksBinary(head)) {
    await it.return?.();
    return { kind: 'binary' };
  }
  return { kind: 'text', encoding: 'utf-8', chunks: rest };
}

/**
 * The stream cut after `maxBytes` bytes; `onCut` is called once when there was more. The cap holds on
 * bytes received, whatever a stat or a Content-Length said (/proc files, chunked HTTP bodies).
 */
export async function* capBytes(chunks: AsyncIterable<Uint8Array>, maxBytes: number, onCut: () => void): AsyncGenerator<Uint8Array> {
  let seen = 0;
  for await (const chunk of chunks) {
    if (seen + chunk.length > maxBytes) {
      if (maxBytes > seen) yield chunk.subarray(0, maxBytes - seen);
      onCut();
      return;
    }
    seen += chunk.length;
    yield chunk;
  }
}
