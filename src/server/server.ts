// A workspace's resident server (`simgrep serve`): keeps the model, the ranking snapshot, the open
// LanceDB tables, the worker pool and the watched walk of the workspace in memory, and answers the
// CLI's searches and index updates over a Unix socket, so a command pays for a process start and a
// connection instead of loading everything again. Requests run one at a time, each in the client's
// working directory (paths are shown as the client typed them); a client that goes away cancels its
// request; a search that would wait behind an index run is declined (its client answers itself).
// Answers are the workspace's own: the same code as `createWorkspace().search`. A server whose index
// directory was removed or replaced (`simgrep workspace rm`, a rebuild elsewhere) declines and stops:
// its loaded state no longer belongs to that directory.
import { lstatSync, statSync, unlinkSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { SimgrepError, serializeError } from '../errors.js';
import { isRemoteUri } from '../sources/uri.js';
import type { IndexReport } from '../workspace/build/indexer.js';
import type { Workspace } from '../workspace/workspace.js';
import { mismatch } from './identity.js';
import { PROTOCOL, readLines, send, type Identity, type Request, type WireIndexReport } from './protocol.js';
import { claimSocket, listenPrivately } from './listen.js';

export interface ServeOptions {
  workspace: Workspace;
  identity: Identity;
  /** Where to listen (socketPathFor the workspace's directory). */
  socket: string;
  /** Stop after this long without a request (0: never). */
  idleMs: number;
  /** Said as the server works (the CLI prints it on stderr). */
  onEvent?: (message: string) => void;
}

export interface RunningServer {
  socket: string;
  /** Stops listening, aborts the request in progress and declines the queued ones, closes the workspace. */
  stop(): Promise<void>;
  /** Settles when the server has stopped (idle, or stop()). */
  stopped: Promise<void>;
}

/** A progress line at most this often: a terminal cannot show more. */
const PROGRESS_EVERY_MS = 100;

export async function serve(o: ServeOptions): Promise<RunningServer> {
  const { workspace: ws, socket } = o;
  const say = o.onEvent ?? (() => {});
  await claimSocket(socket);
  const home = process.cwd();
  let queue: Promise<void> = Promise.resolve();
  /** Index runs queued or running: a search would wait for them, so it is declined meanwhile. */
  let indexing = 0;
  /** The requests accepted and not finished (queued or running): a stop aborts them. */
  const accepted = new Set<AbortController>();
  let idle: NodeJS.Timeout | null = null;
  let stopping: Promise<void> | null = null;
  let resolveStopped!: () => void;
  const stopped = new Promise<void>((r) => { resolveStopped = r; });

  const server: Server = createServer((conn) => {
    let taken = false;
    readLines(conn, (line) => {
      if (taken) return; // one request per connection
      taken = true;
      let req: Request;
      try { req = JSON.parse(line) as Request; } catch {
        send(conn, { type: 'error', error: { code: 'BAD_FLAG', message: 'the server got a request it cannot read (not JSON)' } });
        conn.end();
        return;
      }
      if (stopping) { decline(conn, 'it is stopping'); return; }
      if (req.op === 'stop' && req.identity?.protocol === PROTOCOL) { say('asked to stop'); void stop(conn); return; }
      const why = req.identity ? mismatch(o.identity, req.identity) : 'the request names no simgrep version';
      if (why) { decline(conn, why); return; }
      if (req.op !== 'search' && req.op !== 'index') { decline(conn, 'this is a workspace\'s server, not simgrep mcp\'s engine'); return; }
      // The client answers by itself from the last complete index (or scans what the run holds locked).
      if (req.op === 'search' && indexing > 0) { decline(conn, 'it is busy indexing'); return; }
      accept(conn, req);
    });
    conn.on('error', () => {}); // a client that died: its request is aborted by 'close'
  });
  server.on('error', (e) => say(`server error: ${e.message}`));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    listenPrivately(server, socket, () => { server.off('error', reject); resolve(); });
  });
  const ours = process.platform === 'win32' ? 0 : lstatSync(socket).ino;
  const servedDir = dirIdentity(ws.dir);
  armIdle();

  /** Queues a request; it runs after the ones before it, in the client's directory. */
  function accept(conn: Socket, req: Extract<Request, { op: 'search' | 'index' }>): void {
    const abort = new AbortController();
    conn.on('close', () => abort.abort());
    accepted.add(abort);
    if (req.op === 'index') indexing++;
    if (idle) { clearTimeout(idle); idle = null; }
    queue = queue.then(async () => {
      if (abort.signal.aborted) {
        // Its client went away, or the server is stopping: then the client answers by itself.
        if (stopping) decline(conn, 'it is stopping');
        finished();
        return;
      }
      const started = performance.now();
      if (dirIdentity(ws.dir) !== servedDir) {
        decline(conn, `workspace ${ws.name} (${ws.dir}) was removed or replaced since this server started`);
        finished();
        say(`workspace ${ws.name} was removed or replaced (${ws.dir}); stopping`);
        void stop();
        return;
      }
      try {
        process.chdir(req.cwd);
        if (req.op === 'search') {
          const search = await ws.search({ ...req.options, signal: abort.signal });
          send(conn, { type: 'done', pid: process.pid, workspace: ws.name, search });
        } else if (req.op === 'index') {
          const index = await runIndex(conn, req.paths, abort.signal);
          send(conn, { type: 'done', pid: process.pid, workspace: ws.name, index });
        }
        say(`${req.op} answered in ${Math.round(performance.now() - started)} ms`);
      } catch (e) {
        // Stopped under it: a search is declined (its client answers by itself), an index run says why it ended.
        const stopped = stopping !== null && abort.signal.aborted;
        if (stopped && req.op === 'search') decline(conn, 'it is stopping');
        else if (stopped) send(conn, { type: 'error', error: { code: 'ABORTED', message: `the server of workspace ${ws.name} stopped (simgrep workspace rm, Ctrl-C, or its index directory replaced) before this index run finished; what it committed is kept` } });
        else send(conn, { type: 'error', error: serializeError(e) });
      } finally {
        try { process.chdir(home); } catch { /* gone: requests chdir first anyway */ }
        conn.end();
        finished();
      }
    });
    function finished(): void {
      accepted.delete(abort);
      if (req.op === 'index') indexing--;
      armIdle();
    }
  }

  async function runIndex(conn: Socket, paths: string[], signal: AbortSignal): Promise<WireIndexReport> {
    const roots = paths.length > 0 ? paths : (await ws.status()).roots;
    if (roots.length === 0) throw new SimgrepError('BAD_FLAG', `workspace ${ws.name} has no paths yet; pass the paths to index`);
    let last = 0;
    const report: IndexReport = await ws.index(roots, {
      signal,
      onProgress: (progress) => {
        const now = performance.now();
        if (now - last < PROGRESS_EVERY_MS) return;
        last = now;
        send(conn, { type: 'progress', progress });
      },
    });
    const { patch: _patch, ...counts } = report;
    return counts;
  }

  function armIdle(): void {
    if (o.idleMs <= 0 || accepted.size > 0 || stopping) return;
    if (idle) clearTimeout(idle);
    idle = setTimeout(() => { say(`no request for ${Math.round(o.idleMs / 1000)} s; stopping`); void stop(); }, o.idleMs);
    idle.unref();
  }

  /**
   * Stops listening, aborts the request in progress (an index run stops at its next file or commit)
   * and declines the queued ones, closes the workspace; then answers `asker` (a stop request).
   */
  function stop(asker?: Socket): Promise<void> {
    stopping ??= (async () => {
      if (idle) clearTimeout(idle);
      server.close();
      for (const a of accepted) a.abort();
      await queue;
      // Another server may have taken the name since (after this one was declared dead): not ours to remove.
      try { if (process.platform !== 'win32' && lstatSync(socket).ino === ours) unlinkSync(socket); } catch { /* already gone */ }
      await ws.close();
      if (asker) await new Promise<void>((r) => { send(asker, { type: 'done', pid: process.pid, workspace: ws.name }); asker.end(r); });
      resolveStopped();
    })();
    return stopping;
  }

  return { socket, stop, stopped };
}

/** Says no to a request, whose client then answers by itself, and ends the connection. */
function decline(conn: Socket, reason: string): void {
  send(conn, { type: 'decline', reason });
  conn.end();
}

/** A local index directory's device and inode ('' when it is gone); object stores are not checked. */
function dirIdentity(dir: string): string {
  if (isRemoteUri(dir)) return 'remote';
  try { const st = statSync(dir); return `${st.dev}:${st.ino}`; } catch { return ''; }
}
