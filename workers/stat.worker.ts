// Stats a list of local files on its own thread (stat-many.ts starts it with part of a big tree's
// files): their sizes and mtimes come back as [size, mtimeMs] pairs, NaN for a file that cannot be
// stat'ed.
import { statSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

const paths = (workerData as { paths: string }).paths.split('\0');
const out = new Float64Array(paths.length * 2).fill(NaN);
for (let i = 0; i < paths.length; i++) {
  try {
    const st = statSync(paths[i], { throwIfNoEntry: false });
    if (st) { out[2 * i] = st.size; out[2 * i + 1] = st.mtimeMs; }
  } catch { /* NaN: unreadable */ }
}
parentPort!.postMessage(out, [out.buffer]);
