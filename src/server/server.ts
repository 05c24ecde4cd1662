// A workspace's resident server (`simgrep serve`): keeps the model, the ranking snapshot, the open
// LanceDB tables, the worker pool and the watched walk of the workspace in memory, and answers the
// CLI's searches and index updates over a Unix socket, so a command pays for a process start and a
// connection instead of loading everything again. Requests run one at a time, each in the client's
// working directory (paths are shown as the client typed them); a client that goes away cancels its
// request; a search that would wait behind an index run is answered at once: from the index when a run
// of it has finished before, for this model, over roots that cover the search's paths (the search checks
// what changed, as every search does), else by reading the files (`scan`; the answer says `building`), or
// declined (its client answers itself) where there is no scan; a search that no run under way makes the
// index answer (paths outside them all) is the workspace's own, which says why it read the files.
// Answers are the workspace's own: the same code as `createWorkspace().search`. A server whose index
// directory was removed or replaced (`simgrep workspace rm`, a rebuild elsewhere) declines and stops:
// its loaded state no longer belongs to that directory.
import { lstatSync, statSync, unlinkSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { SimgrepError, serializeError } from '../errors.js';
import path from 'node:path';
import type { SearchResponse } from '../searcher/api.js';
import { isRemoteUri } from '../sources/uri.js';
import type { IndexReport } from '../workspace/build/indexer.js';
import { realPath } from '../sources/real-paths.js';
import { covers } from '../workspace/registry.js';
import type { Workspace } from '../workspace/workspace.js';
import { mismatch } from './identity.js';
import { PROTOCOL, readLines, send, type Identity, type Request, type WireIndexReport, type WireSearchOptions } from './protocol.js';
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
  /**
   * Reads the files for a search that arrives while an index run is queued or running and the index cannot
   * answer it until that run is done (a first build, another model's index, roots the run adds): the answer
   * the index gives, without waiting for it. Without it such a search is declined (its client answers). An
   * index that answers it (Workspace.besideIndexRun) answers such a search itself.
   */
  scan?: (options: WireSearchOptions & { signal: AbortSignal }) => Promise<SearchResponse>;
}

/**
 * Why a server stops: a client asked (`simgrep workspace rm`, which removes the workspace next), its index
 * directory was removed or replaced, no request came for its idle time, or its owner stopped it (stop(): Ctrl-C).
 */
export type StopCause = 'asked' | 'replaced' | 'idle' | 'owner';

export interface RunningServer {
  socket: string;
  /** Stops listening, aborts the request in progress and declines the queued ones, closes the workspace. */
  stop(): Promise<void>;
  /** Why it stops or stopped; null while it serves. */
  stoppedBy(): StopCause | null;
  /** Settles when the server has stopped (idle, or stop()). */
  stopped: Promise<void>;
  /** Queues an index run of absolute paths (searches meanwhile are scanned, with `scan`); its report. */
  indexInBackground(paths: string[]): Promise<WireIndexReport>;
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
  /** The paths of each index run queued or running (absolute; empty: the roots the index has). */
  const runPaths = new Set<string[]>();
  /** The requests accepted and not finished (queued or running): a stop aborts them. */
  const accepted = new Set<AbortController>();
  let idle: NodeJS.Timeout | null = null;
  let stopping: Promise<void> | null = null;
  let cause: StopCause | null = null;
  let resolveStopped!: () => void;
  const stopped = new Promise<void>((r) => { resolveStopped = r; });
  /** Whatever depends on the working directory (a search shows paths as its client typed them) runs here, one at a time. */
  let cwdChain: Promise<unknown> = Promise.resolve();
  const scans = new Set<Promise<void>>();
  function inCwd<T>(cwd: string, fn: () => Promise<T>): Promise<T> {
    const run = cwdChain.then(async () => {
      process.chdir(cwd);
      try { return await fn(); } finally { try { process.chdir(home); } catch { /* gone */ } }
    });
    cwdChain = run.catch(() => undefined);
    return run;
  }

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
      if (req.op === 'stop' && req.identity?.protocol === PROTOCOL) { say('asked to stop'); void stop(conn, 'asked'); return; }
      const why = req.identity ? mismatch(o.identity, req.identity) : 'the request names no simgrep version';
      if (why) { decline(conn, why); return; }
      if (req.op !== 'search' && req.op !== 'index') { decline(conn, 'this is a workspace\'s server, not simgrep mcp\'s engine'); return; }
      // Never wait on an index run: an index a run completed answers beside it, else the files are read for
      // this answer (or the client answers by itself).
      if (req.op === 'search' && indexing > 0) { answerWhileIndexing(conn, req); return; }
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
  let servedDir = dirIdentity(ws.dir);
  armIdle();

  /** Queues a request; it runs after the ones before it, in the client's directory. */
  function accept(conn: Socket, req: Extract<Request, { op: 'search' | 'index' }>): void {
    const abort = new AbortController();
    conn.on('close', () => abort.abort());
    accepted.add(abort);
    const indexed = req.op === 'index' ? req.paths.map((p) => (isRemoteUri(p) ? p : path.resolve(req.cwd, p))) : null;
    if (indexed) { indexing++; runPaths.add(indexed); }
    if (idle) { clearTimeout(idle); idle = null; }
    queue = queue.then(async () => {
      if (abort.signal.aborted) {
        // Its client went away, or the server is stopping: then the client answers by itself.
        if (stopping) decline(conn, 'it is stopping');
        finished();
        return;
      }
      const started = performance.now();
      // A workspace that did not exist yet (serve PATH builds it in the background) is this server's once made.
      if (servedDir === '') servedDir = dirIdentity(ws.dir);
      if (dirIdentity(ws.dir) !== servedDir) {
        decline(conn, `workspace ${ws.name} (${ws.dir}) was removed or replaced since this server started`);
        finished();
        say(`workspace ${ws.name} was removed or replaced (${ws.dir}); stopping`);
        void stop(undefined, 'replaced');
        return;
      }
      try {
        if (req.op === 'search') {
          const search = await inCwd(req.cwd, () => ws.search({ ...req.options, signal: abort.signal }));
          send(conn, { type: 'done', pid: process.pid, workspace: ws.name, search, freshness: search.stats.index ? 'fresh' : 'scanned' });
        } else if (req.op === 'index') {
          // Absolute paths: the run then owes nothing to the working directory, which a scan may change meanwhile.
          const index = await runIndex(conn, indexed!, abort.signal);
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
        conn.end();
        finished();
      }
    });
    function finished(): void {
      accepted.delete(abort);
      if (indexed) { indexing--; runPaths.delete(indexed); }
      armIdle();
    }
  }

  /**
   * Answers a search while an index run holds the queue (`simgrep serve PATH`'s start-up update, a
   * client's `simgrep index`). An index a run has completed, of this model, whose roots cover the search's
   * paths (Workspace.besideIndexRun: the rule search-run.ts follows) answers beside it, as any search of it
   * does: its walk and check find what changed since (files the update has not reached yet included), and
   * reads those for this answer (search-run.ts); the answer says `fresh`. Otherwise (a first build, an index
   * of another model or of other roots, which the run rebuilds or extends) the files are read (`scan`): the
   * answer says `building`; without a scan the search is declined (its client answers by itself). An index
   * that cannot answer, whose paths no run queued or running indexes (which would make it answer them), is
   * searched as at any other time: the search reads the files and says why (`workspace NAME not used: ...`);
   * the answer says `scanned`.
   */
  function answerWhileIndexing(conn: Socket, req: Extract<Request, { op: 'search' }>): void {
    const abort = new AbortController();
    conn.on('close', () => abort.abort());
    accepted.add(abort);
    if (idle) { clearTimeout(idle); idle = null; }
    const started = performance.now();
    const options = { ...req.options, signal: abort.signal };
    // The paths are the client's, relative to its directory: asked there.
    const p = inCwd(req.cwd, async () => {
      const paths = req.options.paths ?? [];
      const beside = await ws.besideIndexRun(paths);
      // (One that reads the files after all, an index published meanwhile: `building`, as before.)
      if (beside.fromIndex) return { search: await ws.search(options), building: true };
      // Not the runs' to mend: the workspace's search says why it reads the files (it never waits for the lock then).
      if (beside.why !== null && !covers(await coveredAfterRuns(beside.reason), paths)) return { search: await ws.search(options), building: false };
      return o.scan ? { search: await o.scan(options), building: true } : null;
    }).then((answer) => {
      if (!answer) { decline(conn, 'it is busy indexing'); return; }
      const { search, building } = answer;
      const fresh = search.stats.index !== undefined;
      send(conn, { type: 'done', pid: process.pid, workspace: ws.name, search, freshness: fresh ? 'fresh' : building ? 'building' : 'scanned' });
      const ms = Math.round(performance.now() - started);
      say(fresh ? `search answered from the index in ${ms} ms (an index run is under way)` : building ? `search answered from the files in ${ms} ms (the index is being built)` : `search answered from the files in ${ms} ms (no index run makes the index answer it)`);
    }, (e: unknown) => {
      if (stopping !== null && abort.signal.aborted) decline(conn, 'it is stopping');
      else send(conn, { type: 'error', error: serializeError(e) });
    }).finally(() => {
      conn.end();
      accepted.delete(abort);
      scans.delete(p);
      armIdle();
    });
    scans.add(p);
  }

  function indexInBackground(paths: string[]): Promise<WireIndexReport> {
    const abort = new AbortController();
    accepted.add(abort);
    indexing++;
    runPaths.add(paths);
    if (idle) { clearTimeout(idle); idle = null; }
    const run = queue.then(() => ws.index(paths, { signal: abort.signal })).then(({ patch: _patch, ...counts }) => counts);
    queue = run.then(() => undefined, () => undefined).finally(() => { accepted.delete(abort); indexing--; runPaths.delete(paths); armIdle(); });
    return run;
  }

  /**
   * The roots the index has once the runs queued or running are done: theirs (a run of no paths: the roots it
   * has), with the roots it has where it only lacks some (a run adds its paths; a rebuild for another model
   * indexes the run's paths alone).
   */
  async function coveredAfterRuns(reason: 'incompatible' | 'roots'): Promise<string[]> {
    const had = reason === 'roots' || [...runPaths].some((p) => p.length === 0) ? await ws.roots() : [];
    return [...had, ...[...runPaths].flat().map((p) => (isRemoteUri(p) ? p : realPath(p)))];
  }

  async function runIndex(conn: Socket, paths: string[], signal: AbortSignal): Promise<WireIndexReport> {
    const roots = paths.length > 0 ? paths : await ws.roots();
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
    idle = setTimeout(() => { say(`no request for ${Math.round(o.idleMs / 1000)} s; stopping`); void stop(undefined, 'idle'); }, o.idleMs);
    idle.unref();
  }

  /**
   * Stops listening, aborts the request in progress (an index run stops at its next file or commit)
   * and declines the queued ones, closes the workspace; then answers `asker` (a stop request).
   */
  function stop(asker?: Socket, why: StopCause = 'owner'): Promise<void> {
    cause ??= why;
    stopping ??= (async () => {
      if (idle) clearTimeout(idle);
      server.close();
      for (const a of accepted) a.abort();
      await queue;
      await Promise.allSettled([...scans]);
      // Another server may have taken the name since (after this one was declared dead): not ours to remove.
      try { if (process.platform !== 'win32' && lstatSync(socket).ino === ours) unlinkSync(socket); } catch { /* already gone */ }
      await ws.close();
      if (asker) await new Promise<void>((r) => { send(asker, { type: 'done', pid: process.pid, workspace: ws.name }); asker.end(r); });
      resolveStopped();
    })();
    return stopping;
  }

  return { socket, stop: () => stop(), stoppedBy: () => cause, stopped, indexInBackground };
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
