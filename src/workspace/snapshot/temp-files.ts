// Temp files a writer left beside a file it replaces (`<file>.<pid>.tmp`: a write that failed on a
// full disk, a process killed mid-write) are swept by the next writer: those of processes that no
// longer run, and any older than STALE_TEMP_MS (a pid reused since, or another host's).
import { readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

/** A temp file this old is no write in progress (a snapshot write takes seconds at most). */
export const STALE_TEMP_MS = 10 * 60_000;

/** Removes stale `<name>.<pid>.tmp` files of `file` and its siblings (snapshot.bin: snapshot.delta.bin too). */
export function sweepTempFiles(file: string): number {
  const dir = path.dirname(file);
  const stem = path.basename(file).split('.')[0];
  let names: string[];
  try { names = readdirSync(dir); } catch { return 0; }
  let swept = 0;
  for (const name of names) {
    const m = /^(.+)\.(\d+)\.tmp$/.exec(name);
    if (!m || !m[1].startsWith(stem) || Number(m[2]) === process.pid) continue;
    const p = path.join(dir, name);
    try {
      if (alive(Number(m[2])) && Date.now() - statSync(p).mtimeMs < STALE_TEMP_MS) continue;
      rmSync(p, { force: true });
      swept++;
    } catch { /* gone already */ }
  }
  return swept;
}

function alive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch (e) { return (e as NodeJS.ErrnoException).code === 'EPERM'; }
}
