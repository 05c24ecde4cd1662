// The resident engine of `simgrep mcp` (`simgrep serve --mcp ROOT`, started on demand by the first
// front): one process per root holds the model, the workspaces and their background builds, and runs
// a full MCP server (server.ts over tools.ts, the very code of an in-process one) for each front's
// session, which the front pipes between its stdio and this Unix socket. Four agents on one tree thus
// load one model and one index. It stops after `idleMs` without a tool call (never under one or under
// a background build), or `orphanMs` after the last front went away.
import type { Server, Socket } from 'node:net';
import { createServer } from 'node:net';
import { lstatSync, unlinkSync } from 'node:fs';
import { claimSocket, listenPrivately } from '../server/listen.js';
import { mismatch } from '../server/identity.js';
import { PROTOCOL, send, type Identity, type Request, type WireToolResult } from '../server/protocol.js';
import { callKey, createCallTurns } from './call-turns.js';
import { createMcpServer } from './server.js';
import { StdioTransport } from './stdio-transport.js';
import type { ToolRunner } from './tools.js';

export interface EngineOptions {
  runner: ToolRunner;
  /** The root's real path: a front with another root is declined. */
  root: string;
  identity: Identity;
  socket: string;
  version: string;
  /** Stop after this long without a tool call (0: never). */
  idleMs: number;
  /** Stop this long after the last front went away with nothing running (0: never). */
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

/** The most a front's first line (its request) may have. */
const MAX_HEADER_BYTES = 64 * 1024;

export async function serveEngine(o: EngineOptions): Promise<RunningEngine> {
  const say = o.onEvent ?? (() => {});
  await claimSocket(o.socket, 'a simgrep mcp engine already serves this root');
  const fronts = new Set<Socket>();
  const running = new Set<Promise<unknown>>();
  let timer: NodeJS.Timeout | null = null;
  /** Bumped at every arm(): a timer that fired for an older one does nothing. */
  let generation = 0;
  let stopping: Promise<void> | null = null;
  let resolveStopped!: () => void;
  const stopped = new Promise<void>((r) => { resolveStopped = r; });

  // Every session's tool calls: counted (an engine does not stop under one) and signed with this pid.
  // Searches run one after another: a warm one takes milliseconds, and four agents' cold scans at once
  // would hold four scans' buffers (the engine's peak memory) for no faster answers on shared cores. The
  // fronts take turns, and identical calls still waiting share one run (call-turns.ts); index runs queue
  // for the workspace's lock themselves.
  const turns = createCallTurns<WireToolResult>(
    (key, callers) => say(`one run answered ${callers} identical calls (${key.slice(0, 120)})`),
    (key, left, running) => say(`a call was cancelled (${(key ?? '').slice(0, 120)}): ${left > 0 ? `its run goes on for ${left} other call${left === 1 ? '' : 's'}` : running ? 'its run stopped' : 'not run'}`),
  );
  const runnerOf = (front: number): ToolRunner => ({
    settled: o.runner.settled,
    call(tool, args, { onProgress, signal } = {}) {
      // An index call is not cancelled: it writes the index, which every later call reads (docs/agents.md).
      const answer = tool === 'index'
        ? o.runner.call(tool, args, { onProgress })
        : turns.take(front, callKey(tool, args), (stop) => o.runner.call(tool, args, { signal: stop }), signal && { signal, answer: CANCELLED });
      const p = answer.then((r) => ({ ...r, _meta: { ...r._meta, 'simgrep/engine': { pid: process.pid } } }));
      running.add(p);
      arm();
      void p.finally(() => { running.delete(p); arm(); });
      return p;
    },
  });
  /** Numbers the sessions (a front's pid may come back in a later session). */
  let sessions = 0;

  const server: Server = createServer((conn) => {
    conn.on('error', () => {});
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const nl = head.indexOf(10);
      if (nl < 0) { if (head.length > MAX_HEADER_BYTES) conn.destroy(); return; }
      conn.off('data', onData);
      conn.pause();
      let req: Request;
      try { req = JSON.parse(head.subarray(0, nl).toString('utf8')) as Request; } catch { conn.destroy(); return; }
      const rest = head.subarray(nl + 1);
      if (rest.length > 0) conn.unshift(rest);
      handle(conn, req);
    };
    conn.on('data', onData);
  });
  server.on('error', (e) => say(`engine error: ${e.message}`));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    listenPrivately(server, o.socket, () => { server.off('error', reject); resolve(); });
  });
  const ours = process.platform === 'win32' ? 0 : lstatSync(o.socket).ino;
  arm();

  function handle(conn: Socket, req: Request): void {
    if (stopping) { decline(conn, 'it is stopping'); return; }
    if (req.op === 'stop' && req.identity?.protocol === PROTOCOL) { say('asked to stop'); void stop().then(() => conn.end()); return; }
    const why = req.identity ? mismatch(o.identity, req.identity) : 'the request names no simgrep version';
    if (why) { decline(conn, why); return; }
    if (req.op !== 'mcp') { decline(conn, 'this is simgrep mcp\'s engine, not a workspace\'s server'); return; }
    if (req.root !== o.root) { decline(conn, `it serves root ${o.root}, not ${req.root}`); return; }
    void session(conn, req.pid);
  }

  /** One front's MCP session: a server of its own over the shared runner, on this connection. */
  async function session(conn: Socket, pid: number): Promise<void> {
    fronts.add(conn);
    const front = ++sessions;
    say(`front pid ${pid} connected (${fronts.size} now)`);
    arm();
    const mcp = createMcpServer({ tools: runnerOf(front), version: o.version });
    mcp.server.onerror = (e) => say(`front pid ${pid}: ${e.message}`);
    const transport = new StdioTransport(conn, conn, { warn: (m) => say(`front pid ${pid}: ${m}`) });
    conn.once('close', () => {
      fronts.delete(conn);
      // Its calls still waiting are not run for no one (one another front waits on too still runs).
      turns.leave(front, { isError: true, content: [{ type: 'text', text: 'the front went away' }] });
      say(`front pid ${pid} went away (${fronts.size} left)`);
      void mcp.close().catch(() => {});
      arm();
    });
    send(conn, { type: 'ready', pid: process.pid });
    await mcp.connect(transport);
    conn.resume();
  }

  /** (Re)starts the clock that stops an engine nobody uses: idle since the last tool call, or orphaned. */
  function arm(): void {
    generation++;
    if (timer) { clearTimeout(timer); timer = null; }
    if (stopping || running.size > 0) return;
    const orphaned = fronts.size === 0 && o.orphanMs > 0;
    const ms = orphaned && (o.idleMs <= 0 || o.orphanMs < o.idleMs) ? o.orphanMs : o.idleMs;
    if (ms <= 0) return;
    const why = ms === o.idleMs ? `no tool call for ${ms / 1000} s` : `no front for ${ms / 1000} s`;
    const armed = generation;
    // A background build is work too: the engine stops once it is done, unless a call came meanwhile. The keeping
    // of the engine's start is not waited for (the stop ends it: it would read and count every prose document first).
    timer = setTimeout(() => {
      void (o.runner.settled?.({ keeping: false }) ?? Promise.resolve()).then(() => {
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
      await turns.settled();
      try { if (process.platform !== 'win32' && lstatSync(o.socket).ino === ours) unlinkSync(o.socket); } catch { /* already gone */ }
      await o.onStop?.();
      resolveStopped();
    })();
    return stopping;
  }

  return { socket: o.socket, stop, stopped };
}

/** What a cancelled call is answered with (the SDK sends no answer to a cancelled request: no one reads it). */
const CANCELLED: WireToolResult = { isError: true, content: [{ type: 'text', text: 'the call was cancelled by its client' }] };

function decline(conn: Socket, reason: string): void {
  send(conn, { type: 'decline', reason });
  conn.end();
}
