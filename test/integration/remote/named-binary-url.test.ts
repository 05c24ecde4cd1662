// A URL named on the command line that turns out to be binary is said on stderr, as a named local file
// is (docs/cli.md, "What a PATH can be"); before, it was skipped quietly (trial33), by a scan and by an
// index alike, so `simgrep QUERY https://host/file.bin` answered "no match" with no word why.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSearcher } from '../../../src/searcher.js';
import { createWorkspace, type Workspace } from '../../../src/workspace/workspace.js';
import { listenLocal } from '../../helpers/http-server.js';

const BINARY = Buffer.from('retry uploads\0\x01\x02 more bytes');
const tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-named-binary-'));
const searcher = createSearcher({ concurrency: 0 });
let server: Server;
let origin = '';
let ws: Workspace;

beforeAll(async () => {
  ({ server, origin } = await listenLocal((req, res) => {
    if (new URL(req.url!, 'http://x').pathname !== '/blob.bin') { res.statusCode = 404; res.end(); return; }
    res.setHeader('last-modified', new Date('2026-01-01').toUTCString());
    res.setHeader('content-length', BINARY.length);
    res.end(req.method === 'HEAD' ? undefined : BINARY);
  }));
  writeFileSync(path.join(tmp, 'blob.bin'), BINARY);
  ws = createWorkspace({ dir: path.join(tmp, 'ws'), concurrency: 0 });
});
afterAll(async () => {
  await ws?.close();
  await searcher.close();
  server?.close();
  rmSync(tmp, { recursive: true, force: true });
});

it('a binary URL named as a path is reported as a named local file is, from a scan and from an index', async () => {
  const url = `${origin}/blob.bin`;
  const local = await searcher.search({ query: 'retry uploads', paths: [path.join(tmp, 'blob.bin')] });
  expect(local.warnings.map((w) => w.code)).toEqual(['BINARY']);
  const scanned = await searcher.search({ query: 'retry uploads', paths: [url] });
  expect(scanned.results).toEqual([]);
  expect(scanned.warnings).toEqual([{ path: url, code: 'BINARY', message: `${url}: binary file (a NUL byte in its first 8 KiB), not searched` }]);
  await ws.index([url]);
  const indexed = await ws.search({ query: 'retry uploads', paths: [url] });
  expect(indexed.stats.index?.workspace).toBeDefined();
  expect(indexed.results).toEqual([]);
  expect(indexed.warnings).toEqual(scanned.warnings);
});
