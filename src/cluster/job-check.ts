// A job from Redis crosses a trust boundary: whoever can write to Redis can write one. Before a worker
// touches a disk or a store, every name, path and number in a job must have the form the coordinator
// makes (coordinator.ts, index-coordinator.ts); anything else is refused, never acted on. Pure: no I/O.
import path from 'node:path';
import { SEARCH_MODES } from '../types.js';
import { isRemoteUri, parseRemoteUri } from '../sources/uri.js';
import { MAX_SHARD_ENTRIES } from './shards.js';
import type { IndexShardJob, ShardEntry, ShardJob, ShardOptions } from './protocol.js';

/** Why a job was refused; the worker reports `message` to the coordinator and logs it. */
export class JobRefused extends Error {}

/** The coordinator's query and run ids: randomBytes(6).toString('hex'). */
export const QUERY_ID = /^[0-9a-f]{12}$/;
/** A staging database's name: RUN-SHARD-ATTEMPT. */
const STAGING_NAME = /^([0-9a-f]{12})-(\d{1,9})-(\d{1,6})$/;
export const MAX_PATH_CHARS = 4096;
/** A query is any text: a pasted file or two (MCP cuts at 100,000 characters) fits with room to spare. */
export const MAX_QUERY_CHARS = 1 << 20;
export const MAX_ROOTS = 65_536;
const MAX_N = 1e9;
const MAX_ATTEMPT = 1e6;
const MAX_LABEL_CHARS = 1024;

const fail = (what: string): never => { throw new JobRefused(what); };
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown, min: number, max: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
const shown = (v: unknown) => JSON.stringify(v)?.slice(0, 120) ?? String(v);

/** A bounded string without NUL (it cuts a path short in the kernel); a label also without control characters. */
function str(v: unknown, what: string, max = MAX_PATH_CHARS, o: { label?: boolean; nul?: boolean } = {}): string {
  if (typeof v !== 'string') return fail(`${what} is not a string`);
  if (v.length === 0 || v.length > max) return fail(`${what} is empty or longer than ${max} characters`);
  // File names and queries may hold any other character (a newline is a legal file name character).
  if (o.label ? /[\0-\x1f\x7f]/.test(v) : !o.nul && v.includes('\0')) return fail(`${what} holds a NUL${o.label ? ' or control' : ''} character: ${shown(v)}`);
  return v;
}

function onlyKeys(o: Record<string, unknown>, allowed: readonly string[], what: string): void {
  for (const k of Object.keys(o)) if (!allowed.includes(k)) fail(`${what} has an unknown field ${shown(k)}`);
}

/** An absolute local path as path.resolve makes it: no `.` or `..` segment, no `//`, no trailing `/`. */
export function isCanonicalLocalPath(p: unknown): p is string {
  return typeof p === 'string' && p.length > 0 && p.length <= MAX_PATH_CHARS && !p.includes('\0') && path.isAbsolute(p) && path.resolve(p) === p;
}

/** s3://bucket/key: a bucket named by S3's rules; key segments never empty (one trailing `/` is fine), never `.` or `..`. */
export function isCanonicalS3Uri(u: unknown): u is string {
  if (typeof u !== 'string' || u.length > MAX_PATH_CHARS || /[\0-\x1f\x7f\\?#]/.test(u)) return false;
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(u);
  if (!m) return false;
  const key = m[2] ?? '';
  if (key === '') return true;
  const segments = key.replace(/\/$/, '').split('/');
  return segments.every((s) => s !== '' && s !== '.' && s !== '..');
}

/** A URI must be one a worker can read (s3://, az://, gs://, http(s)://); a local path passes as it is. */
function remoteParses(p: string, what: string): string {
  if (!isRemoteUri(p)) return p;
  try { parseRemoteUri(p); } catch { fail(`${what} ${shown(p)} is not a URI simgrep reads`); }
  return p;
}

/** A remote object's key as a worker will ask its store for it: never a `.` or `..` segment (a store on a filesystem may resolve them). */
export function isSafeKey(k: string): boolean {
  return !k.split('/').some((s) => s === '.' || s === '..');
}

export function checkQueryId(v: unknown, what = 'queryId'): string {
  if (typeof v !== 'string' || !QUERY_ID.test(v)) return fail(`${what} ${shown(v)} is not a run id of 12 hex digits`);
  return v;
}

/** The fields every job has, checked before anything else (a job of another protocol may differ in the rest). */
export function checkJobHeader(d: unknown): { protocol: number; simgrep: string; model: string; formats: string | undefined; queryId: string; n: number } {
  if (!isObject(d)) return fail('the job is not an object');
  if (!isInt(d.protocol, 0, 1e6)) fail(`protocol ${shown(d.protocol)} is not a whole number`);
  str(d.simgrep, 'simgrep', MAX_LABEL_CHARS, { label: true });
  str(d.model, 'model', MAX_LABEL_CHARS, { label: true });
  // Absent from a job of protocol 1 (refused by its protocol); checked before it is shown.
  if (d.formats !== undefined) str(d.formats, 'formats', MAX_LABEL_CHARS, { label: true });
  checkQueryId(d.queryId);
  if (!isInt(d.n, 0, MAX_N)) fail(`shard number ${shown(d.n)} is not a whole number in 0..${MAX_N}`);
  return d as { protocol: number; simgrep: string; model: string; formats: string | undefined; queryId: string; n: number };
}

function checkRemote(v: unknown, what: string): void {
  if (v === undefined) return;
  if (!isObject(v)) fail(`${what} is not an object`);
  const r = v as Record<string, unknown>;
  onlyKeys(r, ['s3Endpoint', 'timeoutMs', 'retries'], what);
  if (r.s3Endpoint !== undefined) {
    const e = str(r.s3Endpoint, `${what}.s3Endpoint`, 2048, { label: true });
    let url: URL | null = null;
    try { url = new URL(e); } catch { /* refused below */ }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) fail(`${what}.s3Endpoint ${shown(e)} is not an http(s) URL without credentials`);
  }
  if (r.timeoutMs !== undefined && !(typeof r.timeoutMs === 'number' && Number.isFinite(r.timeoutMs) && r.timeoutMs > 0 && r.timeoutMs <= 86_400_000)) fail(`${what}.timeoutMs ${shown(r.timeoutMs)} is not a time in (0, 1 day]`);
  if (r.retries !== undefined && !isInt(r.retries, 0, 100)) fail(`${what}.retries ${shown(r.retries)} is not a whole number in 0..100`);
}

const ENTRY_KEYS = ['s', 'path', 'size', 'named', 'key', 'modifiedMs', 'etag', 'io', 'rank'] as const;

function checkEntry(v: unknown, i: number, o: { sources: number; remoteFrom: number; index: boolean }): ShardEntry {
  const what = `entry ${i}`;
  if (!isObject(v)) return fail(`${what} is not an object`);
  onlyKeys(v, ENTRY_KEYS, what);
  if (!isInt(v.s, 0, Math.max(0, o.sources - 1))) fail(`${what}: source ${shown(v.s)} is not one of the job's ${o.sources} sources`);
  const p = str(v.path, `${what}.path`);
  if (v.size !== undefined && !isInt(v.size, 0, Number.MAX_SAFE_INTEGER)) fail(`${what}.size ${shown(v.size)} is not a byte count`);
  if (v.modifiedMs !== undefined && !(typeof v.modifiedMs === 'number' && Number.isFinite(v.modifiedMs))) fail(`${what}.modifiedMs ${shown(v.modifiedMs)} is not a finite time`);
  if (v.etag !== undefined) str(v.etag, `${what}.etag`, 1024);
  if (v.named !== undefined && typeof v.named !== 'boolean') fail(`${what}.named is not a boolean`);
  if (o.index) {
    // An index job's paths are index keys: absolute canonical local paths or URIs.
    remoteParses(p, `${what}.path`);
    if (isRemoteUri(p) ? !isSafeKey(p.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '')) : !isCanonicalLocalPath(p)) fail(`${what}.path ${shown(p)} is not an absolute canonical path or a URI without . or .. segments`);
    if (v.key !== undefined || v.io !== undefined || v.rank !== undefined) fail(`${what} of an index job carries a key, raw name or rank path`);
    return v as unknown as ShardEntry;
  }
  // A rank path is only read as text by the ranking (its words and marks), never opened: bounded, no NUL.
  if (v.rank !== undefined) str(v.rank, `${what}.rank`);
  const remote = (v.s as number) >= o.remoteFrom;
  if (remote !== isRemoteUri(p)) fail(`${what}.path ${shown(p)} does not match its source's kind`);
  if (remote) {
    const key = str(v.key, `${what}.key`);
    if (!isSafeKey(key)) fail(`${what}.key ${shown(key)} has a . or .. segment`);
    if (v.io !== undefined) fail(`${what} of a remote source carries a raw local name`);
  } else {
    if (v.key !== undefined) fail(`${what} of a local source carries an object key`);
    if (v.io !== undefined) {
      const io = str(v.io, `${what}.io`, Math.ceil(MAX_PATH_CHARS / 3) * 4, { label: true });
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(io) || io.length % 4 !== 0) fail(`${what}.io is not base64`);
      const bytes = Buffer.from(io, 'base64');
      if (bytes.includes(0)) fail(`${what}.io holds a NUL byte`);
      if (bytes.toString('latin1').split('/').some((s) => s === '.' || s === '..')) fail(`${what}.io has a . or .. segment`);
    }
  }
  return v as unknown as ShardEntry;
}

function checkEntries(v: unknown, o: { sources: number; remoteFrom: number; index: boolean }): ShardEntry[] {
  if (!Array.isArray(v) || v.length === 0 || v.length > MAX_SHARD_ENTRIES) return fail(`entries is not a list of 1..${MAX_SHARD_ENTRIES} files`);
  return v.map((e, i) => checkEntry(e, i, o));
}

const OPTION_KEYS = ['query', 'mode', 'topK', 'maxDistance', 'nLines', 'ignoreCase', 'maxFileBytes', 'batchLines', 'recursive', 'hidden', 'noIgnore', 'followSymlinks', 'extensions', 'remote'] as const;

function checkOptions(v: unknown): ShardOptions {
  if (!isObject(v)) return fail('options is not an object');
  onlyKeys(v, OPTION_KEYS, 'options');
  str(v.query, 'options.query', MAX_QUERY_CHARS, { nul: true }); // a query is never a path: any text
  if (v.mode !== undefined && !(SEARCH_MODES as readonly unknown[]).includes(v.mode)) fail(`options.mode ${shown(v.mode)} is not one of ${SEARCH_MODES.join(', ')}`);
  if (v.topK !== undefined && !isInt(v.topK, 1, Number.MAX_SAFE_INTEGER)) fail(`options.topK ${shown(v.topK)} is not a whole number >= 1`);
  if (v.maxDistance !== undefined && !(typeof v.maxDistance === 'number' && Number.isFinite(v.maxDistance) && v.maxDistance >= 0)) fail(`options.maxDistance ${shown(v.maxDistance)} is not a finite number >= 0`);
  if (v.nLines !== undefined && !isInt(v.nLines, 0, 1e6)) fail(`options.nLines ${shown(v.nLines)} is not a whole number in 0..1000000`);
  if (v.maxFileBytes !== undefined && !isInt(v.maxFileBytes, 0, Number.MAX_SAFE_INTEGER)) fail(`options.maxFileBytes ${shown(v.maxFileBytes)} is not a byte count`);
  if (v.batchLines !== undefined && !isInt(v.batchLines, 1, 1e7)) fail(`options.batchLines ${shown(v.batchLines)} is not a whole number in 1..10000000`);
  for (const k of ['ignoreCase', 'recursive', 'hidden', 'noIgnore', 'followSymlinks'] as const) {
    if (v[k] !== undefined && typeof v[k] !== 'boolean') fail(`options.${k} is not a boolean`);
  }
  if (v.extensions !== undefined) {
    if (!Array.isArray(v.extensions) || v.extensions.length > 1024) fail('options.extensions is not a list of at most 1024 extensions');
    (v.extensions as unknown[]).forEach((e, i) => str(e, `options.extensions[${i}]`, 256));
  }
  checkRemote(v.remote, 'options.remote');
  return v as unknown as ShardOptions;
}

/** A search shard's job, or JobRefused saying what is wrong. */
export function checkSearchJob(d: unknown): ShardJob {
  const h = checkJobHeader(d) as unknown as Record<string, unknown>;
  onlyKeys(h, ['protocol', 'simgrep', 'model', 'formats', 'queryId', 'n', 'roots', 'cwd', 'options', 'entries'], 'the search job');
  if (!Array.isArray(h.roots) || h.roots.length === 0 || h.roots.length > MAX_ROOTS) fail(`roots is not a list of 1..${MAX_ROOTS} paths or URIs`);
  const roots = (h.roots as unknown[]).map((r, i) => remoteParses(str(r, `roots[${i}]`), `roots[${i}]`));
  if (!isCanonicalLocalPath(h.cwd)) fail(`cwd ${shown(h.cwd)} is not an absolute canonical path`);
  checkOptions(h.options);
  // The worker builds one source for all local roots (first), then one per URI, in order (sourcesForPaths).
  const remoteFrom = roots.some((r) => !isRemoteUri(r)) ? 1 : 0;
  const sources = remoteFrom + roots.filter(isRemoteUri).length;
  checkEntries(h.entries, { sources, remoteFrom, index: false });
  return h as unknown as ShardJob;
}

/** An index shard's job, or JobRefused saying what is wrong. */
export function checkIndexJob(d: unknown): IndexShardJob {
  const h = checkJobHeader(d) as unknown as Record<string, unknown>;
  onlyKeys(h, ['protocol', 'simgrep', 'model', 'formats', 'queryId', 'n', 'indexDir', 'chunkLines', 'remote', 'entries', 'prev'], 'the index job');
  if (!(typeof h.indexDir === 'string' && (isRemoteUri(h.indexDir) ? isCanonicalS3Uri(h.indexDir) : isCanonicalLocalPath(h.indexDir)))) {
    fail(`indexDir ${shown(h.indexDir)} is neither an absolute canonical path nor a canonical s3:// URI (no NUL, no . or .. segments)`);
  }
  if (!isInt(h.chunkLines, 1, 100_000)) fail(`chunkLines ${shown(h.chunkLines)} is not a whole number in 1..100000`);
  checkRemote(h.remote, 'remote');
  const entries = checkEntries(h.entries, { sources: 1, remoteFrom: 1, index: true });
  if (!Array.isArray(h.prev) || h.prev.length > entries.length) fail('prev is not a list of at most one state per entry');
  (h.prev as unknown[]).forEach((s, i) => {
    if (!isObject(s)) return fail(`prev[${i}] is not an object`);
    str(s.key, `prev[${i}].key`);
    str(s.hash, `prev[${i}].hash`, 256, { label: true });
    str(s.kind, `prev[${i}].kind`, 64, { label: true });
    for (const k of ['size', 'mtime', 'ctime', 'lines', 'chunks'] as const) {
      if (!(typeof s[k] === 'number' && Number.isFinite(s[k]))) fail(`prev[${i}].${k} is not a finite number`);
    }
  });
  return h as unknown as IndexShardJob;
}

/** BullMQ's attempt counter (attemptsStarted, also in Redis): part of a staging name. */
export function checkAttempt(v: unknown): number {
  if (!isInt(v, 0, MAX_ATTEMPT)) fail(`attempt ${shown(v)} is not a whole number in 0..${MAX_ATTEMPT}`);
  return v as number;
}

/** A staging database's name, RUN-SHARD-ATTEMPT, made only of checked parts. */
export function stagingName(runId: string, n: number, attempt: number): string {
  return `${checkQueryId(runId)}-${n}-${checkAttempt(attempt)}`;
}

/** True for a staging name of this run (the coordinator's check of what workers and Redis report). */
export function isStagingNameOf(name: unknown, runId: string): name is string {
  const m = typeof name === 'string' ? STAGING_NAME.exec(name) : null;
  return m !== null && m[1] === runId;
}

/** The staging database's location under the index directory, checked to lie directly in `<indexDir>/staging/`. */
export function stagingLocation(indexDir: string, name: string): string {
  if (!STAGING_NAME.test(name)) return fail(`staging name ${shown(name)} is not RUN-SHARD-ATTEMPT`);
  const remote = isRemoteUri(indexDir);
  if (!(remote ? isCanonicalS3Uri(indexDir) : isCanonicalLocalPath(indexDir))) return fail(`indexDir ${shown(indexDir)} is not canonical`);
  const base = remote ? `${indexDir.replace(/\/+$/, '')}/staging/` : `${indexDir === '/' ? '' : indexDir}/staging/`;
  const at = remote ? `${base}${name}` : path.join(indexDir, 'staging', name);
  if (!at.startsWith(base) || at.slice(base.length) !== name) return fail(`staging location ${shown(at)} is not under ${base}`);
  return at;
}
