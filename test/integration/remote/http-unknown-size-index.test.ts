// An https/http URL whose server sends no Last-Modified has no known identity: the index keeps it with a
// size of -1, and a search the index answers reads it again without that size (before: every such search
// lost the file with 'The value of "size" is out of range ... Received -1' and answered nothing).
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSearcher } from '../../../src/searcher.js';
import { createWorkspace, type Workspace } from '../../../src/workspace/workspace.js';
import { listenLocal } from '../../helpers/http-server.js';
import { rounded } from '../../helpers/rounded.js';

const files: Record<string, string> = {
  '/upload.ts': 'export function retryUpload() {\n  // retry the failed upload with backoff\n  return send();\n}\n',
  '/guide.md': '# Uploads\n\nA failed upload is retried with backoff.\n',
};
const tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-http-unknown-'));
const oneShot = createSearcher({ concurrency: 0 });
let server: Server;
let origin = '';
let ws: Workspace;

beforeAll(async () => {
  // A plain HTTP server with no Last-Modified header (dynamic content): the listing gives no identity.
  ({ server, origin } = await listenLocal((req, res) => {
    const body = files[new URL(req.url!, 'http://x').pathname];
    if (body === undefined) { res.statusCode = 404; res.end(); return; }
    res.setHeader('content-type', 'text/plain');
    res.end(req.method === 'HEAD' ? undefined : body);
  }));
  ws = createWorkspace({ dir: path.join(tmp, 'ws'), concurrency: 0 });
});
afterAll(async () => {
  await ws?.close();
  await oneShot.close();
  server?.close();
  rmSync(tmp, { recursive: true, force: true });
});

it('a URL without Last-Modified, indexed: the index answers as a scan does, with no error', async () => {
  const urls = Object.keys(files).map((p) => `${origin}${p}`);
  await ws.index(urls);
  for (const mode of ['hybrid', 'lexical'] as const) {
    for (const paths of [urls, [urls[0]], [urls[1]]]) {
      const o = { query: 'retry the failed upload', paths, topK: 5, mode };
      const indexed = await ws.search(o);
      expect(indexed.stats.index?.workspace, `${mode} ${paths.join(' ')}`).toBeDefined();
      expect(indexed.warnings).toEqual([]);
      expect(indexed.results.length).toBeGreaterThan(0);
      expect(rounded(indexed)).toEqual(rounded(await oneShot.search(o)));
    }
  }
});

// Before: the index kept such a URL's size as -1 and its search stats and status summed it: `--stats`
// said "-1 bytes" where a scan said 28, `workspace status` "(-0.0 MB)" (trial33). The index now keeps
// the bytes it read, and a read of the URL still takes no size from the index (it may have changed).
it('a URL without Last-Modified, indexed: stats and status count the bytes read, as a scan does', async () => {
  const urls = Object.keys(files).map((p) => `${origin}${p}`);
  await ws.index(urls);
  for (const paths of [urls, [urls[0]], [urls[1]]]) {
    const o = { query: 'retry the failed upload', paths, topK: 5 };
    const scanned = await oneShot.search(o);
    expect(scanned.stats.bytes).toBe(paths.reduce((n, u) => n + Buffer.byteLength(files[new URL(u).pathname]), 0));
    expect((await ws.search(o)).stats.bytes, paths.join(' ')).toBe(scanned.stats.bytes);
  }
  const total = Object.values(files).reduce((n, b) => n + Buffer.byteLength(b), 0);
  expect((await ws.status()).bytes).toBe(total);
  // The URL changes (longer): a search reads all of it, not the size the index kept, and so does its next index.
  const before = files['/guide.md'];
  files['/guide.md'] = before + 'A second paragraph: the upload queue keeps the failed uploads until retried.\n';
  try {
    for (const mode of ['hybrid', 'lexical', 'semantic'] as const) {
      const o = { query: 'upload queue keeps the failed uploads', paths: [urls[1]], topK: 5, mode };
      expect(rounded(await ws.search(o)), mode).toEqual(rounded(await oneShot.search(o)));
    }
    await ws.index(urls);
    const r = await ws.search({ query: 'upload queue keeps the failed uploads', paths: [urls[1]], topK: 5 });
    expect(r.warnings).toEqual([]);
    expect(r.stats.bytes).toBe(Buffer.byteLength(files['/guide.md']));
    expect(r.results.some((h) => h.lines.join('\n').includes('upload queue'))).toBe(true);
    expect((await ws.status()).bytes).toBe(total - Buffer.byteLength(before) + Buffer.byteLength(files['/guide.md']));
  } finally {
    files['/guide.md'] = before;
  }
});
