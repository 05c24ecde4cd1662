// Which model to use when none is named: $SIMGREP_MODEL, else the model bundled with the package.
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** The package's bundled data (src/model/bundled, also reached from dist/). */
function bundledDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  // From src/model or dist/src/model, the package root is two or three levels up.
  const root = path.basename(path.resolve(here, '..', '..')) === 'dist' ? path.resolve(here, '..', '..', '..') : path.resolve(here, '..', '..');
  return path.join(root, 'src', 'model', 'bundled');
}

/** The bundled default model directory. */
export function bundledModelDir(): string {
  return path.join(bundledDir(), 'model');
}

/** The bundled lexicon: identifier document frequencies for BM25's idf. */
export function bundledLexiconPath(): string {
  return path.join(bundledDir(), 'lexicon.tsv');
}

export function defaultModelSpec(): string {
  return process.env.SIMGREP_MODEL || bundledModelDir();
}
