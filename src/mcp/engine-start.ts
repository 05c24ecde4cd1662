// Starting the resident engine of a root (engine.ts) from a `simgrep mcp` front: at most one start at a
// time however many fronts ask at once (a lock file beside the socket), detached from the front, its
// notes in a log file beside the socket, and a wait until it listens on a socket this user can trust.
import { spawn } from 'node:child_process';
import { closeSync, constants, lstatSync, mkdirSync, openSync, rmSync, statSync } from 'node:fs';
import { createConnection } from 'node:net';
import path from 'node:path';
import { runtimeDirProblem, socketTrust } from '../server/socket-trust.js';

/** A lock file younger than this means another front is starting the engine: wait for it instead. */
const STARTING_MS = 30_000;
/**
 * How often a front looks for the engine's socket while it starts: an agent's first answer waits half
 * of it on average (25 ms at 50). A look is an lstat and a refused connect: every 10 ms for the first
 * 2 s (an engine listens ~0.3-1 s after its spawn), every 50 ms after that (an engine slow to start, a machine under load).
 */
const pollMs = (waited: number) => (waited < 2_000 ? 10 : 50);

export interface EngineStart {
  socket: string;
  /** [executable, ...args] of `simgrep serve --mcp ROOT ...`. */
  command: string[];
  /** Its working directory (the root). */
  cwd: string;
  /** How long to wait for it to listen. */
  waitMs: number;
}

/** Starts the engine unless another front is starting it, and waits until it listens; why not, or null. */
export async function startEngine(o: EngineStart): Promise<string | null> {
  const lock = `${o.socket}.starting`;
  // The per-user directory, as the engine makes it (mode 700); whether it can be trusted is checked before connecting.
  const dir = path.dirname(o.socket);
  try { mkdirSync(dir, { recursive: true, mode: 0o700 }); } catch (e) { return `its socket directory cannot be made: ${(e as Error).message}`; }
  // The front found no directory, or a trusted one, a moment ago; in a shared temp dir another user can
  // make it in between (mkdir's recursive keeps what is there) and plant a link at the log's name. The
  // lock and the log are written only into a directory that is this user's alone, the log not through a link.
  let why: string | null;
  try { why = runtimeDirProblem(dir, lstatSync(dir)); } catch (e) { why = `${dir} cannot be checked (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): check its owner and mode`; }
  if (why) return why;
  let mine = false;
  try { closeSync(openSync(lock, 'wx', 0o600)); mine = true; } catch {
    // Another front is starting it; a lock left by one that died long ago is taken over.
    try { if (Date.now() - statSync(lock).mtimeMs > STARTING_MS) { rmSync(lock, { force: true }); closeSync(openSync(lock, 'wx', 0o600)); mine = true; } } catch { /* theirs */ }
  }
  let exited: string | null = null;
  try {
    if (mine) {
      const logName = `${path.basename(o.socket, '.sock')}.log`;
      const log = openSync(path.join(dir, logName), constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0), 0o600);
      const child = spawn(o.command[0], o.command.slice(1), { detached: true, stdio: ['ignore', 'ignore', log], cwd: o.cwd, env: process.env });
      closeSync(log);
      child.once('exit', (code) => { exited = `the engine exited with code ${code} before listening (its notes: ${logName} beside its socket)`; });
      child.once('error', (e) => { exited = `the engine could not start: ${e.message}`; });
      child.unref();
    }
    const started = performance.now();
    const deadline = started + o.waitMs;
    while (performance.now() < deadline) {
      if (socketTrust(o.socket).kind === 'trusted' && await connects(o.socket)) return null;
      if (exited) return exited;
      await new Promise((r) => setTimeout(r, pollMs(performance.now() - started)));
    }
    return `it did not listen within ${o.waitMs / 1000} s`;
  } finally {
    if (mine) rmSync(lock, { force: true });
  }
}

export function connects(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const c = createConnection(socket);
    c.once('connect', () => { c.destroy(); resolve(true); });
    c.once('error', () => resolve(false));
  });
}
