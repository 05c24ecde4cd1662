// The engine start that `simgrep mcp` begins before loading the CLI (mcp-early.ts) stands for the
// front's start: when it failed (it did not listen in time), the front answers in its own process with a
// note, and spawns no second engine beside the one still coming up (mend34's review: it spawned again and
// the client's handshake waited twice as long).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, expect, it } from 'vitest';
import { runFront, type Upstream } from '../../../src/mcp/front.js';
import { PROTOCOL } from '../../../src/server/protocol.js';

const dirs: string[] = [];
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

it.skipIf(process.platform === 'win32')('a failed early start is the front\'s answer: a note, no second engine spawned', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'simgrep-front-early-'));
  dirs.push(dir);
  const spawned = path.join(dir, 'spawned');
  const input = new PassThrough();
  const output = new PassThrough();
  const notes: string[] = [];
  let local = 0;
  const front = runFront({
    root: dir, identity: { protocol: PROTOCOL, version: 'test', model: 'm', embedder: null }, socket: path.join(dir, 'engine.sock'),
    // An engine start here would leave this file behind.
    engineCommand: [process.execPath, '-e', `require('node:fs').writeFileSync(${JSON.stringify(spawned)}, 'x')`],
    // The in-process server: a stand-in that answers each request.
    local: () => {
      local++;
      const up: Upstream = {
        send: (m) => { const id = (m as { id?: number }).id; if (id !== undefined) queueMicrotask(() => up.onmessage?.({ jsonrpc: '2.0', id, result: {} })); },
        close: () => {},
      };
      return Promise.resolve(up);
    },
    note: (n) => notes.push(n), startMs: 1000,
    started: Promise.resolve('it did not listen within 1 s'),
  }, input, output);
  input.write('{"jsonrpc":"2.0","method":"initialize","params":{},"id":1}\n');
  let out = '';
  output.setEncoding('utf8');
  output.on('data', (c: string) => { out += c; });
  for (let i = 0; i < 300 && !out.includes('\n'); i++) await new Promise((r) => setTimeout(r, 10));
  input.end();
  await front;
  expect(JSON.parse(out.split('\n')[0])).toMatchObject({ id: 1, result: {} });
  await new Promise((r) => setTimeout(r, 300));
  expect(local).toBe(1);
  expect(notes.join(' ')).toContain('it did not listen within 1 s');
  expect(existsSync(spawned)).toBe(false);
});
