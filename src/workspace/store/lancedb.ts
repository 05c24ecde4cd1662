// LanceDB and the apache-arrow copy it builds and reads tables with, loaded once per process.
// LanceDB is CommonJS and requires apache-arrow's CommonJS build; simgrep requires that same copy
// from here, so `instanceof` holds between them (an ESM import of the package would load its ESM
// build, a second copy of every class). simgrep's own processes (the CLI, its servers and workers)
// load that copy from the package's single-file build (single-file-arrow.ts: the same 148 exports,
// without the Node-stream adapters and with mangled class names) when this module is first evaluated;
// a program that embeds the library gets the package as it is.
import { createRequire } from 'node:module';
import type * as Arrow from 'apache-arrow';
import type * as LanceDB from '@lancedb/lancedb';
import { arrowEntry, useSingleFileArrow } from './single-file-arrow.js';
import { isOwnProcess } from './own-process.js';
import { deferModule } from './deferred-module.js';

const require = createRequire(import.meta.url);

if (isOwnProcess()) useSingleFileArrow();
export const arrow: typeof Arrow = require(arrowEntry());

/**
 * LanceDB itself, required on first use (its native module is large). In simgrep's own processes its
 * OpenTelemetry hook's package is loaded only if something uses it (simgrep does not).
 */
export function loadLanceDB(): typeof LanceDB {
  if (isOwnProcess()) deferModule(require.resolve('@lancedb/lancedb'), '@opentelemetry/api');
  return require('@lancedb/lancedb') as typeof LanceDB;
}
