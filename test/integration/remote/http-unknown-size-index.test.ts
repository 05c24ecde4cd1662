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
