// The `simgrep mcp` front and a client that gives up: a request the client cancelled is passed on with its
// cancellation and never re-sent to a restarted engine; a client that went away has nothing re-sent at all
// (before, closing the engine's connection looked like an engine gone away: the front connected again and
// re-sent every call still unanswered, which the engine ran to its end for no one). A stand-in engine on a
// private socket records what each connection read.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { runFront } from '../../../src/mcp/front.js';
import { listenPrivately } from '../../../src/server/listen.js';
import { PROTOCOL } from '../../../src/server/protocol.js';

const dirs: string[] = [];
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

const call = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"search","arguments":{"query":"q${id}"}}}\n`;
const cancel = (id: number) => `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":${id},"reason":"gave up"}}\n`;
const tick = (ms = 10) => new Promise((r) => setTimeout(r, ms));

/** A front over a stand-in engine that answers nothing: the lines each connection read (after its header). */
async function standIn() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'simgrep-front-cancel-'));
  dirs.push(dir);
  const socket = path.join(dir, 'engine.sock');
  const conns: { conn: Socket; lines: string[] }[] = [];
  const server = createServer((conn) => {
    const seen = { conn, lines: [] as string[] };
    conns.push(seen);
    let buf = '';
    let head = true;
    conn.setEncoding('utf8');
    conn.on('error', () => {});
    conn.on('data', (chunk: string) => {
      buf += chunk;
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (head) { head = false; conn.write('{"type":"ready","pid":1}\n'); } else seen.lines.push(line);
      }
    });
  });
  await new Promise<void>((resolve) => listenPrivately(server, socket, resolve));
  const input = new PassThrough();
  const output = new PassThrough();
  output.resume();
  const front = runFront({
    root: dir, identity: { protocol: PROTOCOL, version: 'test', model: 'm', embedder: null }, socket,
    engineCommand: ['false'], local: () => Promise.reject(new Error('no local server in this test')), note: () => {},
  }, input, output);
  const until = async (ok: () => boolean) => { for (let i = 0; i < 300 && !ok(); i++) await tick(); };
  const close = async () => { for (const c of conns) c.conn.destroy(); await new Promise((r) => server.close(r)); };
  return { input, front, conns, until, close };
}

describe.skipIf(process.platform === 'win32')('simgrep mcp front: a client that gives up', () => {
  it('passes a cancellation on, and never re-sends the cancelled request to a restarted engine', async () => {
    const s = await standIn();
    s.input.write(call(7));
    s.input.write(call(8));
    await s.until(() => (s.conns[0]?.lines.length ?? 0) >= 2);
    s.input.write(cancel(7));
    await s.until(() => (s.conns[0]?.lines.length ?? 0) >= 3);
    expect(s.conns[0].lines.map((l) => JSON.parse(l).method)).toEqual(['tools/call', 'tools/call', 'notifications/cancelled']);
    // The engine goes away (killed, idle): the next message finds a new one, which gets what is unanswered.
    s.conns[0].conn.destroy();
    await tick(50);
    s.input.write(call(9));
    await s.until(() => (s.conns[1]?.lines.length ?? 0) >= 2);
    await tick(50);
    // Before: 7 too (its client had given up on it).
    expect(s.conns[1].lines.map((l) => JSON.parse(l).id)).toEqual([8, 9]);
    s.input.end();
    await s.front;
    await s.close();
  });

  it('a request cancelled before it was sent (the engine still being reached) is dropped with its cancellation', async () => {
    const s = await standIn();
    s.input.write(call(7) + call(8) + cancel(7));
    await s.until(() => (s.conns[0]?.lines.length ?? 0) >= 1);
    await tick(100);
    expect(s.conns[0].lines.map((l) => [JSON.parse(l).id, JSON.parse(l).method])).toEqual([[8, 'tools/call']]);
    s.input.end();
    await s.front;
    await s.close();
  });

  it('a client that went away: its calls are not re-sent (the front connects no more)', async () => {
    const s = await standIn();
    s.input.write(call(7));
    await s.until(() => (s.conns[0]?.lines.length ?? 0) >= 1);
    s.input.end();
    await s.front;
    await tick(200);
    // Before: a second connection, with call 7 on it again.
    expect(s.conns.map((c) => c.lines.map((l) => JSON.parse(l).id))).toEqual([[7]]);
    await s.close();
  });
});
