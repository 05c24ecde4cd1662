// Newline-delimited JSON-RPC over a pair of streams, as the SDK's StdioServerTransport, but a message
// over the size cap is dropped unread and answered with a JSON-RPC error (when its id can be found),
// and the transport keeps going (the SDK's closed itself, and `simgrep mcp` exited 0 without a word).
// Free of the SDK (how a line is parsed is the caller's), so the `simgrep mcp` front loads no zod.
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The SDK's cap on one message (STDIO_DEFAULT_MAX_BUFFER_SIZE). */
export const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** JSON-RPC's "Invalid Request": the message was not read. */
export const INVALID_REQUEST = -32600;
const EDGE_BYTES = 512;
const NEWLINE = Buffer.from('\n');

export interface LineTransportOptions {
  /** A line to a message (throws on a bad one, which goes to onerror); the SDK's checks it against the protocol's schema. */
  parse: (line: string) => JSONRPCMessage;
  /** The most bytes one message may have (default: the SDK's 10 MiB). */
  maxMessageBytes?: number;
  /** A note for the operator (stderr): a dropped message. */
  warn?: (message: string) => void;
}

/** A message as received: parsed, and the line it came as (no newline), for a pipe that passes it on unchanged. */
export type RawListener = (message: JSONRPCMessage, line: Buffer) => void;

/** An over-long line being skipped: its size so far and its first and last bytes (where an id may sit). */
interface Skipping { bytes: number; head: Buffer; tail: Buffer }

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Set instead of onmessage by a pipe (the `simgrep mcp` front): each message with its line, to forward as it came. */
  onraw?: RawListener;
  private readonly max: number;
  private chunks: Buffer[] = [];
  private size = 0;
  private skipping: Skipping | null = null;
  private closed = false;

  constructor(private readonly input: Readable, private readonly output: Writable, private readonly o: LineTransportOptions) {
    this.max = o.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  }

  async start(): Promise<void> {
    this.input.on('data', this.ondata);
    this.input.on('error', this.oninputError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.sendLine(JSON.stringify(message));
  }

  /** A message already encoded as one line of JSON (no newline): written as it is, not parsed and encoded again. */
  sendLine(line: string | Buffer): Promise<void> {
    return new Promise((resolve) => {
      const ok = typeof line === 'string' ? this.output.write(`${line}\n`) : this.output.write(Buffer.concat([line, NEWLINE]));
      if (ok) resolve();
      else this.output.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.ondata);
    this.input.off('error', this.oninputError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.chunks = [];
    this.skipping = null;
    this.onclose?.();
  }

  private readonly oninputError = (e: Error) => { this.onerror?.(e); };

  private readonly ondata = (chunk: Buffer | string) => {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let start = 0; start < buf.length;) {
      const nl = buf.indexOf(10, start);
      this.take(buf.subarray(start, nl === -1 ? buf.length : nl));
      if (nl === -1) return;
      this.endOfLine();
      start = nl + 1;
    }
  };

  /** Part of the current line: buffered while under the cap, else only its edges are kept. */
  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.skipping) {
      const s = this.skipping;
      s.bytes += piece.length;
      s.tail = Buffer.concat([s.tail, piece.subarray(-EDGE_BYTES)]).subarray(-EDGE_BYTES);
    } else if (this.size + piece.length > this.max) {
      const seen = Buffer.concat([...this.chunks, piece]);
      this.skipping = { bytes: seen.length, head: Buffer.from(seen.subarray(0, EDGE_BYTES)), tail: Buffer.from(seen.subarray(-EDGE_BYTES)) };
      this.chunks = [];
      this.size = 0;
    } else {
      this.chunks.push(piece);
      this.size += piece.length;
    }
  }

  private endOfLine(): void {
    if (this.skipping) {
      const s = this.skipping;
      this.skipping = null;
      this.oversized(s);
      return;
    }
    let bytes = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
    this.chunks = [];
    this.size = 0;
    if (bytes.length > 0 && bytes[bytes.length - 1] === 13) bytes = bytes.subarray(0, -1);
    const line = bytes.toString('utf8');
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try { message = this.o.parse(line); } catch (e) { this.onerror?.(e as Error); return; }
    if (this.onraw) this.onraw(message, bytes);
    else this.onmessage?.(message);
  }

  private oversized(s: Skipping): void {
    const id = requestIdOf(s.head.toString('utf8'), s.tail.toString('utf8'));
    const limit = this.max % 1048576 === 0 ? `${this.max / 1048576} MiB (${this.max} bytes)` : `${this.max} bytes`;
    this.o.warn?.(`a message of ${s.bytes} bytes is over the ${limit} limit and was dropped unread${id === undefined ? ' (no request id found: nothing to answer)' : `; answered request ${JSON.stringify(id)} with an error`}`);
    if (id === undefined) return;
    void this.send({ jsonrpc: '2.0', id, error: { code: INVALID_REQUEST, message: `message too large: ${s.bytes} bytes; simgrep mcp reads messages of at most ${limit}, so this one was dropped unread (send less, e.g. a shorter query)` } });
  }
}

/**
 * The id of a request whose body was not read, from its first or last bytes: clients write
 * {"jsonrpc":"2.0","id":N,"method":...} or {"method":...,"params":...,"jsonrpc":"2.0","id":N} (the
 * SDK's order). Without a "method" key it is a response or not JSON-RPC, and nothing is answered.
 */
export function requestIdOf(head: string, tail: string): string | number | undefined {
  const value = String.raw`(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")`;
  const found = new RegExp(String.raw`"id"\s*:\s*${value}\s*\}\s*$`).exec(tail)
    ?? new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${value}\s*,`).exec(head);
  const isRequest = /"method"\s*:\s*"/.test(head) || /"method"\s*:\s*"[^"]*"\s*\}\s*$/.test(tail);
  if (!found || !isRequest) return undefined;
  try { return JSON.parse(found[1]) as string | number; } catch { return undefined; }
}
