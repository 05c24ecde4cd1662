// Taking a server's socket name safely: the per-user directory checked (socket-trust.ts), a socket left
// by a dead server removed, a live one kept, and the socket created with mode 600 from the start.
// Shared by a workspace's server (server.ts) and the MCP engine (src/mcp/engine.ts).
import { chmodSync, existsSync, lstatSync, mkdirSync, unlinkSync } from 'node:fs';
import { createConnection, type Server } from 'node:net';
import { SimgrepError } from '../errors.js';
import { socketDir } from './socket-path.js';
import { runtimeDirProblem } from './socket-trust.js';

/**
 * Makes the socket's name free for this server: the per-user directory exists and is this user's
 * alone; a socket left by a server that died is removed; a live server keeps it (an error).
 */
export async function claimSocket(socket: string, held = 'a simgrep server already serves this workspace'): Promise<void> {
  if (process.platform === 'win32') return; // a named pipe: nothing on disk to claim
  const dir = socketDir();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // lstat: a link planted in the directory's place is refused, not followed (the client checks the same).
  const why = runtimeDirProblem(dir, lstatSync(dir));
  if (why) throw new SimgrepError('SERVER_UNAVAILABLE', `cannot hold the server's socket: ${why}`);
  if (!existsSync(socket)) return;
  if (await answers(socket)) throw new SimgrepError('SERVER_UNAVAILABLE', `${held} (socket ${socket}); stop it first (its process, or kill the pid it printed)`);
  unlinkSync(socket);
}

/**
 * Listens on `socket` created with mode 600 (umask 177 for the bind, which is synchronous), so there
 * is no moment when it is open to others; chmod after, where the umask cannot be set (a worker thread).
 */
export function listenPrivately(server: Server, socket: string, onListening: () => void): void {
  if (process.platform === 'win32') { server.listen(socket, onListening); return; }
  let old: number | null = null;
  try { old = process.umask(0o177); } catch { /* worker threads cannot set it */ }
  try {
    server.listen(socket, onListening);
  } finally {
    if (old !== null) process.umask(old);
  }
  if (old === null) server.once('listening', () => chmodSync(socket, 0o600));
}

export function answers(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const c = createConnection(socket);
    c.once('connect', () => { c.destroy(); resolve(true); });
    c.once('error', () => resolve(false));
  });
}
