// One writer per workspace: an exclusive lock file holding the writer's pid and host. A lock left by
// a process that no longer runs (kill -9, a crash) on this host is taken over.
import { hostname } from 'node:os';
import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { SimgrepError } from '../errors.js';

export interface LockInfo { pid: number; host: string; started: string }

export interface Lock { release(): void }

export function tryLock(file: string): Lock | LockInfo {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), started: new Date().toISOString() }));
      closeSync(fd);
      return { release: () => rmSync(file, { force: true }) };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new SimgrepError('INDEX_WRITE_FAILED', `cannot create the lock ${file}: ${(e as NodeJS.ErrnoException).code ?? e}; check the index directory's permissions`, { cause: e });
      }
      const holder = readHolder(file);
      if (!holder && recent(file)) return { pid: 0, host: '?', started: 'just now' }; // being written
      if (holder && (holder.host !== hostname() || alive(holder.pid))) return holder;
      rmSync(file, { force: true }); // stale: its writer is gone
    }
  }
  return readHolder(file) ?? { pid: 0, host: '?', started: '?' };
}

export function isLock(x: Lock | LockInfo): x is Lock {
  return typeof (x as Lock).release === 'function';
}

export function lockedError(workspace: string, holder: LockInfo, file: string): SimgrepError {
  return new SimgrepError('INDEX_LOCKED', `workspace ${workspace} is being updated by process ${holder.pid} on ${holder.host} (since ${holder.started}); wait for it to finish, or delete ${file} if that process is gone`);
}

function readHolder(file: string): LockInfo | null {
  try { return JSON.parse(readFileSync(file, 'utf8')) as LockInfo; } catch { return null; }
}

function alive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch (e) { return (e as NodeJS.ErrnoException).code === 'EPERM'; }
}

function recent(file: string): boolean {
  try { return Date.now() - statSync(file).mtimeMs < 5000; } catch { return false; }
}
