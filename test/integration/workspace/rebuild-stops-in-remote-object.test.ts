// A stopped rebuild of the ranking snapshot stops inside the remote object it is reading: a remote file's
// bytes were gathered whole (to check its hash) before the stop was looked at, so a big object on a slow
// store was read to its end first (trust45 fixed local files only; trust46). A real workspace (LanceDB)
// over one 10 MB object on a real HTTP server on 127.0.0.1, its snapshot lost; the server then sends the
// object slowly (256 KiB every 40 ms: 1.6 s in all), and a status whose signal is aborted 300 ms into that
// read must let the object go within a piece or so of the stop (the status gives up at once either way).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import type { Server, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createWorkspace } from '../../../src/workspace/workspace.js';
import { listenLocal } from '../../helpers/http-server.js';
import { writeTinyModel } from '../../helpers/tiny-model.js';

const PIECE = 256 << 10;
const lines: string[] = [];
for (let i = 0; lines.length * 48 < 10 << 20; i++) lines.push(`export const upload${i} = retry(${i}); // retry it`);
const BODY = Buffer.from(`${lines.join('\n')}\n`);
const MODIFIED = new Date('2026-11-30T12:00:00Z').toUTCString();
let tmp = '';
let wsDir = '';
let model = '';
let server: Server;
let origin = '';
let slow = false;
/** Sends the first piece, then nothing more (a store that stalls mid-object). */
let stall = false;
/** The slow read: bytes sent, and when the client went away (null: it read to the end). */
const read = { sent: 0, started: 0, goneAt: null as number | null };

function send(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(BODY.length), 'last-modified': MODIFIED });
  if (!slow) { res.end(BODY); return; }
  read.sent = 0;
  read.started = performance.now();
  read.goneAt = null;
  res.on('close', () => { if (read.sent < BODY.length) read.goneAt = performance.now(); });
  const pump = () => {
    if (res.destroyed) return;
    const piece = BODY.subarray(read.sent, read.sent + PIECE);
    read.sent += piece.length;
    if (read.sent >= BODY.length) { res.end(piece); return; }
    res.write(piece);
    if (!stall) setTimeout(pump, 40);
  };
  pump();
}

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-rebuild-remote-'));
  model = await writeTinyModel(path.join(tmp, 'model'));
  ({ server, origin } = await listenLocal((req, res) => {
    if (new URL(req.url!, 'http://x').pathname !== '/big.ts') { res.writeHead(404).end(); return; }
    if (req.method === 'HEAD') { res.writeHead(200, { 'content-length': String(BODY.length), 'last-modified': MODIFIED }).end(); return; }
    send(res);
  }));
  wsDir = path.join(tmp, 'ws');
  const w = createWorkspace({ dir: wsDir, model, concurrency: 0 });
  await w.index([`${origin}/big.ts`]);
  await w.close();
  for (const f of readdirSync(wsDir)) if (/^snapshot\b(?!\.prose)/.test(f)) rmSync(path.join(wsDir, f));
}, 180_000);
afterAll(() => {
  server?.closeAllConnections();
  server?.close();
  rmSync(tmp, { recursive: true, force: true });
});

it('a rebuild stopped while it reads a big remote object stops within that object', async () => {
  const ws = createWorkspace({ dir: wsDir, model, concurrency: 0, resident: true });
  slow = true;
  try {
    const stop = new AbortController();
    const timer = setInterval(() => { if (read.started && performance.now() - read.started > 300) stop.abort(); }, 10);
    const status = ws.status({ signal: stop.signal });
    await expect(status).rejects.toMatchObject({ code: 'ABORTED' }); // the status gives up at once; the rebuild goes on to its next check
    clearInterval(timer);
    // Wait for the read to end: the rebuild lets the object go, or the server sends its last byte.
    for (const until = performance.now() + 10_000; read.goneAt === null && read.sent < BODY.length && performance.now() < until;) await new Promise((r) => setTimeout(r, 20));
    // Before: the whole object (41 pieces, 1.6 s) was read, then the stop seen. Now the read ends at the
    // next 1 MiB piece at most after the stop (4 pieces: 160 ms); the bound is half the object.
    expect(read.sent, `${read.sent} of ${BODY.length} bytes sent`).toBeLessThan(BODY.length / 2);
    expect(read.goneAt).not.toBeNull();
  } finally {
    slow = false;
    await ws.close();
  }
}, 120_000);

// mend46b. The stop was looked at only between pieces: a store that stalls after its first piece held the
// rebuild's read until the remote timeout (30 s), the stop unseen. The stream now gets a signal of its own,
// aborted once the stop is seen.
it('a rebuild stopped while a remote object stalls lets the object go, without waiting for the remote timeout', async () => {
  const ws = createWorkspace({ dir: wsDir, model, concurrency: 0, resident: true });
  slow = true;
  stall = true;
  Object.assign(read, { sent: 0, started: 0, goneAt: null });
  try {
    const stop = new AbortController();
    let stoppedAt = 0;
    const timer = setInterval(() => { if (read.started && performance.now() - read.started > 300 && !stoppedAt) { stoppedAt = performance.now(); stop.abort(); } }, 10);
    await expect(ws.status({ signal: stop.signal })).rejects.toMatchObject({ code: 'ABORTED' });
    for (const until = performance.now() + 10_000; read.goneAt === null && performance.now() < until;) await new Promise((r) => setTimeout(r, 20));
    clearInterval(timer);
    expect(read.sent).toBe(PIECE); // the first piece, then the stall
    expect(read.goneAt, 'the object was let go').not.toBeNull();
    expect(read.goneAt! - stoppedAt).toBeLessThan(2_000);
  } finally {
    slow = false;
    stall = false;
    await ws.close();
  }
}, 120_000);
