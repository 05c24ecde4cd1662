// The index's helper threads' files (workers/*.worker.ts, built into dist/workers), found from
// dist/src/index (built) or src/index (under vitest, which runs the sources against the build's workers).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** dist/workers/NAME.worker.js, or null when it is not built (the caller then does the work itself). */
export function workerFile(name: string): URL | null {
  for (const c of [`../../workers/${name}.worker.js`, `../../dist/workers/${name}.worker.js`]) {
    const url = new URL(c, import.meta.url);
    if (existsSync(fileURLToPath(url))) return url;
  }
  return null;
}
