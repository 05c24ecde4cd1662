// One writer per workspace: a lock file holding the writer's pid, host, process start time and a
// nonce. It is created whole (written to a temp file, then linked into place: never seen empty), and
// a lock left by a process that no longer runs on this host (kill -9, a crash, its pid since reused by
// another program) is taken over atomically: see takeOver. Calls in one process queue for the lock
// in memory (inProcess), so a process never finds itself holding it.
import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { SimgrepError } from '../errors.js';

export interface LockInfo { pid: number; host: string; started: string; startTicks?: string; nonce?: string }

export interface Lock { release(): void }

/** A takeover marker older than this was left by a process killed mid-takeover (it takes microseconds). */
const TAKEOVER_STALE_MS = 30_000;

export function tryLock(file: string): Lock | LockInfo {
  const mine: LockInfo = { pid: process.pid, host: hostname(), started: new Date().toISOString(), startTicks: startTicksOf(process.pid), nonce: randomBytes(8).toString('hex') };
  const tmp = written(file, mine);
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        linkSync(tmp, file); // atomic: fails if any lock is there
        return held(file, mine);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw writeFailed(file, e);
      }
      const holder = readHolder(file);
      if (!holder) continue; // released meanwhile (a lock is never seen half written)
      if (holder.host !== hostname() || running(holder)) return holder;
      // An unreadable lock (an older simgrep wrote its locks in two steps) is taken over once it is not new.
      if (holder.pid === 0 && Date.now() - holder.mtimeMs! < 5000) return holder;
      if (takeOver(file, holder, tmp)) return held(file, mine);
    }
    return readHolder(file) ?? { pid: 0, host: '?', started: '?' };
  } finally {
    rmSync(tmp, { force: true });
  }
}

/**
 * Replaces the stale lock `stale` with ours (the temp file `tmp`), or returns false. Only the process
 * that creates the takeover marker named after the stale lock's nonce may replace it, after checking
 * the lock is still that one: no other process can remove it meanwhile (its holder is dead, and other
 * takers need the same marker) nor create one (it exists), and rename replaces it without a moment
 * where the file is absent. A slow taker that gets the marker later finds another nonce and gives up.
 */
function takeOver(file: string, stale: LockInfo, tmp: string): boolean {
  const marker = `${file}.takeover.${stale.nonce ?? `pid${stale.pid}`}`;
  try {
    linkSync(tmp, marker);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw writeFailed(file, e);
    // Left by a taker killed mid-takeover: cleared once old, and the next try takes over.
    try { if (Date.now() - statSync(marker).mtimeMs > TAKEOVER_STALE_MS) rmSync(marker, { force: true }); } catch { /* gone */ }
    return false;
  }
  try {
    const now = readHolder(file);
    if (!now || now.nonce !== stale.nonce || now.pid !== stale.pid) return false;
    const copy = `${tmp}.takeover`;
    linkSync(tmp, copy);
    renameSync(copy, file);
    return true;
  } finally {
    rmSync(marker, { force: true });
  }
}

/** The lock as held: released by removing it, only if it is still ours. */
function held(file: string, mine: LockInfo): Lock {
  return {
    release: () => {
      if (readHolder(file)?.nonce === mine.nonce) rmSync(file, { force: true });
    },
  };
}

/** Our lock's content in a temp file of its own (a full or read-only disk fails here, leaving no lock). */
function written(file: string, info: LockInfo): string {
  const tmp = `${file}.${process.pid}.${info.nonce}.tmp`;
  try {
    writeFileSync(tmp, JSON.stringify(info), { flag: 'wx' });
  } catch (e) {
    rmSync(tmp, { force: true });
    throw writeFailed(file, e);
  }
  return tmp;
}

function writeFailed(file: string, e: unknown): SimgrepError {
  const code = (e as NodeJS.ErrnoException).code ?? String(e);
  const why = code === 'ENOSPC' ? 'the disk is full' : code === 'EROFS' ? 'the file system is read-only' : 'check the index directory\'s permissions';
  return new SimgrepError('INDEX_WRITE_FAILED', `cannot create the lock ${file}: ${code}: ${why}`, { cause: e });
}

export function isLock(x: Lock | LockInfo): x is Lock {
  return typeof (x as Lock).release === 'function';
}

export function lockedError(workspace: string, holder: LockInfo, file: string): SimgrepError {
  return new SimgrepError('INDEX_LOCKED', `workspace ${workspace} is being updated by process ${holder.pid} on ${holder.host} (since ${holder.started}); wait for it to finish, or delete ${file} if that process is gone`);
}

/**
 * Runs `fn` once no other call of this process holds `file`'s lock: calls in one process (an MCP
 * server's parallel search and index) queue here, and each then takes the lock file in turn.
 * `claims`: a search's save of the files it found changed, with their keys (the index's: real paths), which
 * another search that found only those changed waits for (waitsBehind); any other call is a run (an index
 * run, a prune).
 */
export async function inProcess<T>(file: string, fn: () => Promise<T>, o: { claims?: readonly string[] } = {}): Promise<T> {
  const before = queue.get(file) ?? Promise.resolve();
  let done!: () => void;
  const mine = new Promise<void>((r) => { done = r; });
  const tail = before.then(() => mine);
  queue.set(file, tail);
  const claim: Claim | null = o.claims ? { keys: o.claims, set: null } : null;
  if (claim) claims.set(file, [...(claims.get(file) ?? []), claim]);
  else runs.set(file, (runs.get(file) ?? 0) + 1);
  try {
    await before;
    return await fn();
  } finally {
    done();
    if (queue.get(file) === tail) queue.delete(file);
    if (claim) {
      const left = claims.get(file)!.filter((c) => c !== claim);
      if (left.length > 0) claims.set(file, left); else claims.delete(file);
    } else {
      const left = runs.get(file)! - 1;
      if (left > 0) runs.set(file, left); else runs.delete(file);
    }
  }
}

/** The keys a search's save claims; their set made when first asked (most saves are never asked about). */
interface Claim { keys: readonly string[]; set: Set<string> | null }

const queue = new Map<string, Promise<void>>();
/** Calls of this process other than searches' saves (index runs, prune) holding or waiting for each lock. */
const runs = new Map<string, number>();
/** The searches' saves of this process holding or waiting for each lock, with the files they save. */
const claims = new Map<string, Claim[]>();

/**
 * What a search's save of the files `keys` would queue behind for `file`'s lock in this process: `nothing` (no
 * call holds or waits for it); `saves`, searches' saves that save every one of `keys` (the search waits for them
 * and reads none of its files again); or `other`: an index run or a prune, or saves of other files (the search
 * reads what changed for its own answer: review of save42, a search of 5 files waited 4.6 s, or was cut by its
 * --timeout, behind another search's save of 1,000). `keys` empty: whether any call holds or waits for it.
 */
export function waitsBehind(file: string, keys: readonly string[]): 'nothing' | 'saves' | 'other' {
  if (!queue.has(file)) return 'nothing';
  const all = claims.get(file);
  if (runs.has(file) || !all) return 'other';
  for (const c of all) c.set ??= new Set(c.keys);
  return keys.every((k) => all.some((c) => c.set!.has(k))) ? 'saves' : 'other';
}

/** The lock's holder; null when there is no lock; pid 0 (named by its inode) when it cannot be parsed. */
function readHolder(file: string): (LockInfo & { mtimeMs?: number }) | null {
  let text: string;
  try { text = readFileSync(file, 'utf8'); } catch { return null; }
  try { return JSON.parse(text) as LockInfo; } catch {
    try {
      const st = statSync(file);
      return { pid: 0, host: hostname(), started: 'unknown (the lock file is unreadable)', nonce: `unreadable-${st.ino}-${st.mtimeMs}`, mtimeMs: st.mtimeMs };
    } catch { return null; }
  }
}

/** Whether the lock's process still runs: its pid is alive and, where the system says, started when the lock says. */
function running(holder: LockInfo): boolean {
  if (!alive(holder.pid)) return false;
  if (holder.startTicks === undefined) return true;
  const now = startTicksOf(holder.pid);
  return now === undefined || now === holder.startTicks;
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try { process.kill(pid, 0); return true; } catch (e) { return (e as NodeJS.ErrnoException).code === 'EPERM'; }
}

/** A process's start time in clock ticks since boot (/proc/PID/stat field 22, Linux); undefined elsewhere. */
export function startTicksOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (in parentheses, which may hold spaces): state is field 3.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}
