// Which of an index's local files are gone (status's `gone`), found by listing their directories: one
// readdir per directory holding several of them instead of a stat per file (150,000 files in 1,500
// directories: 1,500 listings), asynchronous and a few at a time on libuv's threads, so a resident
// engine answers other calls meanwhile. The same rule as workspace prune (sources/local-gone.ts): a
// name its directory lists is there; one it does not list, or a directory that cannot be listed, is
// looked at alone (lstat: gone only on ENOENT or ENOTDIR); a directory that no longer exists (ENOENT,
// ENOTDIR) takes all its files with it, as lstat of each would say.
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { SimgrepError } from '../../errors.js';
import { ioPathOf } from '../../sources/dir-listing.js';

/** A directory with fewer of the files than this: each is lstat'ed (a huge directory is not listed for one file). */
export const LIST_FROM_FILES = 4;
/** Listings and lstats under way at once (libuv runs 4 at a time by default; a few more keep it fed). */
const IN_FLIGHT = 16;

const goneCode = (e: unknown) => {
  const code = (e as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
};

/**
 * For each key (a local path as a workspace keys it), 1 when it is gone, else 0. `signal`: no listing starts
 * once it is aborted (those under way end), and it rejects with ABORTED (an MCP status call its client gave up).
 */
export async function goneFiles(keys: readonly string[], signal?: AbortSignal): Promise<Uint8Array> {
  const gone = new Uint8Array(keys.length);
  const byDir = new Map<string, number[]>();
  const alone: number[] = [];
  for (let i = 0; i < keys.length; i++) {
    // A name with escaped bytes (not valid UTF-8) is opened by its raw bytes: looked at alone.
    // So is one at the top of the file system (no directory part to list).
    const cut = keys[i].lastIndexOf(path.sep);
    if (cut <= 0 || keys[i].includes('\\x')) { alone.push(i); continue; }
    const dir = keys[i].slice(0, cut);
    const list = byDir.get(dir);
    if (list) list.push(i); else byDir.set(dir, [i]);
  }
  const jobs: (() => Promise<void>)[] = [];
  const lookAlone = (i: number) => async () => {
    try { await lstat(ioPathOf(keys[i])); } catch (e) { if (goneCode(e)) gone[i] = 1; }
  };
  for (const i of alone) jobs.push(lookAlone(i));
  for (const [dir, files] of byDir) {
    if (files.length < LIST_FROM_FILES) { for (const i of files) jobs.push(lookAlone(i)); continue; }
    jobs.push(async () => {
      let names: Set<string>;
      try {
        names = new Set(await readdir(dir));
      } catch (e) {
        if (goneCode(e)) { for (const i of files) gone[i] = 1; return; }
        await Promise.all(files.map((i) => lookAlone(i)()));
        return;
      }
      const unlisted = files.filter((i) => {
        const name = keys[i].slice(dir.length + 1);
        // A listed name with U+FFFD may stand for other bytes (a name that is not valid UTF-8): not trusted.
        return !names.has(name) || name.includes('\uFFFD');
      });
      await Promise.all(unlisted.map((i) => lookAlone(i)()));
    });
  }
  let next = 0;
  const runner = async () => { while (next < jobs.length && !signal?.aborted) await jobs[next++](); };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, jobs.length) }, runner));
  if (signal?.aborted) throw new SimgrepError('ABORTED', 'status was aborted');
  return gone;
}
