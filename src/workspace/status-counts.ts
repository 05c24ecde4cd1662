// What a workspace's status counts: the files its index holds that still exist, and those gone since
// its last run, with their chunks, lines and bytes. From the file list alone: the snapshot in memory,
// else the list read from the snapshot file (not its vectors and postings), else, for tables no run
// has completed (a first build under way or cut short), the store's file states as written so far:
// never a snapshot rebuilt from partial tables (seconds, which status spent on every call of a build).
import { isSimgrepError, SimgrepError } from '../errors.js';
import { isRemoteUri } from '../sources/uri.js';
import { goneFiles } from './changes/gone-files.js';
import type { OpenWorkspace, SnapshotNotes } from './open.js';
import { deltaPathOf, readSnapshotFileList } from './snapshot/snapshot-file.js';
import { filesStamp, snapshotPath } from './workspace-files.js';

export interface StatusCounts {
  files: number;
  gone: number;
  binary: number;
  chunks: number;
  lines: number;
  bytes: number;
}

interface Counted { key: string; chunks: number; lines: number; size: number; kind: 'text' | 'binary' }

/**
 * The counts of the index's last completed version (`complete`), or of its tables as they stand when none is.
 * `notes`: told of a snapshot this status rebuilt (none on disk, or damaged) and could not save. `signal`: read
 * while the snapshot is rebuilt from the store (between its files: trust43, it was read only after the last),
 * between the batches of the store's file list of an index no run finished (trust44), after the file list and
 * between the listings of the gone files' check (ABORTED: an MCP status call cancelled).
 */
export async function statusCounts(ws: OpenWorkspace, complete: string | undefined, notes?: SnapshotNotes, signal?: AbortSignal): Promise<StatusCounts> {
  const files = await fileList(ws, complete, notes, signal).catch((e: unknown) => {
    throw signal?.aborted && isSimgrepError(e) && e.code === 'ABORTED' ? new SimgrepError('ABORTED', 'status was aborted', { cause: e }) : e;
  });
  if (signal?.aborted) throw new SimgrepError('ABORTED', 'status was aborted');
  // Deleted or renamed away since the last index run: in the tables until `simgrep index` or `workspace
  // prune`, but no search uses them: counted apart, not as files (trial34: 86 files for a tree of 80).
  // Objects in a store count as they are (a listing of the store finds the gone: simgrep index).
  const local = files.filter((f) => !isRemoteUri(f.key));
  const gone = await goneFiles(local.map((f) => f.key), signal);
  const isGone = new Set(local.filter((_, i) => gone[i] === 1).map((f) => f.key));
  const c: StatusCounts = { files: 0, gone: isGone.size, binary: 0, chunks: 0, lines: 0, bytes: 0 };
  for (const f of files) {
    if (isGone.has(f.key)) continue;
    c.files++; c.chunks += f.chunks; c.lines += f.lines; c.bytes += Math.max(0, f.size); if (f.kind === 'binary') c.binary++;
  }
  return c;
}

async function fileList(ws: OpenWorkspace, complete: string | undefined, notes: SnapshotNotes | undefined, signal: AbortSignal | undefined): Promise<Counted[]> {
  const ofSnapshot = (xs: { key: string; chunkCount: number; lines: number; size: number; kind: 'text' | 'binary' }[]) =>
    xs.map((f) => ({ key: f.key, chunks: f.chunkCount, lines: f.lines, size: f.size, kind: f.kind }));
  // A big list is read batch by batch, the signal read between them (it was one read nothing could stop).
  if (complete === undefined) return (await (await ws.store(false)).fileStates(undefined, signal)).map((f) => ({ key: f.key, chunks: f.chunks, lines: f.lines, size: f.size, kind: f.kind }));
  if (ws.snapshot?.version === complete) return ofSnapshot(ws.snapshot.files);
  // The list read alone is kept for the next status of the same version and snapshot file (a resident
  // engine asks again). The version alone would not do: it starts over when the workspace is removed and
  // built again (workspace rm, a cleared or reset store), and this process would answer the old list.
  const file = snapshotPath(ws.dir, ws.remote);
  const version = `${complete} ${filesStamp(file, deltaPathOf(file))}`;
  const held = lists.get(ws);
  if (held?.version === version) return held.files;
  const listed = readSnapshotFileList(file, complete);
  const files = ofSnapshot(listed ?? (await ws.loadSnapshot(undefined, notes, signal)).files);
  // Keyed by the files as they were before the read (a snapshot written since is read by the next call).
  lists.set(ws, { version, files });
  return files;
}

/** The file list status last read alone, by workspace, with its version and snapshot files' identity. */
const lists = new WeakMap<OpenWorkspace, { version: string; files: Counted[] }>();
