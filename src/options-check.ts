// Type checks of the library's options: a caller from plain JavaScript (or JSON) gets a message that
// names the option and what it takes, never a raw TypeError from deep inside.
import { SimgrepError } from './errors.js';

type Check = (v: unknown) => boolean;

const isStringArray: Check = (v) => Array.isArray(v) && v.every((x) => typeof x === 'string');
const isNumber: Check = (v) => typeof v === 'number' && !Number.isNaN(v);
const isSource: Check = (v) => typeof v === 'object' && v !== null && typeof (v as { list?: unknown }).list === 'function' && typeof (v as { read?: unknown }).read === 'function';

/** What each option must be, as said in the message. */
const SHAPES: Record<string, [Check, string]> = {
  query: [(v) => typeof v === 'string', 'a string'],
  mode: [(v) => typeof v === 'string', 'a string'],
  paths: [isStringArray, 'an array of strings (paths or URIs), e.g. ["./src"]'],
  extensions: [isStringArray, 'an array of strings, e.g. [".ts", ".md"]'],
  sources: [(v) => Array.isArray(v) && v.every(isSource), 'an array of Source objects, each with list() and read(entry) (createFsSource, createContentSource, or your own)'],
  signal: [(v) => typeof v === 'object' && v !== null && typeof (v as AbortSignal).aborted === 'boolean' && typeof (v as AbortSignal).addEventListener === 'function', 'an AbortSignal (new AbortController().signal, AbortSignal.timeout(ms))'],
  onProgress: [(v) => typeof v === 'function', 'a function'],
  topK: [isNumber, 'a number'],
  types: [isStringArray, 'an array of type names, e.g. ["ts", "py"]'],
  like: [(v) => v === undefined || (typeof v === 'object' && v !== null && typeof (v as { path?: unknown }).path === 'string' && typeof (v as { line?: unknown }).line === 'number'), '{ path: string, line: number }'],
  maxDistance: [isNumber, 'a number'],
  nLines: [isNumber, 'a number'],
  maxFileBytes: [isNumber, 'a number of bytes'],
  timeoutMs: [isNumber, 'a number of milliseconds'],
  batchLines: [isNumber, 'a number'],
  ignoreCase: [(v) => typeof v === 'boolean', 'true or false'],
  recursive: [(v) => typeof v === 'boolean', 'true or false'],
  hidden: [(v) => typeof v === 'boolean', 'true or false'],
  noIgnore: [(v) => typeof v === 'boolean', 'true or false'],
  followSymlinks: [(v) => typeof v === 'boolean', 'true or false'],
  merge: [(v) => typeof v === 'boolean', 'true or false'],
  content: [(v) => typeof v === 'string', 'a string'],
  name: [(v) => typeof v === 'string', 'a string'],
  cluster: [(v) => typeof v === 'string' || (typeof v === 'object' && v !== null && typeof (v as { url?: unknown }).url === 'string'), 'a Redis URL or { url, timeoutMs?, shardBytes? }'],
};

/**
 * Every option search() and searchContent() take (docs/library.md): those whose type is checked above,
 * `remote` (checked by sources/remote/options.ts) and the file filters of sources/filter-options.ts
 * FILTER_OPTIONS (checked there; named here, as this floor may not import it: test/unit/options-check
 * holds the two lists together). Any other name is a typo (`topk`) plain JavaScript would drop unsaid.
 */
export const SEARCH_OPTION_NAMES: ReadonlySet<string> = new Set([...Object.keys(SHAPES), 'remote', 'globs', 'types', 'typesNot', 'extensions', 'perFile', 'filesWithMatches']);

/** Throws BAD_FLAG for the first option (set, not undefined) that is unknown or whose type is wrong. */
export function checkOptionTypes(o: object): void {
  if (o === null || typeof o !== 'object') throw new SimgrepError('BAD_FLAG', `search options must be an object (got ${describe(o)})`);
  for (const [name, value] of Object.entries(o)) {
    if (value === undefined) continue;
    if (!SEARCH_OPTION_NAMES.has(name)) throw new SimgrepError('BAD_FLAG', unknownOption(name));
    const shape = SHAPES[name];
    if (shape && !shape[0](value)) throw new SimgrepError('BAD_FLAG', `option ${name} must be ${shape[1]} (got ${describe(value)})`);
  }
}

/** "unknown option topk: did you mean topK?" (the closest known name, when one is close), else the list. */
function unknownOption(name: string): string {
  let best = '';
  let bestDistance = Infinity;
  for (const known of SEARCH_OPTION_NAMES) {
    const d = editDistance(name.toLowerCase(), known.toLowerCase());
    if (d < bestDistance) { best = known; bestDistance = d; }
  }
  if (bestDistance <= Math.max(2, Math.floor(best.length / 3))) return `unknown option ${name}: did you mean ${best}?`;
  return `unknown option ${name}; the options are ${[...SEARCH_OPTION_NAMES].join(', ')} (docs/library.md)`;
}

/** Levenshtein distance (names of a few dozen characters). */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length];
}

export function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an array: ${truncate(JSON.stringify(v))}`;
  if (typeof v === 'string') return `the string ${truncate(JSON.stringify(v))}`;
  if (ArrayBuffer.isView(v)) return `a ${v.constructor.name}`;
  if (typeof v === 'object') return `an object: ${truncate(jsonOr(v))}`;
  return `${typeof v} ${truncate(String(v))}`;
}

/** JSON of a plain object; String() of one JSON cannot write (a cycle, a BigInt). */
function jsonOr(v: object): string {
  try { return JSON.stringify(v) ?? String(v); } catch { return String(v); }
}

const truncate = (s: string) => (s.length > 60 ? `${s.slice(0, 57)}...` : s);
