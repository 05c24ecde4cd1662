// What the CLI and a workspace's resident server say to each other: one JSON object per line over a
// Unix socket. The client sends one request; the server answers with progress lines, then exactly
// one final line (done, error or decline), then closes. Plain data only: no functions, no signals.
import type { Socket } from 'node:net';
import type { SerializedError } from '../errors.js';
import type { IndexProgress, IndexReport } from '../workspace/build/indexer.js';
import type { SearchOptions, SearchResponse } from '../searcher/api.js';

export const PROTOCOL = 2;

/** What must match for the server's answer to be the one this process would give. */
export interface Identity {
  protocol: number;
  /** simgrep's version. */
  version: string;
  /** The model spec (a local directory by its real path, or a hub id). */
  model: string;
  /** --embedder, when given. */
  embedder: string | null;
}

/** The options of a search that can cross the socket (the CLI's; no sources, signal or callbacks). */
export type WireSearchOptions = Omit<SearchOptions, 'sources' | 'signal' | 'onProgress' | 'cluster'>;

export type Request =
  | { op: 'search'; identity: Identity; cwd: string; options: WireSearchOptions }
  | { op: 'index'; identity: Identity; cwd: string; paths: string[] }
  /** Stop serving (`simgrep workspace rm` asks before it removes the directory); answered once stopped. */
  | { op: 'stop'; identity: Identity; cwd: string }
  /**
   * simgrep mcp's engine (src/mcp/engine.ts): after this line and the engine's `ready`, the connection
   * carries the MCP session of the front `pid` (JSON-RPC lines both ways) for a root of `root`.
   */
  | { op: 'mcp'; identity: Identity; root: string; pid: number };

/** An MCP tool's result as a runner returns it: plain JSON. */
export interface WireToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: true;
  /** Who answered (the engine's pid), for the client's curiosity: not part of the answer. */
  _meta?: Record<string, unknown>;
}

/** The counts `simgrep index` prints (an IndexReport without its snapshot patch). */
export type WireIndexReport = Omit<IndexReport, 'patch'>;

export type Reply =
  | { type: 'progress'; progress: IndexProgress }
  /** `freshness` (a search): fresh (the index answered), building (the files were read while an index run went on), scanned (read directly). */
  | { type: 'done'; pid: number; workspace: string; search?: SearchResponse; freshness?: 'fresh' | 'building' | 'scanned'; index?: WireIndexReport }
  | { type: 'error'; error: SerializedError }
  | { type: 'decline'; reason: string }
  /** simgrep mcp's engine took the session: MCP lines follow. */
  | { type: 'ready'; pid: number };

/** Calls `onLine` with each complete line received on the socket. */
export function readLines(socket: Socket, onLine: (line: string) => void): void {
  let pending = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    pending += chunk;
    let nl: number;
    while ((nl = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      if (line.length > 0) onLine(line);
    }
  });
}

export function send(socket: Socket, message: Request | Reply): void {
  if (!socket.destroyed) socket.write(`${JSON.stringify(message)}\n`);
}
