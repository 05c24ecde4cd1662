// The index as a Source: one entry per file that holds candidate chunks, whose pieces are those
// chunks with their context lines, rebuilt from the stored chunk texts. The pipeline scores them with
// the same code as a one-shot scan.
import type { Entry, Source } from '../sources/source.js';
import type { Piece } from '../text/line-splitter.js';
import type { Snapshot } from './snapshot.js';
import type { IndexStore } from './store.js';

export interface CandidateSourceOptions {
  snapshot: Snapshot;
  store: IndexStore;
  /** Candidate chunk indices, in snapshot order. */
  candidates: number[];
  display: (string | undefined)[];
  chunkLines: number;
  contextLines: number;
}

const encoder = new TextEncoder();

export async function createCandidateSource(o: CandidateSourceOptions): Promise<Source> {
  const { snapshot: s, chunkLines } = o;
  const byFile = new Map<number, number[]>();
  for (const c of o.candidates) {
    const f = s.chunkFile[c];
    const list = byFile.get(f);
    if (list) list.push(c); else byFile.set(f, [c]);
  }
  // Every chunk a window touches, fetched in one query.
  const ids = new Set<string>();
  for (const [f, chunks] of byFile) {
    const file = s.files[f];
    for (const c of chunks) {
      const from = Math.max(0, s.start[c] - o.contextLines);
      const to = Math.min(file.lines, s.end[c] + o.contextLines);
      for (let at = Math.floor(from / chunkLines) * chunkLines; at < to; at += chunkLines) ids.add(`${file.key}:${at}`);
    }
  }
  const texts = await o.store.chunkTexts([...ids], s.version);
  const entries: Entry[] = [...byFile.keys()].map((f) => ({ path: o.display[f]!, size: s.files[f].size }));
  const fileOf = new Map([...byFile.keys()].map((f) => [o.display[f]!, f]));

  const linesOf = (f: number, from: number, to: number): string[] => {
    const key = s.files[f].key;
    const out: string[] = [];
    for (let at = Math.floor(from / chunkLines) * chunkLines; at < to; at += chunkLines) {
      const text = texts.get(`${key}:${at}`);
      if (text === undefined) throw new Error(`chunk ${key}:${at} is missing from the index`);
      const lines = text.split('\n');
      for (let i = Math.max(from, at); i < Math.min(to, at + lines.length); i++) out.push(lines[i - at]);
    }
    return out;
  };

  return {
    small: true,
    async *list() { yield* entries; },
    read: async () => { throw new Error('the index source is read through pieces()'); },
    async pieces(entry, contextLines) {
      const f = fileOf.get(entry.path)!;
      const file = s.files[f];
      return byFile.get(f)!.map((c) => {
        const from = Math.max(0, s.start[c] - contextLines);
        const to = Math.min(file.lines, s.end[c] + contextLines);
        return piece(linesOf(f, from, to), from, s.start[c] - from, s.end[c] - from);
      });
    },
  };
}

/** Lines as a piece; a line that ends with \r gets one more, since decoding strips one before \n. */
function piece(lines: string[], firstLine: number, scoreFrom: number, scoreTo: number): Piece {
  const bytes = encoder.encode(lines.map((l) => (l.endsWith('\r') ? `${l}\r\n` : `${l}\n`)).join(''));
  const offsets = new Uint32Array(lines.length + 1);
  let line = 1;
  for (let i = 0; i < bytes.length && line < lines.length; i++) if (bytes[i] === 10) offsets[line++] = i + 1;
  offsets[lines.length] = bytes.length;
  return { bytes, offsets, firstLine, scoreFrom, scoreTo };
}
