// The index as a Source: one entry per file that holds candidate chunks, whose pieces are those
// chunks with their context lines, read back from the file exactly as a search reads it (the search
// checked the file is the one indexed). The pipeline scores them with the same code as a scan.
import { streamEntry, type Entry, type Source } from '../../sources/source.js';
import type { Piece } from '../../text/line-splitter.js';
import { openChunks } from '../build/file-chunks.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import { documentState } from '../snapshot/prose-stats-file.js';
import type { KeptFileLines, KeptLines } from './kept-lines.js';

export interface CandidateSourceOptions {
  snapshot: Snapshot;
  /** Candidate chunk indices, in snapshot order. */
  candidates: number[];
  display: (string | undefined)[];
  chunkLines: number;
  /** Reads a file back by its path (local or URI). */
  reader: Source;
  /**
   * A resident process's kept lines of files read before (kept-lines.ts), under the snapshot's state of
   * each file; the pieces then carry that state as their key (the scorer keeps their chunks' tokens and sums).
   */
  kept?: KeptLines;
}

const encoder = new TextEncoder();

export function createCandidateSource(o: CandidateSourceOptions): Source {
  const { snapshot: s, chunkLines } = o;
  const byFile = new Map<number, number[]>();
  for (const c of o.candidates) {
    const f = s.chunkFile[c];
    const list = byFile.get(f);
    if (list) list.push(c); else byFile.set(f, [c]);
  }
  const entries: Entry[] = [...byFile.keys()].map((f) => ({ path: o.display[f]!, size: s.files[f].size }));
  const fileOf = new Map([...byFile.keys()].map((f) => [o.display[f]!, f]));
  const files = o.reader;

  return {
    small: true,
    async *list() { yield* entries; },
    read: async () => { throw new Error('the index source is read through pieces()'); },
    async pieces(entry, contextLines, signal) {
      const f = fileOf.get(entry.path)!;
      const chunks = byFile.get(f)!;
      const windows = chunks.map((c) => [Math.max(0, s.start[c] - contextLines), Math.min(s.files[f].lines, s.end[c] + contextLines)]);
      // The windows' lines (the file read up to the last one any window needs); a resident process keeps them for the next search.
      const state = o.kept ? documentState(s.files[f]) : '';
      let kept = o.kept?.get(state, windows);
      if (!kept) {
        kept = await windowLines(streamEntry(files, entry, signal), chunkLines, windows);
        o.kept?.set(state, kept, windows);
      }
      const { lines, extent } = kept;
      return chunks.map((c, k) => {
        const [from, to] = windows[k];
        const text: string[] = [];
        for (let line = from; line < to && line < extent; line++) text.push(lines[line]!);
        return piece(text, from, s.start[c] - from, Math.min(s.end[c], from + text.length) - from, o.kept ? state : undefined);
      }).filter((p) => p.scoreTo > p.scoreFrom);
    },
  };
}

/**
 * The lines of `windows` ([from, to) line ranges) of a file's bytes, cut as a search reads them: a sparse
 * array that holds those lines only (not every line before the last window's: a window near the end of
 * a big file held the whole file), read up to the last line any window needs.
 */
export async function windowLines(bytes: AsyncIterable<Uint8Array>, chunkLines: number, windows: number[][]): Promise<KeptFileLines> {
  const last = Math.max(0, ...windows.map((w) => w[1]));
  const wanted = new Uint8Array(last);
  for (const [from, to] of windows) wanted.fill(1, from, to);
  const lines: (string | undefined)[] = [];
  let extent = 0;
  let whole = true;
  const opened = await openChunks(bytes, chunkLines);
  for await (const chunk of opened.chunks) {
    for (let i = 0; i < chunk.lines.length; i++) if (wanted[chunk.start + i] === 1) lines[chunk.start + i] = chunk.lines[i];
    extent = chunk.end;
    if (chunk.end >= last) { whole = false; break; }
  }
  return { lines, extent, whole };
}

/** Lines as a piece; a line that ends with \r gets one more, since decoding strips one before \n. */
function piece(lines: string[], firstLine: number, scoreFrom: number, scoreTo: number, key?: string): Piece {
  const bytes = encoder.encode(lines.map((l) => (l.endsWith('\r') ? `${l}\r\n` : `${l}\n`)).join(''));
  const offsets = new Uint32Array(lines.length + 1);
  let line = 1;
  for (let i = 0; i < bytes.length && line < lines.length; i++) if (bytes[i] === 10) offsets[line++] = i + 1;
  offsets[lines.length] = bytes.length;
  return { bytes, offsets, firstLine, scoreFrom, scoreTo, ...(key !== undefined && { key }) };
}
