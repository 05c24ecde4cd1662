// The `.incomplete` temp files of hub downloads: the live ones are known so an interrupted process can
// remove them on its way out, and ones a killed process left behind are swept by the next download.
import { rmSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';

/** Older than this, no download is writing it: a live one writes at least once per idle timeout. */
export const STALE_INCOMPLETE_MS = 60 * 60_000;

/** Our temp names only (`.{file}.{pid}.{random}.incomplete`), never huggingface_hub's resumable blobs. */
const OWN_TEMP = /^\..+\.\d+\.[0-9a-z]+\.incomplete$/;

const live = new Set<string>();

export function incompleteName(dest: string): string {
  return path.join(path.dirname(dest), `.${path.basename(dest)}.${process.pid}.${Math.random().toString(36).slice(2)}.incomplete`);
}

export function trackIncomplete(tmp: string): () => void {
  live.add(tmp);
  return () => { live.delete(tmp); };
}

/**
 * Removes the temp files of downloads still running, synchronously: for a process that is exiting on
 * a signal (Ctrl-C) and will not run their cleanup. Returns how many it removed.
 */
export function removeIncompleteDownloads(): number {
  let n = 0;
  for (const tmp of live) {
    try {
      rmSync(tmp, { force: true });
      n++;
    } catch {
      // Best effort: the next download's sweep gets it.
    }
  }
  live.clear();
  return n;
}

/** Removes our temp files under `dir` (recursively) last written more than `staleMs` ago. */
export async function sweepStaleIncomplete(dir: string, staleMs = STALE_INCOMPLETE_MS): Promise<void> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const now = Date.now();
  await Promise.all(entries.filter((e) => e.isFile() && OWN_TEMP.test(e.name)).map(async (e) => {
    const file = path.join(e.parentPath, e.name);
    const t = (await stat(file).catch(() => null))?.mtimeMs;
    if (t !== undefined && now - t > staleMs && !live.has(file)) await rm(file, { force: true }).catch(() => undefined);
  }));
}
