// The snapshot rebuilt from the store when no snapshot of the current version exists (a writer was
// killed before publishing, or snapshot.bin was lost): vectors come from the store, lexical features
// are read back from the files. A file that changed since it was indexed is marked stale (mtime -1,
// no hash), so the next search or run re-indexes it in full before answering. An object (a URI), and a
// file whose ctime the index does not know, is not stat'ed: its bytes are read and their hash compared
// (a file's hashed as its chunks stream, so memory stays bounded as for a stat'ed one).
import { createHash } from 'node:crypto';
import { SimgrepError } from '../../errors.js';
import { loopTurns, STOP_TURN_MS } from '../../loop-turns.js';
import { statSync } from 'node:fs';
import { ioPathOf } from '../../sources/dir-listing.js';
import { createFsSource } from '../../sources/fs.js';
import { streamEntry, type Source } from '../../sources/source.js';
import { isRemoteUri } from '../../sources/uri.js';
import { chunkFeatures, type ChunkIdentifiers } from '../snapshot/chunk-features.js';
import { openChunks } from './file-chunks.js';
import type { StopCheck } from './shared-rebuild.js';
import { TermCollector } from '../snapshot/term-collector.js';
import { UNKNOWN_CTIME, emptySnapshot, patchSnapshot, type ChunkRow, type FileStateOf, type Snapshot } from '../snapshot/snapshot.js';
import type { ChunkVector, IndexStore, StoreVersion } from '../store/store.js';

/**
 * `signal`: read between the batches of the store's rows, before each file and before each of a file's chunks (ABORTED): a
 * big store's files take seconds, and so does one big file (session 44 left it finishing the file it was in). (A
 * SharedRebuild's stop check: a load that comes before it is read takes the stop back.) While a load could still stop
 * it (`stoppable`), the event loop turns every STOP_TURN_MS between files and chunks: a small file's read ends in microtasks, and a
 * stop that comes as a timer (a --timeout) or a message (an MCP client's cancellation on its socket) was seen only
 * after the last file (trust44: a CLI search with --timeout 1 rebuilt all 9,037 files of the bench tree's index, 5 s,
 * before it stopped). A rebuild no load can stop (an index run's, a search's without a signal) does not turn it.
 */
export async function rebuildSnapshot(store: IndexStore, version: StoreVersion, dim: number, chunkLines: number, reader?: Source, signal?: StopCheck): Promise<Snapshot> {
  const [states, vectors] = await Promise.all([store.fileStates(version, signal), store.chunkVectors(version, signal)]);
  const stopped = () => { if (signal?.aborted) throw new SimgrepError('ABORTED', 'the ranking snapshot\'s rebuild was aborted'); };
  stopped();
  const byPath = new Map<string, Map<number, ChunkVector>>();
  for (const v of vectors) {
    let m = byPath.get(v.path);
    if (!m) { m = new Map(); byPath.set(v.path, m); }
    m.set(v.start, v);
  }
  const files = reader ?? createFsSource({ paths: [] });
  const rows: ChunkRow[] = [];
  const terms = new TermCollector();
  const kept: FileStateOf[] = [];
  const turns = loopTurns({ everyMs: STOP_TURN_MS, when: () => signal !== undefined && (signal.stoppable ?? true) });
  /**
   * A remote object's bytes (its hash is checked), the stop looked at between its pieces (1 MiB past 8 MiB): it was read to
   * its end first. The stream gets a signal of its own, aborted once the stop is seen (looked at every STOP_TURN_MS while it
   * reads): a store that stalls between pieces held the read until the remote timeout (30 s) before the stop was looked at.
   */
  const wholeObject = async (key: string): Promise<Buffer> => {
    const parts: Uint8Array[] = [];
    const stop = new AbortController();
    const watch = signal && setInterval(() => { if (signal.aborted) stop.abort(); }, STOP_TURN_MS);
    try {
      for await (const part of streamEntry(files, { path: key }, stop.signal)) {
        parts.push(part);
        if (turns.due()) await turns.take();
        stopped(); // leaving the loop ends the read (the stream's finally lets the connection go)
      }
    } finally {
      clearInterval(watch);
    }
    return parts.length === 1 && Buffer.isBuffer(parts[0]) ? parts[0] : Buffer.concat(parts);
  };
  for (const state of states) {
    if (turns.due()) await turns.take();
    stopped();
    const stored = byPath.get(state.key) ?? new Map<number, ChunkVector>();
    const fileRows: { row: ChunkRow; identifiers: ChunkIdentifiers }[] = [];
    let fresh = state.kind === 'binary';
    if (!fresh) {
      try {
        // An object, and a file whose ctime the index does not know (an older simgrep's record): the content
        // hash decides. The file's is taken as its chunks are read (it was read whole into memory first).
        const bytes = isRemoteUri(state.key) ? await wholeObject(state.key) : null;
        const hashed = !bytes && state.ctime === UNKNOWN_CTIME ? hashedStream(streamEntry(files, { path: state.key })) : null;
        const st = bytes || hashed ? null : statSync(ioPathOf(state.key));
        const same = bytes ? createHash('sha256').update(bytes).digest('hex') === state.hash : hashed !== null || (st!.size === state.size && st!.mtimeMs === state.mtime && st!.ctimeMs === state.ctime);
        if (same) {
          const opened = await openChunks(bytes ? once(bytes) : hashed?.chunks ?? streamEntry(files, { path: state.key }), chunkLines);
          fresh = true;
          for await (const c of opened.chunks) {
            // Within a file too: a big one (100 MB) takes seconds to read and cut.
            if (turns.due()) await turns.take();
            stopped();
            const v = stored.get(c.start);
            if (!v || v.end !== c.end) { fresh = false; break; }
            const f = chunkFeatures(c.lines, terms.identifiers);
            fileRows.push({ row: { ...v, chars: f.chars, blank: f.blank, defs: f.definitions }, identifiers: f.identifiers });
          }
          if (fileRows.length !== stored.size) fresh = false;
          // Read to its end (not a binary file's first piece alone) and the bytes indexed: else it is stale.
          if (fresh && hashed && hashed.digest() !== state.hash) fresh = false;
        }
      } catch (e) {
        if (signal?.aborted) throw e instanceof SimgrepError && e.code === 'ABORTED' ? e : new SimgrepError('ABORTED', 'the ranking snapshot\'s rebuild was aborted');
        fresh = false;
      }
    }
    if (fresh) {
      for (const r of fileRows) { terms.add(rows.length, r.identifiers); terms.addDefs(rows.length, r.row.defs); rows.push(r.row); }
      kept.push(state);
    } else kept.push({ ...state, mtime: -1, hash: '', kind: 'text', lines: 0 }); // re-indexed in full next time
  }
  return patchSnapshot(emptySnapshot(dim), { dropChunksOf: new Set(), dropFiles: new Set(), files: kept, rows, terms }, version);
}

async function* once(bytes: Uint8Array): AsyncIterable<Uint8Array> { yield bytes; }

/** The stream, hashed as it is read: `digest()` is its SHA-256 once it was read to its end, null before. */
function hashedStream(chunks: AsyncIterable<Uint8Array>): { chunks: AsyncIterable<Uint8Array>; digest(): string | null } {
  const hash = createHash('sha256');
  let ended = false;
  return {
    chunks: (async function* () {
      for await (const c of chunks) { hash.update(c); yield c; }
      ended = true;
    })(),
    digest: () => (ended ? hash.digest('hex') : null),
  };
}
