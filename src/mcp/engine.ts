// The resident engine of `simgrep mcp` (`simgrep serve --mcp ROOT`, started on demand by the first
// front that searches): one process per root holds the model, the workspaces and their background
// builds, and runs the MCP tools (tools.ts) for every front that connects over its Unix socket, so
// four agents on one tree load one model and one index. Requests run concurrently, as one MCP server's
// do. It stops after `idleMs` without a request, or `orphanMs` after the last front went away.
import type { Server, Socket } from 'node:net';
import { createServer } from 'node:net';
import { lstatSync, unlinkSync } from 'node:fs';
import { claimSocket, listenPrivately } from '../server/listen.js';
import { mismatch } from '../server/identity.js';
import { PROTOCOL, readLines, send, type Identity, type Request } from '../server/protocol.js';
import type { ToolName, ToolRunner } from './tools.js';
import { TOOL_NAMES } from './tools.js';

export interface EngineOptions {
  runner: ToolRunner;
  /** The root's real path: a front with another root is declined. */
  root: string;
  identity: Identity;
  socket: string;
  /** Stop after this long without a request (0: never). */
  idleMs: number;
  /** Stop this long after the last front detached with nothing running (0: never). */
  orphanMs: number;
  onEvent?: (message: string) => void;
  /** Called once stopped, before `stopped` settles (closes the action engine). */
  onStop?: () => Promise<void>;
}

export interface RunningEngine {
  socket: string;
  stop(): Promise<void>;
  stopped: Promise<void>;
}

const PROGRESS_EVERY_MS = 100;

export async function serveEngine(o: EngineOptions): Promise<RunningEngine> {
  const say = o.onEvent ?? (() => {});
  await claimSocket(o.socket, 'a simgrep mcp engine already serves this root');
  const fronts = new Set<Socket>();
  const running = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | null = null;
  /** Bumped at every arm(): a timer that fired for an older one does nothing. */
  let generation = 0;
  let stopping: Promise<void> | null = null;
  let resolveStopped!: () => void;
  const stopped = new Promise<void>((r) => { resolveStopped = r; });

  const server: Server = createServer((conn) => {
    let taken = false;
    conn.on('error', () => {});
    readLines(conn, (line) => {
      if (taken) return;
      taken = true;
      let req: Request;
      try { req = JSON.parse(line) as Request; } catch { conn.destroy(); return; }
      if (stopping) { decline(conn, 'it is stopping'); return; }
      if (req.op === 'stop' && req.identity?.protocol === PROTOCOL) { say('asked to stop'); void stop().then(() => conn.end()); return; }
      const why = req.identity ? mismatch(o.identity, req.identity) : 'the request names no simgrep version';
      if (why) { decline(conn, why); return; }
      if (req.op !== 'tool' && req.op !== 'attach') { decline(conn, 'this is simgrep mcp\'s engine, not a workspace\'s server'); return; }
      if (req.root !== o.root) { decline(conn, `it serves root ${o.root}, not ${req.root}`); return; }
      if (req.op === 'attach') { attach(conn, req.pid); return; }
      if (!TOOL_NAMES.includes(req.tool as ToolName)) { decline(conn, `it has no tool ${req.tool}`); return; }
      run(conn, req.tool as ToolName, req.args ?? {});
    });
  });
  server.on('error', (e) => say(`engine error: ${e.message}`));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    listenPrivately(server, o.socket, () => { server.off('error', reject); resolve(); });
  });
  const ours = process.platform === 'win32' ? 0 : lstatSync(o.socket).ino;
  arm();

  function attach(conn: Socket, pid: number): void {
    fronts.add(conn);
    say(`front pid ${pid} attached (${fronts.size} now)`);
    arm();
    conn.on('close', () => { fronts.delete(conn); say(`front pid ${pid} detached (${fronts.size} left)`); arm(); });
  }

  function run(conn: Socket, tool: ToolName, args: Record<string, unknown>): void {
    const started = performance.now();
    let last = 0;
    const p = o.runner.call(tool, args, (progress) => {
      const now = performance.now();
      if (now - last < PROGRESS_EVERY_MS) return;
      last = now;
      send(conn, { type: 'progress', progress });
    }).then((result) => {
      send(conn, { type: 'done', pid: process.pid, workspace: o.root, tool: result });
      say(`${tool} answered in ${Math.round(performance.now() - started)} ms`);
    }, (e: unknown) => {
      send(conn, { type: 'decline', reason: `it failed: ${(e as Error)?.message ?? String(e)}` });
    }).finally(() => {
      conn.end();
      running.delete(p);
      arm();
    });
    running.add(p);
    arm();
  }

  /** (Re)starts the clock that stops an engine nobody uses: idle since the last request, or orphaned. */
  function arm(): void {
    generation++;
    if (timer) { clearTimeout(timer); timer = null; }
    if (stopping || running.size > 0) return;
    const orphaned = fronts.size === 0 && o.orphanMs > 0;
    const ms = orphaned && (o.idleMs <= 0 || o.orphanMs < o.idleMs) ? o.orphanMs : o.idleMs;
    if (ms <= 0) return;
    const why = ms === o.idleMs ? `no request for ${ms / 1000} s` : `no front attached for ${ms / 1000} s`;
    const armed = ++generation;
    // A background build is work too: the engine stops once it is done, unless a request came meanwhile.
    timer = setTimeout(() => {
      void (o.runner.settled?.() ?? Promise.resolve()).then(() => {
        if (armed !== generation || running.size > 0) return;
        say(`${why}; stopping`);
        void stop();
      });
    }, ms);
  }

  function stop(): Promise<void> {
    stopping ??= (async () => {
      if (timer) clearTimeout(timer);
      server.close();
      for (const f of fronts) f.destroy();
      await Promise.allSettled([...running]);
      try { if (process.platform !== 'win32' && lstatSync(o.socket).ino === ours) unlinkSync(o.socket); } catch { /* already gone */ }
      await o.onStop?.();
      resolveStopped();
    })();
    return stopping;
  }

  return { socket: o.socket, stop, stopped };
}

function decline(conn: Socket, reason: string): void {
  send(conn, { type: 'decline', reason });
  conn.end();
}
