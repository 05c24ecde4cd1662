// Where the built worker files are (dist/workers: each worker entry bundled into one file with what it
// imports, src/cli/bundle.mjs): found from dist/src (built), from the bundled CLI in dist/src/cli, or from
// src (under vitest, which runs the sources against the build's workers). The pool
// needs its file; the index's stat thread does without its own (the caller then stats everything).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The absolute path of dist/workers/`file`, or null when it is not built. */
export function builtWorkerFile(file: string): string | null {
  for (const c of [`../workers/${file}`, `../../workers/${file}`, `../dist/workers/${file}`]) {
    const p = fileURLToPath(new URL(c, import.meta.url));
    if (existsSync(p)) return p;
  }
  return null;
}
