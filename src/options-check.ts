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

/** Throws BAD_FLAG for the first option (set, not undefined) whose type is wrong. */
export function checkOptionTypes(o: object): void {
  if (o === null || typeof o !== 'object') throw new SimgrepError('BAD_FLAG', `search options must be an object (got ${describe(o)})`);
  for (const [name, value] of Object.entries(o)) {
    const shape = SHAPES[name];
    if (!shape || value === undefined) continue;
    if (!shape[0](value)) throw new SimgrepError('BAD_FLAG', `option ${name} must be ${shape[1]} (got ${describe(value)})`);
  }
}

export function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an array: ${truncate(JSON.stringify(v))}`;
  if (typeof v === 'string') return `the string ${truncate(JSON.stringify(v))}`;
  if (ArrayBuffer.isView(v)) return `a ${v.constructor.name}`;
  return `${typeof v} ${truncate(String(v))}`;
}

const truncate = (s: string) => (s.length > 60 ? `${s.slice(0, 57)}...` : s);
