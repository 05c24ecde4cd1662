// The `simgrep mcp` front's side of the resident engine (engine.ts): each tool call goes to the engine
// for this root, started on demand (detached, once, however many fronts ask at the same moment); the
// front holds an attach connection while it lives, so the engine knows when nobody needs it. When the
// engine cannot be reached (its socket untrusted, it would not start, it declined or died mid-call)
// the call runs in this process instead, said once on stderr: the answer is the same, only slower.
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, rmSync, statSync } from 'node:fs';
import { createConnection, type Socket } from 'node:net';
import path from 'node:path';
import { readLines, send, type Identity, type Reply, type Request, type WireToolResult } from '../server/protocol.js';
import { socketTrust } from '../server/socket-trust.js';
import type { IndexProgress } from '../workspace/build/indexer.js';
import type { ToolName, ToolRunner } from './tools.js';

export interface EngineLinkOptions {
  root: string;
  identity: Identity;
  socket: string;
  /** The command that starts the engine: [executable, ...args]. */
  engineCommand: string[];
  /** The runner of this process, made on first need (it loads the model here). */
  local: () => Promise<ToolRunner>;
  /** A note for the operator (stderr). */
  note: (message: string) => void;
  /** How long to wait for a started engine to listen. */
  startMs?: number;
}

type Asked = { kind: 'answer'; result: WireToolResult; pid: number } | { kind: 'refused' } | { kind: 'declined'; reason: string };

/** A lock file younger than this means another front is starting the engine: wait for it instead. */
const STARTING_MS = 30_000;
/** After a failed start, calls run here this long before another start is tried. */
const RETRY_MS = 60_000;

export function createEngineLink(o: EngineLinkOptions): ToolRunner & { close(): void } {
  const startMs = o.startMs ?? 20_000;
  let localRunner: Promise<ToolRunner> | null = null;
  let said = false;
  let failedAt = -Infinity;
  let attached: Socket | null = null;

  const local = (why: string, tool: ToolName, args: Record<string, unknown>, onProgress?: (p: IndexProgress) => void) => {
    if (!said) { said = true; o.note(`the resident engine could not answer (${why}); answering in this process (--no-server does so from the start)`); }
    localRunner ??= o.local();
    return localRunner.then((r) => r.call(tool, args, onProgress));
  };

  async function call(tool: ToolName, args: Record<string, unknown>, onProgress?: (p: IndexProgress) => void): Promise<WireToolResult> {
    const trust = socketTrust(o.socket);
    if (trust.kind === 'untrusted') return local(trust.why, tool, args, onProgress);
    const req: Request = { op: 'tool', identity: o.identity, root: o.root, tool, args };
    let asked: Asked = trust.kind === 'trusted' ? await ask(o.socket, req, onProgress) : { kind: 'refused' };
    if (asked.kind === 'refused') {
      if (performance.now() - failedAt < RETRY_MS) return local('it failed to start a moment ago', tool, args, onProgress);
      const why = await start();
      if (why) { failedAt = performance.now(); return local(why, tool, args, onProgress); }
      asked = await ask(o.socket, req, onProgress);
    }
    if (asked.kind === 'answer') {
      attach();
      return { ...asked.result, _meta: { 'simgrep/engine': { pid: asked.pid } } };
    }
    return local(asked.kind === 'declined' ? `it declined: ${asked.reason}` : 'it refused the connection', tool, args, onProgress);
  }

  /** Starts the engine (unless another front is starting it) and waits until it listens; why not, or null. */
  async function start(): Promise<string | null> {
    const lock = `${o.socket}.starting`;
    // The per-user directory, as the engine makes it (mode 700); whether it can be trusted is checked before connecting.
    try { mkdirSync(path.dirname(o.socket), { recursive: true, mode: 0o700 }); } catch (e) { return `its socket directory cannot be made: ${(e as Error).message}`; }
    let mine = false;
    try { closeSync(openSync(lock, 'wx', 0o600)); mine = true; } catch {
      // Another front is starting it; a lock left by one that died long ago is taken over.
      try { if (Date.now() - statSync(lock).mtimeMs > STARTING_MS) { rmSync(lock, { force: true }); closeSync(openSync(lock, 'wx', 0o600)); mine = true; } } catch { /* theirs */ }
    }
    let exited: string | null = null;
    try {
      if (mine) {
        const log = openSync(path.join(path.dirname(o.socket), `${path.basename(o.socket, '.sock')}.log`), 'w', 0o600);
        const child = spawn(o.engineCommand[0], o.engineCommand.slice(1), { detached: true, stdio: ['ignore', 'ignore', log], cwd: o.root, env: process.env });
        closeSync(log);
        child.once('exit', (code) => { exited = `the engine exited with code ${code} before listening; see ${path.basename(o.socket, '.sock')}.log beside its socket`; });
        child.once('error', (e) => { exited = `the engine could not start: ${e.message}`; });
        child.unref();
      }
      const deadline = performance.now() + startMs;
      while (performance.now() < deadline) {
        if (socketTrust(o.socket).kind === 'trusted' && await connects(o.socket)) return null;
        if (exited) return exited;
        await new Promise((r) => setTimeout(r, 50));
      }
      return `it did not listen within ${startMs / 1000} s`;
    } finally {
      if (mine) rmSync(lock, { force: true });
    }
  }

  /** Holds a connection to the engine while this front lives (the engine stops soon after the last one goes). */
  function attach(): void {
    if (attached && !attached.destroyed) return;
    const conn = createConnection(o.socket);
    conn.on('error', () => {});
    conn.once('connect', () => send(conn, { op: 'attach', identity: o.identity, root: o.root, pid: process.pid }));
    conn.once('close', () => { if (attached === conn) attached = null; });
    // It must not keep the front alive once its stdin is done.
    conn.unref();
    attached = conn;
  }

  return { call, close: () => { attached?.destroy(); attached = null; } };
}

/** Sends one tool request; the engine's answer, a decline, or 'refused' (nothing listens, or it died mid-call). */
function ask(socket: string, req: Request, onProgress?: (p: IndexProgress) => void): Promise<Asked> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (a: Asked) => { if (!settled) { settled = true; resolve(a); } };
    const conn = createConnection(socket);
    conn.once('connect', () => send(conn, req));
    readLines(conn, (line) => {
      let reply: Reply;
      try { reply = JSON.parse(line) as Reply; } catch { finish({ kind: 'declined', reason: 'it sent a line that is not JSON' }); conn.destroy(); return; }
      if (reply.type === 'progress') onProgress?.(reply.progress);
      else if (reply.type === 'done' && reply.tool) finish({ kind: 'answer', result: reply.tool, pid: reply.pid });
      else if (reply.type === 'decline') finish({ kind: 'declined', reason: reply.reason });
      else finish({ kind: 'declined', reason: 'it sent no tool result' });
    });
    conn.on('error', () => finish({ kind: 'refused' }));
    conn.on('close', () => finish({ kind: 'refused' }));
  });
}

function connects(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const c = createConnection(socket);
    c.once('connect', () => { c.destroy(); resolve(true); });
    c.once('error', () => resolve(false));
  });
}
