// The `simgrep mcp` front passes each line on as it came, both ways: the client's request reaches the
// engine byte for byte (not parsed and encoded again; the engine parses it as the front did), and the
// engine's answer reaches the client byte for byte. A stand-in engine on a private socket records what
// it reads.
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

describe.skipIf(process.platform === 'win32')('simgrep mcp front: lines pass as they came', () => {
  /** A front over a stand-in engine that answers request 7 with `answer`; what the engine read and the client got. */
  async function frontOver(answer: string, lines: string[]): Promise<{ got: string; out: string; notes: string[] }> {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'simgrep-front-'));
    dirs.push(dir);
    const socket = path.join(dir, 'engine.sock');
    let got = '';
    const conns: Socket[] = [];
    const server = createServer((conn) => {
      conns.push(conn);
      let head = true;
      conn.setEncoding('utf8');
      conn.on('data', (chunk: string) => {
        got += chunk;
        if (head && got.includes('\n')) { head = false; got = got.slice(got.indexOf('\n') + 1); conn.write('{"type":"ready","pid":1}\n'); }
        if (!head && got.includes('"id" : 7')) conn.write(`${answer}\n`);
      });
    });
    await new Promise<void>((resolve) => listenPrivately(server, socket, resolve));
    const input = new PassThrough();
    const output = new PassThrough();
    let out = '';
    const notes: string[] = [];
    output.setEncoding('utf8');
    output.on('data', (c: string) => { out += c; });
    const front = runFront({
      root: dir, identity: { protocol: PROTOCOL, version: 'test', model: 'm', embedder: null }, socket,
      engineCommand: ['false'], local: () => Promise.reject(new Error('no local server in this test')), note: (n) => notes.push(n),
    }, input, output);
    for (const l of lines) input.write(l);
    for (let i = 0; i < 200 && !out.includes('\n'); i++) await new Promise((r) => setTimeout(r, 10));
    input.end();
    await front;
    for (const c of conns) c.destroy();
    await new Promise((r) => server.close(r));
    return { got, out, notes };
  }

  // Spacing, key order and escapes as a client may write them: the engine must see exactly these bytes.
  const request = '{ "jsonrpc" : "2.0", "method":"tools/call", "params": {"name":"search", "arguments":{"query":"caf\\u00e9  \\"x\\"", "k":1.0}}, "id" : 7 }';
  const answer = '{"result":{"content":[{"type":"text","text":"caf\\u00e9 \\ud800 \\u2028"}]},"jsonrpc":"2.0","id":7}';

  it('forwards a request\'s bytes to the engine and the engine\'s answer to the client unchanged', async () => {
    const { got, out } = await frontOver(answer, [`${request}\r\n`]);
    expect(got).toBe(`${request}\n`);
    expect(out).toBe(`${answer}\n`);
  });

  it('drops a line that is JSON but no message (null, a number, a string) with a note, and goes on', async () => {
    const { got, out, notes } = await frontOver(answer, ['null\n', '3\n', '"x"\n', `${request}\n`]);
    expect(got).toBe(`${request}\n`);
    expect(out).toBe(`${answer}\n`);
    expect(notes.filter((n) => n.includes('not a JSON-RPC message'))).toHaveLength(3);
  });
});
