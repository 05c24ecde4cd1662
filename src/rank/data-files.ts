// Which files hold data rather than code, by name alone: tables, record streams, lockfiles, minified
// bundles and source maps. Their words match many queries (a word-count table holds every word) while
// they never hold the behaviour a code search asks about, so the ranker gives them a prior below one.

/**
 * A data file weighs as a test or an example does: a file that is not where the code lives. It stays
 * findable (the only match still ranks), but a table that merely holds the query's words does not
 * outrank code that does what the query asks.
 */
export const DATA_FILE_PRIOR = 0.3;

/** Tables (.csv, .tsv), record streams (.jsonl, .ndjson), source maps (.map), minified bundles and lockfiles (*.lock, *.lockfile). */
const DATA_EXTENSION = /(?:\.(?:csv|tsv|jsonl|ndjson|map|lock|lockfile)|[.-]min\.(?:[cm]?js|css))$/i;
/** Lockfiles whose extension says nothing (package-lock.json is JSON, go.sum is text). */
const LOCKFILE_NAMES = new Set(['package-lock.json', 'npm-shrinkwrap.json', 'pnpm-lock.yaml', 'packages.lock.json', 'go.sum', 'go.work.sum']);

/** Whether a file name (the last component of a path, not the path) names a data file. */
export function isDataFile(fileName: string): boolean {
  return DATA_EXTENSION.test(fileName) || LOCKFILE_NAMES.has(fileName.toLowerCase());
}
