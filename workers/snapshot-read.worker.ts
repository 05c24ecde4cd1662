// Reads a workspace's snapshot files on their own thread (snapshot-ahead.ts starts it, with the files
// already open): the files' bytes and the widened vectors are handed back (transferred, not copied)
// while the main thread walks the tree. Null when the files are damaged or of another version.
// It imports only the index's file reading (snapshot-bytes.ts: node:fs, float16, typed arrays), not
// the embedding stack the pool's worker loads.
import { parentPort, workerData } from 'node:worker_threads';
import { readSnapshotBytes, type SnapshotFds } from '../src/index/snapshot-bytes.js';

const { fds, version } = workerData as { fds: SnapshotFds; version: string };
const read = readSnapshotBytes(fds, version);
const buffers = read ? [read.base.eager, read.vectors.buffer as ArrayBuffer, ...(read.delta ? [read.delta.eager] : [])] : [];
parentPort!.postMessage(read, buffers);
