// UTF-8 decoding of batch lines: lossy (bad bytes become U+FFFD), terminators stripped. A BOM is kept
// as U+FEFF: a file's own BOM is gone before splitting (openText), and one that starts a later line
// must not vanish only when that line happens to start a decoded range.
const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/** Decodes lines [from, to) of a batch; one decode call for the whole range, then a split. */
export function decodeLines(bytes: Uint8Array, offsets: Uint32Array, from: number, to: number): string[] {
  if (to <= from) return [];
  const text = decoder.decode(bytes.subarray(offsets[from], offsets[to]));
  const lines = text.split('\n');
  // The range ends with a terminator unless it is the file's last line: split leaves one extra "".
  if (lines.length > to - from) lines.length = to - from;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (l.length > 0 && l.charCodeAt(l.length - 1) === 13) lines[i] = l.slice(0, -1);
  }
  return lines;
}

/** True when the sample looks binary (a NUL byte), the same heuristic git and ripgrep use. */
export function looksBinary(sample: Uint8Array): boolean {
  return sample.subarray(0, 8192).indexOf(0) >= 0;
}
