// A fake Hugging Face hub on 127.0.0.1: /{repo}/resolve/{rev}/{file} answers like huggingface.co
// (x-repo-commit, x-error-code, LFS files redirected to a separate "CDN" origin), with hooks to fail,
// truncate or stall a file (before or midway through its body). Records every request so tests can
// count them.
import http from 'node:http';
import { listenLocal } from '../../helpers/http-server.js';

export interface FakeRepo {
  commit: string;
  files: Record<string, Uint8Array | string>;
}

export interface RecordedRequest {
  server: 'hub' | 'cdn';
  path: string;
  authorization: string | undefined;
}

export interface FakeHub {
  endpoint: string;
  requests: RecordedRequest[];
  /** Requests to the hub for one repo file (any revision). */
  count(file: string): number;
  /** Answer this file with a status instead (and optional x-error-code). */
  fail: Map<string, { status: number; errorCode?: string }>;
  /** Send the full Content-Length but only half the body, then drop the connection. */
  truncate: Set<string>;
  /** Send headers, then nothing. */
  stall: Set<string>;
  /** Send headers and half the body, then nothing (a download in progress, to interrupt). */
  stallMidway: Set<string>;
  close(): Promise<void>;
}

/** Files served through the CDN redirect, as the hub does for LFS files. */
const LFS = /\.safetensors$/;


export async function startFakeHub(repos: Record<string, FakeRepo>): Promise<FakeHub> {
  const requests: RecordedRequest[] = [];
  const fail = new Map<string, { status: number; errorCode?: string }>();
  const truncate = new Set<string>();
  const stall = new Set<string>();
  const stallMidway = new Set<string>();
  const sockets = new Set<import('node:net').Socket>();

  function send(res: http.ServerResponse, file: string, body: Uint8Array, headers: Record<string, string>): void {
    res.writeHead(200, { ...headers, 'content-length': String(body.byteLength), 'content-type': 'application/octet-stream' });
    if (stall.has(file)) return;
    if (stallMidway.has(file)) return void res.write(body.subarray(0, Math.floor(body.byteLength / 2)));
    if (truncate.has(file)) {
      res.write(body.subarray(0, Math.floor(body.byteLength / 2)), () => res.destroy());
      return;
    }
    res.end(body);
  }

  const cdn = await listenLocal((req, res) => {
    const url = req.url ?? '';
    requests.push({ server: 'cdn', path: url, authorization: req.headers.authorization });
    const [, repoKey, file] = /^\/cdn\/([^/]+)\/(.+?)(\?.*)?$/.exec(url) ?? [];
    const repo = repos[decodeURIComponent(repoKey ?? '')];
    const body = repo?.files[file ?? ''];
    if (body === undefined) return void res.writeHead(404).end();
    send(res, file, typeof body === 'string' ? Buffer.from(body) : body, {});
  });

  const hub = await listenLocal((req, res) => {
    const url = req.url ?? '';
    requests.push({ server: 'hub', path: url, authorization: req.headers.authorization });
    const m = /^\/([^/]+\/[^/]+)\/resolve\/([^/]+)\/(.+)$/.exec(url);
    const repo = m ? repos[m[1]] : undefined;
    if (!m || !repo) return void res.writeHead(401, { 'x-error-code': 'RepositoryNotFound' }).end('Repository not found');
    const revision = decodeURIComponent(m[2]);
    const file = m[3].split('/').map(decodeURIComponent).join('/');
    if (revision !== 'main' && revision !== repo.commit) {
      return void res.writeHead(404, { 'x-error-code': 'RevisionNotFound' }).end();
    }
    const commitHeader = { 'x-repo-commit': repo.commit };
    const failure = fail.get(file);
    if (failure) {
      const headers: Record<string, string> = { ...commitHeader, ...(failure.errorCode && { 'x-error-code': failure.errorCode }) };
      return void res.writeHead(failure.status, headers).end('error');
    }
    const body = repo.files[file];
    if (body === undefined) return void res.writeHead(404, { ...commitHeader, 'x-error-code': 'EntryNotFound' }).end();
    if (LFS.test(file)) {
      const location = `${cdn.origin}/cdn/${encodeURIComponent(m[1])}/${file}?X-Amz-Signature=secret-signature`;
      return void res.writeHead(302, { ...commitHeader, location }).end();
    }
    send(res, file, typeof body === 'string' ? Buffer.from(body) : body, commitHeader);
  });

  for (const s of [hub.server, cdn.server]) s.on('connection', (sock) => { sockets.add(sock); sock.on('close', () => sockets.delete(sock)); });

  return {
    endpoint: hub.origin,
    requests,
    fail,
    truncate,
    stall,
    stallMidway,
    count: (file) => requests.filter((r) => r.server === 'hub' && r.path.endsWith(`/${file}`)).length,
    async close() {
      for (const s of sockets) s.destroy();
      await Promise.all([hub.server, cdn.server].map((s) => new Promise((resolve) => s.close(resolve))));
    },
  };
}
