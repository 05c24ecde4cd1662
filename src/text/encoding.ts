// Text encodings other than UTF-8, recognised by their byte-order mark as ripgrep does: UTF-16 files
// are transcoded to UTF-8 as they stream, so they are searched like any other text.

export type Utf16 = 'utf-16le' | 'utf-16be';

/** The UTF-16 flavour named by a byte-order mark at the start of a file, or null. */
export function utf16Bom(first: Uint8Array): Utf16 | null {
  if (first.length < 2) return null;
  if (first[0] === 0xff && first[1] === 0xfe) return 'utf-16le';
  if (first[0] === 0xfe && first[1] === 0xff) return 'utf-16be';
  return null;
}

/** Whether a file starts with UTF-8's byte-order mark (EF BB BF), which its text does not hold. */
export function hasUtf8Bom(first: Uint8Array): boolean {
  return first.length >= 3 && first[0] === 0xef && first[1] === 0xbb && first[2] === 0xbf;
}

const encoder = new TextEncoder();

/** A stream of UTF-16 bytes (BOM first) as UTF-8 bytes, without the BOM; bad units become U+FFFD. */
export async function* transcodeUtf16(chunks: AsyncIterable<Uint8Array>, encoding: Utf16): AsyncGenerator<Uint8Array> {
  // The decoder keeps an odd byte or a lone surrogate across chunk boundaries (stream: true).
  const decoder = new TextDecoder(encoding, { fatal: false, ignoreBOM: false });
  for await (const chunk of chunks) {
    const text = decoder.decode(chunk, { stream: true });
    if (text.length > 0) yield encoder.encode(text);
  }
  const rest = decoder.decode();
  if (rest.length > 0) yield encoder.encode(rest);
}
