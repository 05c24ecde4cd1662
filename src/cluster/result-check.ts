// A search shard's answer as the coordinator reads it back from Redis. Whoever can write to Redis can
// push one, and a worker of another build may send another shape: an answer is used only when it has
// the form a worker makes and names only files of the shard it answers (its lines may still be forged:
// reliability.md). Anything else fails that shard with the reason; it never stops the query with a
// TypeError, and never prints a file the query did not list.
import { visibleLine, visibleName } from '../output/visible.js';
import type { Hit } from '../rank/windows.js';
import type { ShardEntry, ShardResult } from './protocol.js';

const COUNTS = ['files', 'lines', 'bytes', 'skipped', 'binary', 'errors'] as const;

/**
 * A worker's name as a message shows it: it comes from Redis, so control characters are escaped (ESC
 * sequences, a newline could drive the terminal or forge a line) and it is cut at 200 characters.
 */
export function shownWorker(name: string): string {
  return visibleName(name.slice(0, 200));
}

/**
 * A worker's error text as a message shows it: from Redis too, so control characters but tab are
 * escaped (an ESC sequence or a newline reached the terminal, and could forge a `simgrep:` line) and it
 * is cut at 1,000 characters.
 */
export function shownWorkerText(text: string): string {
  return visibleLine(text.length > 1000 ? `${text.slice(0, 1000)}…` : text);
}

/** The answer, or why it is not one; `n` is its shard number where that much could be read. */
export type ReadResult = { ok: true; result: ShardResult } | { ok: false; n: number | undefined; worker: string; why: string };

/** Parses and checks one answer; `entriesOf` gives a pending shard's entries (undefined: not pending). */
export function readShardResult(raw: string, entriesOf: (n: number) => ShardEntry[] | undefined): ReadResult {
  let v: unknown;
  try { v = JSON.parse(raw); } catch { return { ok: false, n: undefined, worker: 'unknown', why: 'an answer that is not JSON' }; }
  const r = isObject(v) ? v : {};
  const n = Number.isSafeInteger(r.n) && (r.n as number) >= 0 ? (r.n as number) : undefined;
  const worker = typeof r.worker === 'string' ? shownWorker(r.worker) : 'unknown';
  const fail = (why: string): ReadResult => ({ ok: false, n, worker, why });
  if (n === undefined || typeof r.worker !== 'string') return fail('an answer without a shard number and a worker');
  if ('error' in r) {
    const e = r.error;
    if (!isObject(e) || typeof e.code !== 'string' || typeof e.message !== 'string') return fail('an error answer without a code and a message');
    return { ok: true, result: r as unknown as ShardResult };
  }
  const entries = entriesOf(n);
  if (!entries) return { ok: true, result: r as unknown as ShardResult }; // not pending: dropped by the caller
  const listed = new Set(entries.map((e) => e.path));
  if (!Array.isArray(r.hits)) return fail('an answer without its list of hits');
  for (const h of r.hits) {
    const why = hitProblem(h, listed);
    if (why) return fail(why);
  }
  if (r.closestMiss !== null && r.closestMiss !== undefined) {
    const why = hitProblem(r.closestMiss, listed);
    if (why) return fail(why);
  }
  if (!Array.isArray(r.warnings) || !r.warnings.every((w) => isObject(w) && typeof w.path === 'string' && typeof w.code === 'string' && typeof w.message === 'string')) {
    return fail('an answer whose warnings are not a list of path, code and message');
  }
  const stats = r.stats;
  if (!isObject(stats) || !COUNTS.every((k) => Number.isSafeInteger(stats[k]) && (stats[k] as number) >= 0)) {
    return fail('an answer whose counts are not whole numbers');
  }
  return { ok: true, result: r as unknown as ShardResult };
}

function hitProblem(h: unknown, listed: Set<string>): string | null {
  if (!isObject(h)) return 'a hit that is not an object';
  const { path, line, start, distance, lines } = h as Partial<Record<keyof Hit, unknown>>;
  if (typeof path !== 'string' || !listed.has(path)) return `a hit in ${JSON.stringify(String(path).slice(0, 120))}, a file its shard did not hold`;
  if (!isLine(line) || !isLine(start) || typeof distance !== 'number' || !Number.isFinite(distance)) return `a hit in ${path} without a line, a first line and a finite distance`;
  if (!Array.isArray(lines) || !lines.every((l) => typeof l === 'string')) return `a hit in ${path} whose lines are not text`;
  return null;
}

const isLine = (x: unknown): boolean => Number.isSafeInteger(x) && (x as number) >= 0;

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}
