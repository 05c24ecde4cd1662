// The CLI's side of a workspace's resident server: when one listens for the workspace, the request goes
// to it; otherwise (no server, another version or model, a server that dies mid-request) the caller
// runs the request itself, so a server can only make a command faster, never change its answer.
// A socket another user could have put there (see socket-trust.ts) is never connected to.
import { createConnection } from 'node:net';
import { deserializeError } from '../errors.js';
import type { IndexProgress } from '../workspace/build/indexer.js';
import { readLines, send, type Reply, type Request } from './protocol.js';
import { socketTrust } from './socket-trust.js';

export type Answer = Extract<Reply, { type: 'done' }>;

export interface AskOptions {
  onProgress?: (p: IndexProgress) => void;
  /** Told why the socket is not used when it or its directory could belong to someone else (the CLI prints it once). */
  onUntrusted?: (why: string) => void;
}

/**
 * Sends `req` to the server listening on `socket`: its answer, or null when the caller must run the
 * request itself. A server's error (a bad flag, a locked index) is thrown as the caller's would be.
 */
export function askServer(socket: string, req: Request, o: AskOptions = {}): Promise<Answer | null> {
  const trust = socketTrust(socket);
  if (trust.kind === 'untrusted') o.onUntrusted?.(trust.why);
  if (trust.kind !== 'trusted') return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (f: () => void) => { if (!settled) { settled = true; f(); } };
    const conn = createConnection(socket);
    conn.once('connect', () => send(conn, req));
    readLines(conn, (line) => {
      const reply = JSON.parse(line) as Reply;
      if (reply.type === 'progress') o.onProgress?.(reply.progress);
      else if (reply.type === 'done') finish(() => resolve(reply));
      else if (reply.type === 'error') finish(() => reject(deserializeError(reply.error)));
      else finish(() => resolve(null));
    });
    // Refused (a socket left by a dead server), or the server died before answering: run it here.
    conn.on('error', () => finish(() => resolve(null)));
    conn.on('close', () => finish(() => resolve(null)));
  });
}
