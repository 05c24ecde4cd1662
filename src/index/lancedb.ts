// LanceDB and the apache-arrow copy it builds and reads tables with, loaded once per process.
// LanceDB is CommonJS and requires apache-arrow's CommonJS build: 147 files, ~32 ms to load, about
// as long as everything else an index run of one touched file does in LanceDB. The package ships the
// same release as one minified file with the same 148 exports (Arrow.es2015.min.js, ~9 ms), so that
// file is loaded and put in require's cache under the package's own entry before LanceDB asks for
// it: LanceDB and simgrep then share the one copy, and `instanceof` holds between them (an ESM
// import of the package would load its ESM build, a second copy of every class).
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as Arrow from 'apache-arrow';
import type * as LanceDB from '@lancedb/lancedb';

const require = createRequire(import.meta.url);
const lancedbEntry = require.resolve('@lancedb/lancedb');

function shareOneArrow(): typeof Arrow {
  const entry = createRequire(lancedbEntry).resolve('apache-arrow');
  const loaded = require.cache[entry];
  if (loaded) return loaded.exports as typeof Arrow;
  const single = path.join(path.dirname(entry), 'Arrow.es2015.min.js');
  try {
    const exports = require(single) as typeof Arrow;
    require.cache[entry] = require.cache[single];
    return exports;
  } catch {
    return require(entry) as typeof Arrow; // a build of the package without the single file
  }
}

export const arrow: typeof Arrow = shareOneArrow();

/** LanceDB itself, required on first use (its native module is large). */
export function loadLanceDB(): typeof LanceDB {
  return require(lancedbEntry) as typeof LanceDB;
}
