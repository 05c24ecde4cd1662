// What an index build leaves in a resident process's memory, made for an engine that starts over an index
// built earlier (issue 30, branch restart42): the prose documents of the snapshot kept and counted, as many as
// the kept bound holds (kept-documents.ts), and every code chunk's sum pooled on the worker pool (warm-chunks.ts).
import { isRemoteUri } from '../sources/uri.js';
import { isProsePath } from '../rank/prose.js';
import type { SourceWarning } from '../sources/source.js';
import { notSavedWarnings, type OpenWorkspace, type SnapshotNotes } from './open.js';
import { sha256Hex } from './build/hex-digest.js';
import { fileState } from './snapshot/prose-stats-file.js';
import { sizeToRead } from './snapshot/snapshot.js';
import { countWhen, keepDocument, keptBound, keptCountIdle, keepLineTokensWith, keptPublished, keptTotal, KEPT_FILE_BYTES, LINE_TERMS_PER_BYTE } from './search/kept-documents.js';
import { chunksWarmed, warmChunks } from './search/warm-chunks.js';
import { timer } from './debug-timer.js';
import { pause, turn } from './search/time-slice.js';

/** How often the keeping, held while the agent's call is under way, looks again. */
const READY_POLL_MS = 20;

/** When the keeping may take the main thread (no call of the agent under way), and when it ends (the engine is closing). */
/** `onNote`: told SNAPSHOT_NOT_SAVED when the snapshot it loaded was rebuilt and could not be written (no answer says it). */
export interface RestartWarmth { ready: () => boolean; stopped: () => boolean; onNote?: (w: SourceWarning) => void }

/**
 * Keeps the snapshot's prose documents and warms its code chunks in the background. Main-thread work (the
 * reads' callbacks, the documents' counting, the chunks' reads) takes a slice only while `ready` says (the
 * agent idle): a call waits on the main thread at most for the slice under way (the pool tasks already sent
 * share the cores with it). The chunks' pooling runs on the worker pool. Resolves once the documents are
 * counted, with how many were kept (the chunks' warm-up may go on: chunksWarmed), or at once when stopped.
 */
export async function keepRestarted(ws: OpenWorkspace, o: RestartWarmth): Promise<{ documents: number }> {
  const { ready } = o;
  // The engine closing (its runner: o.stopped) or this workspace (ws.closed): nothing more starts (review of restart42:
  // a close during the snapshot's load let it warm the chunks, register the closed searcher and start a pool after).
  const stopped = () => o.stopped() || ws.closed;
  const mark = timer('keep');
  // From now on (before the first made-up search answers) the documents' count waits for the agent to be idle too.
  countWhen(ready);
  let documents = 0;
  try {
    // Loaded at once (the chunks' warm-up started here, under this rule, before a made-up search starts its own),
    // beside the first made-up search's load: one whose file is missing or damaged is rebuilt by both.
    const notes: SnapshotNotes = {};
    const snap = await ws.loadSnapshot(undefined, notes);
    for (const w of notSavedWarnings(ws, notes, 'rebuilt from the index but not saved')) o.onNote?.(w);
    if (stopped()) return { documents };
    warmChunks(ws.searcher, { snapshot: snap, reader: ws.reader, chunkLines: ws.chunkLines, idle: ready, closed: stopped });
    void chunksWarmed(ws.searcher).then((n) => mark(`code chunks warmed (${n} pooled)`), () => undefined);
    keepLineTokensWith(ws.searcher);
    const slice = { at: -Infinity };
    // What is kept by the end, as estimated: a document's bytes and its line terms (~LINE_TERMS_PER_BYTE times as
    // many). The keeping stops short of the bound: past it, each document kept would let go of another (the
    // oldest, the agent's searches' own), read and counted for nothing.
    let planned = keptTotal();
    for (const f of snap.files) {
      if (f.kind !== 'text' || !isProsePath(f.key) || isRemoteUri(f.key) || f.size > KEPT_FILE_BYTES) continue;
      if (planned + Math.max(0, f.size) * (1 + LINE_TERMS_PER_BYTE) > keptBound()) break;
      await turn(slice);
      while (!ready() && !stopped()) { await pause(READY_POLL_MS); slice.at = performance.now(); }
      if (stopped()) break;
      let bytes: Uint8Array;
      try { bytes = await ws.reader.read({ path: f.key, size: sizeToRead(f) }); } catch { continue; } // gone: a search says so
      if (stopped()) break;
      // Changed since the index (its size, or the same size and other bytes): a search keys it under its new state
      // (the stale check), never this one.
      if (f.size >= 0 && bytes.length !== f.size) continue;
      if (f.hash && sha256Hex(bytes) !== f.hash) continue;
      // One kept already (a made-up search read it) is in keptTotal.
      if (keepDocument(fileState(f), bytes)) planned += bytes.length * (1 + LINE_TERMS_PER_BYTE);
      documents++;
    }
    mark(`prose documents read (${documents})`);
    if (stopped()) return { documents };
    // Counted and swept as a build's documents are after its publish, in the background.
    keptPublished({ now: false });
    await keptCountIdle();
    mark('prose documents counted and swept');
  } finally {
    countWhen(null);
  }
  return { documents };
}
