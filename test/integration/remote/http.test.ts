// http(s):// files from a real node http server on 127.0.0.1: plain, redirected, retried after a
// 503, resumed after a reset mid-body; and the faults (404, 403, a server that never answers, one
// that stalls mid-body, a connection reset), each a clear per-source error while the rest is searched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from 'node:http';
import { runCli } from '../../helpers/cli.js';
import { MIRROR, remoteFixture, type RemoteFixture } from '../../helpers/remote-fixture.js';
import { makeTree } from '../../helpers/tree.js';
import { listenLocal } from '../../helpers/http-server.js';

const NOTES = '# Notes\nthe database index query is slow\n';
const LONG = Array.from({ length: 4000 }, (_, i) => `lorem ipsum line ${i}`).concat('render the button with a color').join('\n') + '\n';

let server: Server;
let base = '';
let fx: RemoteFixture;
let local: { dir: string; cleanup: () => Promise<void> };
const hits = new Map<string, number>();

beforeAll(async () => {
  [fx, local] = await Promise.all([remoteFixture(), makeTree(MIRROR)]);
  ({ server, origin: base } = await listenLocal((req, res) => {
    const url = new URL(req.url!, 'http://x');
    const n = (hits.get(url.pathname) ?? 0) + 1;
    hits.set(url.pathname, n);
    switch (url.pathname) {
      case '/notes.md': res.writeHead(200, { 'content-length': Buffer.byteLength(NOTES) }).end(req.method === 'HEAD' ? undefined : NOTES); break;
      case '/moved.md': res.writeHead(302, { location: '/notes.md' }).end(); break;
      case '/busy.md': if (n === 1) res.writeHead(503).end('busy'); else res.end(NOTES); break;
      case '/flaky.md': {
        // First try: half the body, then a reset. A resume asks for the rest with a Range header.
        const body = Buffer.from(LONG);
        const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
        if (range) {
          const from = Number(range[1]);
          res.writeHead(206, { 'content-range': `bytes ${from}-${body.length - 1}/${body.length}`, 'content-length': body.length - from, etag: '"v1"' }).end(body.subarray(from));
        } else {
          res.writeHead(200, { 'content-length': body.length, etag: '"v1"' });
          res.write(body.subarray(0, body.length >> 1), () => setTimeout(() => req.socket.destroy(), 20));
        }
        break;
      }
      case '/missing.md': res.writeHead(404).end('nope'); break;
      case '/denied.md': res.writeHead(403).end('no'); break;
      case '/never.md': break; // never answers
      case '/stall.md': if (!req.headers.range) { res.writeHead(200, { 'content-length': 1000 }); res.write('lorem ipsum\n'); } break;
      case '/reset.md': req.socket.destroy(); break;
      default: res.writeHead(404).end();
    }
  }));
});
afterAll(async () => {
  server.closeAllConnections();
  await Promise.all([new Promise((r) => server.close(r)), fx?.cleanup(), local?.cleanup()]);
});

const cli = (args: string[]) => runCli([...args, '--model', fx.model, '--mode', 'line', '--jsonl', '-n', '0'], {
  cwd: local.dir, env: { HOME: fx.home, SIMGREP_REMOTE_TIMEOUT_MS: '500', SIMGREP_REMOTE_RETRIES: '1' },
});
const filenames = (stdout: string) => stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l).filename as string).sort();

describe('http(s):// files', () => {
  it('reads a file, follows a redirect, retries a 503 and resumes a reset mid-body with a Range request', async () => {
    const r = await cli(['database index query render the button', `${base}/notes.md`, `${base}/moved.md`, `${base}/busy.md`, `${base}/flaky.md`, 'db', '--top-k', '20', '-m', '0.6']);
    expect(r.stderr).toBe('');
    expect(new Set(filenames(r.stdout))).toEqual(new Set(['db/schema.sql', `${base}/notes.md`, `${base}/moved.md`, `${base}/busy.md`, `${base}/flaky.md`]));
    const flaky = r.stdout.trim().split('\n').map((l) => JSON.parse(l)).find((x) => x.filename === `${base}/flaky.md`);
    expect([flaky.match_line, flaky.content]).toEqual([4001, 'render the button with a color']);
    expect([hits.get('/busy.md'), hits.get('/flaky.md')]).toEqual([2, 2]);
    expect(r.code).toBe(0);
  });

  it('reports 404, 403, no answer, a stall mid-body and a reset, one line each; searches the rest; exits 2', async () => {
    const started = Date.now();
    const r = await cli(['retry failed upload', `${base}/missing.md`, `${base}/denied.md`, `${base}/never.md`, `${base}/stall.md`, `${base}/reset.md`, 'src', '--top-k', '1']);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(r.stderr.trim().split('\n').sort()).toEqual([
      `simgrep: ${base}/denied.md: access denied (HTTP 403); simgrep sends no credentials to http(s) URLs: use a signed URL, or download the file and search it locally`,
      `simgrep: ${base}/missing.md: not found (HTTP 404); check the URL`,
      `simgrep: ${base}/never.md: ${base} did not answer within 500 ms (2 attempts); the server is slow or down: check it, or raise SIMGREP_REMOTE_TIMEOUT_MS`,
      `simgrep: ${base}/reset.md: the connection to ${base} was closed by the server (ECONNRESET, 2 attempts); check the server's health`,
      `simgrep: ${base}/stall.md: ${base} did not answer within 500 ms (2 attempts); the server is slow or down: check it, or raise SIMGREP_REMOTE_TIMEOUT_MS`,
    ]);
    expect(filenames(r.stdout)).toEqual(['src/net.ts']);
    expect(r.code).toBe(2);
  });

  it('skips a file over --max-filesize (sized with HEAD) without an error', async () => {
    const r = await cli(['database', `${base}/notes.md`, '--max-filesize', '10']);
    expect(r.stderr).toBe(`simgrep: skipped ${base}/notes.md: ${NOTES.length} bytes is over --max-filesize 10\n`);
    expect(r.code).toBe(1);
  });

  it('never prints a secret from a signed URL', async () => {
    const r = await cli(['database index query', `${base}/notes.md?X-Amz-Signature=topsecret1&v=2`, `${base}/missing.md?sig=topsecret2`]);
    expect(filenames(r.stdout)).toEqual([`${base}/notes.md?X-Amz-Signature=***&v=2`]);
    expect(r.stderr).toBe(`simgrep: ${base}/missing.md?sig=***: not found (HTTP 404); check the URL\n`);
    expect(r.stdout + r.stderr).not.toMatch(/topsecret/);
  });
});
