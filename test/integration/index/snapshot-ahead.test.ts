// A snapshot read ahead on another thread (snapshot-ahead.ts) is the one read on this thread: from
// the files open when it started (a writer replacing them meanwhile changes nothing), null for
// another version, a damaged or a missing file; the thread's own answer equals this thread's read;
// and a process waiting only for the thread stays alive for its answer.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { patchSnapshot } from '../../../src/index/snapshot.js';
import { openSnapshotFiles, readSnapshotFile, snapshotOf, writeSnapshotDelta, writeSnapshotFile } from '../../../src/index/snapshot-file.js';
import { readSnapshotBytes, type SnapshotBytes } from '../../../src/index/snapshot-bytes.js';
import { readSnapshotAhead } from '../../../src/index/snapshot-ahead.js';
import { build, canonical, dump, edit } from '../../helpers/snapshots.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-ahead-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('snapshot read ahead', () => {
  it('reads the same snapshot ahead on another thread, from the files open when it started', async () => {
    const file = path.join(tmp, 'g.bin');
    const base = build(30, '1.1');
    writeSnapshotFile(file, base);
    const ahead = readSnapshotAhead(file, '1.1', 0); // any size: on the thread
    expect(ahead.threaded).toBe(true);
    expect(readSnapshotAhead(file, '1.1').threaded).toBe(false); // a small file: read here
    expect(dump((await ahead.read())!)).toEqual(dump(readSnapshotFile(file, '1.1')!));
    const appended = patchSnapshot(readSnapshotFile(file, '1.1')!, edit(['/t/dir0/file000.ts', '/t/new.ts'], 'one'), '2.2');
    writeSnapshotDelta(file, appended);
    const withDelta = readSnapshotAhead(file, '2.2', 0);
    // A writer replaces both files while the thread reads: the snapshot is still the one asked for.
    writeSnapshotFile(file, build(30, '3.3', 'download'));
    writeSnapshotDelta(file, patchSnapshot(readSnapshotFile(file, '3.3')!, edit(['/t/other.ts'], 'two'), '4.4'));
    const back = (await withDelta.read())!;
    expect(back.version).toBe('2.2');
    expect(canonical(back)).toEqual(canonical(appended));
    expect(back.byLower.find('oneterm')?.chunk.length).toBe(4);
    // Another version, a damaged file and a missing one: null, as on this thread.
    expect(await readSnapshotAhead(file, '2.2', 0).read()).toBeNull();
    writeFileSync(file, readFileSync(file).subarray(0, 200));
    expect(await readSnapshotAhead(file, '3.3', 0).read()).toBeNull();
    expect(await readSnapshotAhead(path.join(tmp, 'missing.bin'), '1.1', 0).read()).toBeNull();
  });

  it('keeps a process alive while it waits for the thread (a cold search has nothing else to wait for)', () => {
    const file = path.join(tmp, 'h.bin');
    writeSnapshotFile(file, build(30, '1.1'));
    const ahead = new URL('../../../dist/src/index/snapshot-ahead.js', import.meta.url).href;
    const script = `const { readSnapshotAhead } = await import(${JSON.stringify(ahead)});
      const s = await readSnapshotAhead(${JSON.stringify(file)}, '1.1', 0).read();
      console.log(s.version, s.files.length);`;
    expect(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).trim()).toBe('1.1 30');
  });

  it('the thread answers with the bytes this thread reads (a failed thread would be hidden by the fallback)', async () => {
    const file = path.join(tmp, 'w.bin');
    writeSnapshotFile(file, build(20, '1.1'));
    writeSnapshotDelta(file, patchSnapshot(readSnapshotFile(file, '1.1')!, edit(['/t/new.ts'], 'one'), '2.2'));
    const fds = openSnapshotFiles(file)!;
    const thread = new Worker(new URL('../../../dist/workers/snapshot-read.worker.js', import.meta.url), { workerData: { fds, version: '2.2' } });
    const theirs = await new Promise<SnapshotBytes | null>((resolve, reject) => { thread.once('message', resolve); thread.once('error', reject); });
    const mine = readSnapshotBytes(fds, '2.2')!;
    expect(theirs).not.toBeNull();
    expect(theirs!.base.header).toEqual(mine.base.header);
    expect(theirs!.delta!.header).toEqual(mine.delta!.header);
    expect(Buffer.from(theirs!.base.eager).equals(Buffer.from(mine.base.eager))).toBe(true);
    expect([...theirs!.vectors]).toEqual([...mine.vectors]);
    expect(canonical(snapshotOf(fds, theirs)!)).toEqual(canonical(readSnapshotFile(file, '2.2')!));
  });
});
