// Stats part of a big tree's files on its own thread (stat-many.ts starts it): [size, mtimeMs, ctimeMs] triples
// come back, NaN for a file that cannot be stat'ed.
// It loads stat-many.ts (node:fs, worker_threads), none of the embedding stack the pool's worker loads.
import { parentPort, workerData } from 'node:worker_threads';
import { STAT_FIELDS, statInto } from '../src/workspace/changes/stat-many.js';

const paths = (workerData as { paths: string }).paths.split('\0');
const out = new Float64Array(paths.length * STAT_FIELDS).fill(NaN);
statInto(paths, 0, paths.length, out);
parentPort!.postMessage(out, [out.buffer]);
