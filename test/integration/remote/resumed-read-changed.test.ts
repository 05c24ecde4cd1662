// Regression (#28, item 5): a resumed S3 / https read spliced two versions of one object. The first
// GET is cut mid-body by a proxy; before the resume (Range + If-Match) reaches the store, the object is
// replaced by a new version of the same size. s3rver (and the plain file server below) ignore If-Match
// and answered the resume with the new version's tail: the first lines of version 1 and the rest of
// version 2, exit 0, no message. Now a reply of another version (its ETag, or a 412) is never spliced:
// an object none of which was handed on yet is read again from its start (the new version, whole); a
// streamed one whose first bytes were already searched is reported as changed (exit 2), and the other
// objects are still searched. Real s3rver, a real HTTP server on loopback, the real CLI.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { listenLocal } from '../../helpers/http-server.js';
import { remoteFixture, type RemoteFixture } from '../../helpers/remote-fixture.js';
import { putObject, startS3rver, type S3Server } from '../../helpers/s3-server.js';
import { startProxy } from '../../helpers/tcp-proxy.js';

const NEEDLE = 'we retry the failed upload after a network timeout\n';
const QUERY = 'retry failed upload network timeout';

/** `fillerBytes` of `width`-byte lines naming the version, then the needle: the needle's line differs by version. */
function version(label: string, width: number, fillerBytes: number): Buffer {
  const lines: string[] = [];
  for (let i = 0; i < fillerBytes / width; i++) lines.push(`${label} filler line ${String(i).padStart(8, '0')}`.padEnd(width - 1, '.') + '\n');
  return Buffer.from(lines.join('') + NEEDLE);
}

/** An object read whole (2 MB: nothing is handed on before the cut) and one streamed (12 MB: cut after 5 MB were searched). */
const SIZES = {
  whole: { fillerBytes: 2_000_000, cutAfter: 1_000_000 },
  streamed: { fillerBytes: 12_000_000, cutAfter: 5_000_000 },
} as const;
// Widths 50 and 40: the same size in bytes, the needle on line 40,001 of version 1 and 50,001 of version 2 (whole).
const versions = (kind: keyof typeof SIZES) => ({ v1: version('alpha', 50, SIZES[kind].fillerBytes), v2: version('beta', 40, SIZES[kind].fillerBytes) });

let fx: RemoteFixture;
let s3: S3Server;
let files: { server: Server; origin: string; dir: string };
/** Whether the file server answers a stale If-Match with 412 (as nginx does) or ignores it (as s3rver does). */
let honourIfMatch = false;

/** A plain static file server: ETag (a content hash), Last-Modified, Range; If-Match only when honourIfMatch. */
async function fileServer(dir: string): Promise<{ server: Server; origin: string; dir: string }> {
  const { server, origin } = await listenLocal((req, res) => {
    const file = path.join(dir, decodeURIComponent(new URL(req.url!, 'http://x').pathname));
    let body: Buffer;
    try { body = readFileSync(file); } catch { res.writeHead(404).end(); return; }
    const etag = `"${createHash('sha1').update(body).digest('hex').slice(0, 16)}"`;
    const head = { etag, 'last-modified': statSync(file).mtime.toUTCString(), 'accept-ranges': 'bytes' };
    if (honourIfMatch && req.headers['if-match'] && req.headers['if-match'] !== etag) { res.writeHead(412).end(); return; }
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    if (range) {
      const from = Number(range[1]);
      res.writeHead(206, { ...head, 'content-range': `bytes ${from}-${body.length - 1}/${body.length}`, 'content-length': body.length - from });
      res.end(req.method === 'HEAD' ? undefined : body.subarray(from));
    } else {
      res.writeHead(200, { ...head, 'content-length': body.length });
      res.end(req.method === 'HEAD' ? undefined : body);
    }
  });
  return { server, origin, dir };
}

beforeAll(async () => {
  [fx, s3] = await Promise.all([remoteFixture(), startS3rver({ buckets: ['live'] })]);
  const dir = path.join(fx.home, 'www');
  mkdirSync(dir);
  files = await fileServer(dir);
}, 60_000);
afterAll(async () => {
  files?.server.closeAllConnections();
  await Promise.all([s3?.stop(), fx?.cleanup(), files && new Promise((r) => files.server.close(r))]);
});

interface Store {
  name: string;
  /** Answers a stale If-Match with 412 (else it ignores it). */
  honours: boolean;
  /** Puts `body` at `key` (PREFIX/obj.log, PREFIX/other.log). */
  put(key: string, body: Buffer): Promise<void>;
  /** The store's own origin (a proxy goes in front of it). */
  origin(): string;
  /** What the CLI is given to search, through `origin`. */
  targets(origin: string, prefix: string): string[];
  /** How results and messages name `key` read through `origin`. */
  uriOf(origin: string, key: string): string;
  env(origin: string): Record<string, string>;
}

const S3_STORE: Store = {
  name: 's3 (s3rver, which ignores If-Match)',
  honours: false,
  put: (key, body) => putObject(s3.endpoint, 'live', key, body),
  origin: () => s3.endpoint,
  targets: (_origin, prefix) => [`s3://live/${prefix}/`],
  uriOf: (_origin, key) => `s3://live/${key}`,
  env: (origin) => fx.s3Env(origin),
};

const httpStore = (name: string, honours: boolean): Store => ({
  name,
  honours,
  async put(key, body) {
    honourIfMatch = honours;
    const file = path.join(files.dir, key);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(`${file}.tmp`, body);
    renameSync(`${file}.tmp`, file);
  },
  origin: () => files.origin,
  targets: (origin, prefix) => [`${origin}/${prefix}/obj.log`, `${origin}/${prefix}/other.log`],
  uriOf: (origin, key) => `${origin}/${key}`,
  env: () => ({ HOME: fx.home, SIMGREP_REMOTE_TIMEOUT_MS: '5000', SIMGREP_REMOTE_RETRIES: '2' }),
});

const STORES = [S3_STORE, httpStore('https driver (a file server that ignores If-Match)', false), httpStore('https driver (a file server that answers 412 to If-Match)', true)];

let cases = 0;

/** KEY:LINE of each JSON line's result, the key without its store and origin. */
const hits = (stdout: string): string[] => stdout.trim().split('\n').filter(Boolean).map((l) => {
  const r = JSON.parse(l) as { filename: string; match_line: number };
  return `${r.filename.replace(/^(s3:\/\/live|https?:\/\/[^/]+)\//, '')}:${r.match_line}`;
});

/**
 * Seeds PREFIX/obj.log (version 1) and PREFIX/other.log, cuts the first read of obj.log after
 * `cutAfter` bytes, replaces obj.log by version 2 before the resume goes on, and runs the CLI through
 * the proxy; for an object read whole, once more straight to the store (the clean read of version 2).
 */
async function cutWhileReplaced(store: Store, kind: keyof typeof SIZES) {
  const prefix = `case-${++cases}`;
  const { v1, v2 } = versions(kind);
  expect(v1.length).toBe(v2.length);
  await store.put(`${prefix}/obj.log`, v1);
  await store.put(`${prefix}/other.log`, Buffer.from(`lorem ipsum\n${NEEDLE}`));
  let gets = 0;
  const isObjectGet = (line: string) => line.startsWith('GET ') && line.includes(`/${prefix}/obj.log`);
  const proxy = await startProxy(Number(new URL(store.origin()).port), async (line) => {
    // The second GET is the resume: the object is replaced before it reaches the store.
    if (isObjectGet(line) && ++gets === 2) await store.put(`${prefix}/obj.log`, v2);
  }, { cutReplyAfter: (line) => (isObjectGet(line) && gets === 1 ? SIZES[kind].cutAfter : undefined) });
  const flags = ['--model', fx.model, '--mode', 'lexical', '--jsonl', '-n', '0', '--top-k', '5'];
  try {
    const cut = await runCli([QUERY, ...store.targets(proxy.endpoint, prefix), ...flags], { env: store.env(proxy.endpoint) });
    expect(gets).toBeGreaterThanOrEqual(2); // the read was cut and resumed
    // Read whole, the answer must be the one a read of version 2 alone gives.
    const clean = kind === 'whole' ? await runCli([QUERY, ...store.targets(store.origin(), prefix), ...flags], { env: store.env(store.origin()) }) : null;
    return { cut, prefix, hits: hits(cut.stdout), cleanHits: clean && hits(clean.stdout), objUri: store.uriOf(proxy.endpoint, `${prefix}/obj.log`) };
  } finally {
    await proxy.close();
  }
}

describe('regression #28.5: a resumed read spliced two versions of one object', () => {
  for (const store of STORES) {
    it(`${store.name}: an object read whole is read again from its start, and the answer is the new version's`, async () => {
      const { cut, prefix, hits: got, cleanHits } = await cutWhileReplaced(store, 'whole');
      // Version 2's needle is on line 50,001 (version 1's on 40,001; a splice puts it in between).
      expect([...got].sort()).toEqual([`${prefix}/obj.log:50001`, `${prefix}/other.log:2`]);
      expect(got).toEqual(cleanHits);
      expect([cut.stderr, cut.code]).toEqual(['', 0]);
    }, 120_000);

    it(`${store.name}: a streamed object whose first bytes were searched is reported as changed; the others are still searched`, async () => {
      const { cut, prefix, hits: got, objUri } = await cutWhileReplaced(store, 'streamed');
      expect(got).toEqual([`${prefix}/other.log:2`]);
      const reason = store.honours ? 'it no longer has ETag "[0-9a-f]+" \\(HTTP 412 to If-Match\\)' : 'its ETag was "[0-9a-f]+", now "[0-9a-f]+"';
      expect(cut.stderr).toMatch(new RegExp(`^simgrep: ${escape(objUri)}: the object changed while it was being read \\(${reason}, found when resuming at byte \\d+\\); only its first \\d+ bytes were read: search again\\n$`));
      expect(cut.code).toBe(2);
    }, 120_000);
  }
});

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
