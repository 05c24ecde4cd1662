// The `simgrep mcp` front: a pipe between the agent's stdio and the resident engine of its root
// (engine.ts), which runs the MCP server itself. The front parses only enough JSON-RPC to keep the
// session whole: it remembers the client's `initialize` and its requests still unanswered, so when the
// engine goes away (idle, killed) the next message starts or finds another engine, replays the
// handshake (its answer dropped) and re-sends what was unanswered. Where no engine can be reached it
// answers in this process instead (`local`), said once on stderr. It loads no MCP SDK, zod or model:
// its memory stays near a bare Node process.
import { createConnection, type Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { readLines, type Identity, type Reply } from '../server/protocol.js';
import { socketTrust } from '../server/socket-trust.js';
import { startEngine } from './engine-start.js';
import { LineTransport } from './line-transport.js';

/** Where the front's messages go: the engine's socket, or the in-process server. */
export interface Upstream {
  /** `line`: the message as the client wrote it (one line of JSON), for an upstream that writes it on unchanged. */
  send(message: JSONRPCMessage, line?: Buffer): void;
  /** Set by the front: each message the server sends (with its line of JSON when it came as one). */
  onmessage?: (message: JSONRPCMessage, line?: string) => void;
  /** Set by the front: the upstream is gone (an engine that stopped or died). */
  onclose?: () => void;
  close(): void;
}

export interface FrontOptions {
  root: string;
  identity: Identity;
  socket: string;
  /** [executable, ...args] that starts the engine. */
  engineCommand: string[];
  /** The in-process server, made on first need (it loads the SDK and, on the first search, the model). */
  local: () => Promise<Upstream>;
  note: (message: string) => void;
  startMs?: number;
  /**
   * A start of the engine already under way (engine-start.ts's answer to come), begun before this front
   * was made: the first connect that finds no engine waits on it instead of starting its own.
   */
  started?: Promise<string | null>;
}

type Id = string | number;
type Msg = JSONRPCMessage & { id?: Id; method?: string };
/** A client's message and the line it came as: passed on as it came, not encoded again. */
interface Sent { msg: Msg; line: Buffer }

/** Pipes `input` to the engine and its answers to `output` until `input` ends. */
export async function runFront(o: FrontOptions, input: Readable, output: Writable): Promise<void> {
  let upstream: Upstream | null = null;
  let connecting: Promise<void> | null = null;
  let local = false;
  let init: Sent | null = null;
  let initialized: Sent | null = null;
  /** The client's requests not answered yet, in the order sent. */
  const pending = new Map<Id, Sent>();
  /** Messages not yet sent to the current upstream. */
  let queue: Sent[] = [];
  /** The id of a replayed `initialize`, whose answer the client must not see twice. */
  let swallow: Id | null = null;
  /** The client went away (its input ended): nothing is sent upstream any more. */
  let gone = false;

  // A line that is JSON but not an object (`null`, `3`, `"x"`) is no message: dropped with a note, as a line
  // that is not JSON is, not read as one.
  const parse = (line: string): JSONRPCMessage => {
    const m: unknown = JSON.parse(line);
    if (m === null || typeof m !== 'object') throw new Error(`a line that is not a JSON-RPC message (a JSON object) was dropped: ${line.slice(0, 80)}`);
    return m as JSONRPCMessage;
  };
  const stdio = new LineTransport(input, output, { parse, warn: o.note });
  stdio.onerror = (e) => o.note(e.message);

  // The engine's line is its JSON.stringify of the message, so writing it as it came is what encoding the
  // parsed message again would write, byte for byte, without the second encoding.
  const toClient = (m: JSONRPCMessage, line?: string) => {
    const msg = m as Msg;
    if (msg.id !== undefined && msg.method === undefined) {
      if (swallow !== null && msg.id === swallow) { swallow = null; return; }
      pending.delete(msg.id);
    }
    void (line === undefined ? stdio.send(m) : stdio.sendLine(line));
  };

  /** A new upstream: the handshake again (when it happened before), then what was left unanswered. */
  function adopt(up: Upstream): void {
    upstream = up;
    up.onmessage = toClient;
    up.onclose = () => {
      if (upstream !== up) return;
      upstream = null;
      if (pending.size > 0 && !gone) pump();
    };
    const unsent = new Set(queue);
    const replay: Sent[] = [];
    if (init && !pending.has(init.msg.id!)) { replay.push(init); swallow = init.msg.id!; if (initialized) replay.push(initialized); }
    for (const m of pending.values()) if (!unsent.has(m)) replay.push(m);
    queue = [...replay, ...queue];
  }

  function pump(): void {
    if (gone) return;
    if (upstream) {
      const up = upstream;
      for (const m of queue.splice(0)) up.send(m.msg, m.line);
      return;
    }
    connecting ??= (async () => {
      const why = local ? null : await connectEngine().then((up) => { adopt(up); return null; }, (e: Error) => e.message);
      if (why !== null || local) {
        if (!local) o.note(`the resident engine could not be reached (${why}); answering in this process (--no-server does so from the start)`);
        local = true;
        adopt(await o.local());
      }
    })().finally(() => { connecting = null; pump(); });
  }

  let started = o.started;
  async function connectEngine(): Promise<Upstream> {
    const early = started;
    started = undefined;
    const trust = socketTrust(o.socket);
    if (trust.kind === 'untrusted') throw new Error(trust.why);
    let up = trust.kind === 'trusted' ? await openSession(o) : null;
    // The early start (mcp-early.ts) stands for this call's start: failed (it did not listen in time, it
    // exited, it threw), the front answers in its own process, as when a start here fails (starting again would
    // run a second engine beside one still coming up, and wait twice: mend34's review). Only an engine that
    // listened and has stopped since (orphaned, --idle-timeout, killed) is started again.
    if (!up && early) {
      const why = await early;
      if (why !== null) throw new Error(why);
      up = await openSession(o);
    }
    if (!up) {
      const why = await startEngine({ socket: o.socket, command: o.engineCommand, cwd: o.root, waitMs: o.startMs ?? 20_000 });
      if (why) throw new Error(why);
      up = await openSession(o);
      if (!up) throw new Error('it refused the session');
    }
    return up;
  }

  stdio.onraw = (m, line) => {
    const msg = m as Msg;
    const sent: Sent = { msg, line };
    // Kept for the whole session (replayed to a restarted engine): a copy, not a view that would hold the
    // client's whole read chunk alive.
    if (msg.method === 'initialize' && msg.id !== undefined) init = { msg, line: Buffer.from(line) };
    else if (msg.method === 'notifications/initialized') initialized = { msg, line: Buffer.from(line) };
    if (msg.id !== undefined && msg.method !== undefined) pending.set(msg.id, sent);
    if (msg.method === 'notifications/cancelled' && cancelled(msg)) return;
    queue.push(sent);
    pump();
  };

  /**
   * The client gave up a request: it is answered by no one and never re-sent to a restarted engine. One not
   * sent yet is dropped here with its cancellation (true); one sent is cancelled upstream, which stops its run.
   */
  function cancelled(msg: Msg): boolean {
    const id = (msg as { params?: { requestId?: Id } }).params?.requestId;
    const req = id === undefined ? undefined : pending.get(id);
    if (!req) return false;
    pending.delete(id!);
    const at = queue.indexOf(req);
    if (at < 0) return false;
    queue.splice(at, 1);
    return true;
  }
  const ended = new Promise<void>((resolve) => { input.once('end', resolve); input.once('close', resolve); });
  await stdio.start();
  await ended;
  // The client went away: its calls in flight are cancelled (the engine aborts a session's calls when it
  // closes), and nothing is re-sent. Before, closing the upstream looked like an engine gone away: the
  // front connected again and re-sent the calls no one waited for, each run to its end.
  gone = true;
  pending.clear();
  queue = [];
  (upstream as Upstream | null)?.close();
}

const NEWLINE = Buffer.from('\n');

/** A session with the engine on its socket, once it says ready; null when it refused or declined. */
function openSession(o: FrontOptions): Promise<Upstream | null> {
  return new Promise((resolve) => {
    const conn: Socket = createConnection(o.socket);
    let ready = false;
    let up: Upstream | null = null;
    conn.on('error', () => {});
    conn.once('connect', () => conn.write(`${JSON.stringify({ op: 'mcp', identity: o.identity, root: o.root, pid: process.pid })}\n`));
    conn.once('close', () => { if (!ready) resolve(null); else up?.onclose?.(); });
    readLines(conn, (line) => {
      let msg: unknown;
      try { msg = JSON.parse(line); } catch { return; }
      if (!ready) {
        const reply = msg as Reply;
        if (reply.type !== 'ready') { conn.destroy(); resolve(null); return; }
        ready = true;
        up = {
          // The client's line as it came (the engine parses it as the front did), not parsed and encoded again.
          send: (m, raw) => { conn.write(raw ? Buffer.concat([raw, NEWLINE]) : `${JSON.stringify(m)}\n`); },
          close: () => conn.destroy(),
        };
        resolve(up);
        return;
      }
      up!.onmessage?.(msg as JSONRPCMessage, line);
    });
  });
}
