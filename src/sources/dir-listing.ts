// One directory's entries, with names that are not valid UTF-8 kept as their raw bytes: such a file
// is opened by its Buffer path (a lossy string would name a file that does not exist) and shown with
// its bad bytes escaped as \xNN.
import { isUtf8 } from 'node:buffer';
import { readdirSync } from 'node:fs';
import path from 'node:path';

/** A path for I/O: a string, or the raw bytes when some part of it is not valid UTF-8. */
export type IoPath = string | Buffer;

export interface DirItem {
  /** The name as a string (lossy for a bad name: only for rules and extension checks). */
  name: string;
  /** How results show it: the name, or the name with its bad bytes escaped. */
  shownName: string;
  io: IoPath;
  isDir: boolean;
  isFile: boolean;
  isLink: boolean;
}

/** The directory's entries, sorted by name; throws what readdir throws. */
export function listDir(dirAbs: string, dirIo: IoPath): DirItem[] {
  if (typeof dirIo === 'string') {
    const dirents = readdirSync(dirIo, { withFileTypes: true });
    // U+FFFD is what a bad byte decodes to: only then are the raw names read.
    if (!dirents.some((d) => d.name.includes('\uFFFD'))) {
      return sortByName(dirents.map((d) => ({
        name: d.name, shownName: d.name, io: path.join(dirAbs, d.name), isDir: d.isDirectory(), isFile: d.isFile(), isLink: d.isSymbolicLink(),
      })));
    }
  }
  const dirBytes = typeof dirIo === 'string' ? Buffer.from(dirIo) : dirIo;
  return sortByName(readdirSync(dirIo, { withFileTypes: true, encoding: 'buffer' }).map((d) => {
    const raw = d.name as unknown as Buffer;
    const valid = isUtf8(raw);
    const name = raw.toString('utf8');
    const io = valid && typeof dirIo === 'string' ? path.join(dirAbs, name) : Buffer.concat([dirBytes, Buffer.from(path.sep), raw]);
    return { name, shownName: valid ? name : escapeInvalidUtf8(raw), io, isDir: d.isDirectory(), isFile: d.isFile(), isLink: d.isSymbolicLink() };
  }));
}

/** The bytes as text, each byte that is not part of a valid UTF-8 sequence written as \xNN. */
export function escapeInvalidUtf8(raw: Uint8Array): string {
  let out = '';
  let i = 0;
  while (i < raw.length) {
    const n = sequenceLength(raw[i]);
    if (n > 0 && i + n <= raw.length && isUtf8(raw.subarray(i, i + n))) {
      out += Buffer.from(raw.subarray(i, i + n)).toString('utf8');
      i += n;
    } else {
      out += `\\x${raw[i].toString(16).toUpperCase().padStart(2, '0')}`;
      i++;
    }
  }
  return out;
}

/**
 * The path to open for a path shown with escaped bytes (a workspace index keys files by their shown
 * path): the raw bytes when undoing the \xNN escapes gives a name that is not valid UTF-8, else the
 * path as it is (a name that really holds "\x41" is valid UTF-8 either way; one that holds it inside a
 * directory whose name is not valid UTF-8 is undone wrongly and reads as missing: rare, and left).
 */
export function ioPathOf(shown: string): IoPath {
  if (!shown.includes('\\x')) return shown;
  const parts: Buffer[] = [];
  let last = 0;
  for (const m of shown.matchAll(/\\x([0-9A-F]{2})/g)) {
    parts.push(Buffer.from(shown.slice(last, m.index)), Buffer.from([parseInt(m[1], 16)]));
    last = m.index + 4;
  }
  parts.push(Buffer.from(shown.slice(last)));
  const raw = Buffer.concat(parts);
  return isUtf8(raw) ? shown : raw;
}

function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

function sortByName(items: DirItem[]): DirItem[] {
  return items.sort((a, b) => (a.shownName < b.shownName ? -1 : a.shownName > b.shownName ? 1 : 0));
}
