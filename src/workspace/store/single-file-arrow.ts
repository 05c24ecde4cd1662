// apache-arrow from the package's single-file build, for simgrep's own processes (see lancedb.ts):
// ~9 ms to load instead of ~32 for its 147-file CommonJS tree. Kept apart from lancedb.ts, which
// loads arrow as soon as it is evaluated.
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** apache-arrow's CommonJS entry as LanceDB resolves it (a copy nested under LanceDB included). */
export function arrowEntry(): string {
  return createRequire(require.resolve('@lancedb/lancedb')).resolve('apache-arrow');
}

/**
 * Makes apache-arrow load from its single-file build in this process now: call it before anything
 * loads LanceDB or arrow. No effect once the package is loaded.
 */
export function useSingleFileArrow(): void {
  const entry = arrowEntry();
  if (require.cache[entry]) return;
  const single = path.join(path.dirname(entry), 'Arrow.es2015.min.js');
  try {
    require(single);
    require.cache[entry] = require.cache[single];
  } catch { /* a build of the package without the single file: its CommonJS tree loads as usual */ }
}
