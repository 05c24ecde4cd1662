// The coordinator's merge of staged shards into the workspace's tables, several at a time (one set of
// commits per batch: on an object store each commit costs a round trip, and a large build has tens of
// thousands of shards), in the local indexer's commit order: the old chunks of the files they
// re-chunked, their chunks, then their files' states (so a crash in between only makes the next run
// redo them); and into the run's snapshot patch.
import type { SnapshotPatch } from '../workspace/build/indexer.js';
import type { ChunkColumns } from '../workspace/store/arrow-rows.js';
import { timer } from '../workspace/debug-timer.js';
import type { FileState, IndexStore } from '../workspace/store/store.js';
import { writing } from '../workspace/store/writing.js';
import { addStagedTerms, type StagedShard } from './staging.js';

/** Staged shards merged in one set of commits, at most. */
export const MERGE_BATCH = 16;

export interface MergeContext {
  /** The indexed files' states before the run (a file whose hash is unchanged keeps its chunks). */
  states: Map<string, FileState>;
  patch: SnapshotPatch;
}

/** Staged shards as read back (staging.ts readStaged) and checked (staged-check.ts), merged in one set of commits. */
export async function mergeStaged(store: IndexStore, staged: StagedShard[], m: MergeContext): Promise<void> {
  const mark = timer('merge');
  const files = staged.flatMap((s) => s.files);
  const rechunked = files.filter((f) => m.states.get(f.key)?.hash !== f.hash).map((f) => f.key);
  await writing(() => store.deleteChunksOf(rechunked));
  await writing(() => store.addChunks(joinChunks(staged)));
  await writing(() => store.writeFiles({
    path: files.map((s) => s.key), size: Float64Array.from(files, (s) => s.size), mtime: Float64Array.from(files, (s) => s.mtime), ctime: Float64Array.from(files, (s) => s.ctime),
    hash: files.map((s) => s.hash), kind: files.map((s) => s.kind), lines: Int32Array.from(files, (s) => s.lines), chunks: Int32Array.from(files, (s) => s.chunks),
  }));
  mark('commit');
  for (const k of rechunked) m.patch.dropChunksOf.add(k);
  m.patch.files.push(...files);
  for (const s of staged) {
    const c = s.chunks;
    addStagedTerms(m.patch, m.patch.rows.length, s.terms);
    c.id.forEach((_, i) => {
      const f = s.features[i];
      m.patch.rows.push({
        path: c.path[i], start: c.start[i], end: c.end[i], halves: c.vector.subarray(i * s.dim, (i + 1) * s.dim), hasTokens: c.hasTokens[i],
        chars: f.chars, blank: f.blank, defs: f.defs,
      });
    });
  }
}

function joinChunks(staged: StagedShard[]): ChunkColumns {
  const parts = staged.map((s) => s.chunks);
  const n = parts.reduce((k, c) => k + c.id.length, 0);
  const vector = new Uint16Array(parts.reduce((k, c) => k + c.vector.length, 0));
  let at = 0;
  for (const c of parts) { vector.set(c.vector, at); at += c.vector.length; }
  const start = new Int32Array(n);
  const end = new Int32Array(n);
  let row = 0;
  for (const c of parts) { start.set(c.start, row); end.set(c.end, row); row += c.id.length; }
  return {
    id: parts.flatMap((c) => c.id), path: parts.flatMap((c) => c.path), start, end, vector,
    hasTokens: parts.flatMap((c) => c.hasTokens), hash: parts.flatMap((c) => c.hash),
  };
}
