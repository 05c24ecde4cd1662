// Many files stat'ed at once: on this thread, or half of them on a second thread (a big tree), the
// same sizes, mtimes and ctimes as a stat each, NaN for a file that cannot be stat'ed.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { statMany } from '../../../src/workspace/changes/stat-many.js';

const dir = mkdtempSync(path.join(tmpdir(), 'simgrep-statmany-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('statMany', () => {
  it('gives every file its size, mtime and ctime, on one thread or two, and NaN for a missing one', async () => {
    const paths = Array.from({ length: 41 }, (_, i) => path.join(dir, `f${i}.txt`));
    paths.forEach((p, i) => writeFileSync(p, 'x'.repeat(i * 3)));
    paths.splice(7, 0, path.join(dir, 'missing-a.txt'));
    paths.push(path.join(dir, 'missing-b.txt')); // in the second thread's half
    const expected = paths.flatMap((p) => { const st = statSync(p, { throwIfNoEntry: false }); return st ? [st.size, st.mtimeMs, st.ctimeMs] : [NaN, NaN, NaN]; });
    expect([...await statMany(paths)]).toEqual(expected); // one thread
    expect([...await statMany(paths, 2)]).toEqual(expected); // two threads
    expect([...await statMany([], 0)]).toEqual([]);
    // The second thread's own answer (statMany would hide a thread that failed by statting here).
    const thread = new Worker(new URL('../../../dist/workers/stat.worker.js', import.meta.url), { workerData: { paths: paths.join('\0') } });
    const answer = await new Promise<Float64Array>((resolve, reject) => { thread.once('message', resolve); thread.once('error', reject); });
    expect([...answer]).toEqual(expected);
  });
});
