// The index as a Source: one entry per file that holds candidate chunks, whose pieces are those
// chunks with their context lines, read back from the file exactly as a search reads it (the search
// checked the file is the one indexed). The pipeline scores them with the same code as a scan.
import { streamEntry, type Entry, type Source } from '../../sources/source.js';
import type { Piece } from '../../text/line-splitter.js';
import type { KnownSignals } from '../../rank/relevance.js';
import type { PathFacts } from '../../types.js';
import { sizeToRead, type Snapshot } from '../snapshot/snapshot.js';
import { fileState } from '../snapshot/prose-stats-file.js';
import { KEPT_TEXT_FILE_BYTES, linesOf, readText, readWhole, type FileText, type KeptText } from './kept-text.js';

export interface CandidateSourceOptions {
  snapshot: Snapshot;
  /** Candidate chunk indices, in snapshot order. */
  candidates: number[];
  display: (string | undefined)[];
  chunkLines: number;
  /** Reads a file back by its path (local or URI). */
  reader: Source;
  /**
   * A resident process's kept text of files read before (kept-text.ts), under the snapshot's state of
   * each file; the pieces then carry that state as their key (the scorer keeps their chunks' tokens and sums).
   */
  kept?: KeptText;
  /** Candidates' distances known exactly, by chunk (candidates.ts): their pieces carry them. */
  known?: Map<number, number>;
  /** Candidates' lexical signals known exactly, by chunk (candidates.ts termSignals): their pieces carry them. */
  signals?: Map<number, KnownSignals>;
  /** Each covered file's path facts, by snapshot index (coverage.ts infos): its entry carries them. */
  infos?: ({ facts: PathFacts } | undefined)[];
  /** Each covered file's rank path (coverage.ts ranks): its entry carries it (Entry.rank). */
  ranks?: (string | undefined)[];
}

export function createCandidateSource(o: CandidateSourceOptions): Source {
  const { snapshot: s, chunkLines } = o;
  const byFile = new Map<number, number[]>();
  for (const c of o.candidates) {
    const f = s.chunkFile[c];
    const list = byFile.get(f);
    if (list) list.push(c); else byFile.set(f, [c]);
  }
  const entries: Entry[] = [...byFile.keys()].map((f) => {
    const facts = o.infos?.[f]?.facts;
    const rank = o.ranks?.[f];
    return { path: o.display[f]!, size: sizeToRead(s.files[f]), ...(rank !== undefined && { rank }), ...(facts && { facts }) };
  });
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
      // The file's text: kept by a resident process, which reads a file small enough to keep whole (the
      // next search's windows are slices of it); else read up to the last line any window needs.
      const state = o.kept ? fileState(s.files[f]) : '';
      let text = (await o.kept?.get(state, chunkLines)) ?? null;
      // Read whole and not the bytes indexed (an edit its stat did not show, made after the stale check): its chunks' known distances
      // and signals are the old text's, so its lines are counted as read, as a scan counts them.
      let unseen = false;
      if (!text && o.kept !== undefined && s.files[f].size <= KEPT_TEXT_FILE_BYTES) {
        const read = await readWhole(streamEntry(files, entry, signal), chunkLines, s.files[f].hash);
        text = read.text;
        unseen = !read.indexed;
        if (read.indexed) o.kept.set(state, text);
      } else if (!text) {
        text = await readText(streamEntry(files, entry, signal), chunkLines, Math.max(0, ...windows.map((w) => w[1])));
      }
      const lines = text.offsets.length - 1;
      const out: Piece[] = [];
      chunks.forEach((c, k) => {
        const from = windows[k][0];
        const to = Math.min(windows[k][1], lines); // a file shorter than indexed has fewer lines
        if (!(Math.min(s.end[c], to) > s.start[c])) return;
        const p = piece(text, from, to, s.start[c] - from, Math.min(s.end[c], to) - from, o.kept ? state : undefined);
        const distance = to >= s.end[c] && !unseen ? o.known?.get(c) : undefined;
        if (distance !== undefined) p.distance = distance;
        const signals = to >= s.end[c] && !unseen ? o.signals?.get(c) : undefined;
        if (signals !== undefined) p.signals = signals;
        out.push(p);
      });
      return out;
    },
  };
}

/** Lines [from, to) of a file's text as a piece: a slice of its bytes (each line ends with \n), its offsets from 0. */
function piece(text: FileText, from: number, to: number, scoreFrom: number, scoreTo: number, key?: string): Piece {
  // A literal, not spreads (V8 copies a spread's properties one by one, generically: ~60 pieces a search).
  const { bytes, offsets } = linesOf(text, from, to);
  const out: Piece = { bytes, offsets, firstLine: from, scoreFrom, scoreTo };
  if (key !== undefined) out.key = key;
  return out;
}
