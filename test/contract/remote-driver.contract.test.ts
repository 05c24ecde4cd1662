// One contract for every simgrep storage driver (unstorage's model: a shared suite each driver must
// pass), run against servers on 127.0.0.1: s3Driver on s3rver, azureBlobDriver on Azurite,
// httpDriver on a node http server (which cannot list, so it skips the listing clauses), and gcsDriver
// on a loopback fake of the Cloud Storage JSON API (no real GCS server runs here; see gcs-server.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from 'node:http';
import { createStorage } from 'unstorage';
import { azureBlobDriver, gcsDriver, httpDriver, s3Driver } from '../../src/index.js';
import type { StreamingDriver } from '../../src/sources/remote/capabilities.js';
import { DEV_ACCOUNT, DEV_KEY, seedContainer, startAzurite, type Azurite } from '../helpers/azurite.js';
import { READER_AUTH, startFakeGcs, type FakeGcs } from '../helpers/gcs-server.js';
import { S3RVER_KEYS, seedObjects, startS3rver, type S3Server } from '../helpers/s3-server.js';
import { listenLocal } from '../helpers/http-server.js';

const BIG = Buffer.alloc(9 * (1 << 20) + 5, 'lorem ipsum\n');
const OBJECTS: Record<string, Buffer> = {
  'c/a.txt': Buffer.from('alpha\n'),
  'c/sub/b.txt': Buffer.from('beta\n'),
  'c/big.log': BIG,
  'c/we ird+name%25.txt': Buffer.from('odd\n'),
  'd/x.txt': Buffer.from('outside\n'),
};

let s3: S3Server;
let az: Azurite;
let gcs: FakeGcs;
let web: Server;
let webBase = '';

beforeAll(async () => {
  [s3, az, gcs] = await Promise.all([startS3rver({ buckets: ['contract'] }), startAzurite(), startFakeGcs()]);
  for (const [name, body] of Object.entries(OBJECTS)) gcs.put('contract', name, body);
  ({ server: web, origin: webBase } = await listenLocal((req, res) => {
    const body = OBJECTS[decodeURIComponent(new URL(req.url!, 'http://x').pathname.slice(1))];
    if (!body) { res.writeHead(404).end(); return; }
    res.writeHead(200, { 'content-length': body.length }).end(req.method === 'HEAD' ? undefined : body);
  }));
  await Promise.all([seedObjects(s3.endpoint, 'contract', OBJECTS), seedContainer(az.blobEndpoint, 'contract', OBJECTS)]);
}, 120_000);
afterAll(async () => { await Promise.all([s3?.stop(), az?.stop(), gcs?.stop(), new Promise((r) => web?.close(r))]); });

// A driver's raw key: the store's object name, or for http(s) the URL path (so it arrives encoded).
const cases: { name: string; lists: boolean; uri: string; key?: (name: string) => string; make: () => StreamingDriver }[] = [
  { name: 's3Driver on s3rver', lists: true, uri: 's3://contract/', make: () => s3Driver({ bucket: 'contract', region: 'us-east-1', endpoint: s3.endpoint, credentials: S3RVER_KEYS, pageSize: 2 }) },
  { name: 'azureBlobDriver on Azurite', lists: true, uri: 'az://contract/', make: () => azureBlobDriver({ container: 'contract', account: DEV_ACCOUNT, endpoint: az.blobEndpoint, accountKey: DEV_KEY, pageSize: 2 }) },
  { name: 'gcsDriver on a loopback fake of the GCS JSON API', lists: true, uri: 'gs://contract/', make: () => gcsDriver({ bucket: 'contract', endpoint: gcs.origin, auth: READER_AUTH, pageSize: 2 }) },
  { name: 'httpDriver on node:http', lists: false, uri: '', key: (n) => encodeURI(n), make: () => httpDriver({ base: webBase }) },
];

async function collect(it: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for await (const c of it) out.push(c);
  return out;
}

describe.each(cases.filter((c) => c.lists))('listing contract: $name', ({ uri, make }) => {
  it('lists only under the prefix, across pages, with sizes and last-modified times; --no-recursive stops at "/"', async () => {
    const { streaming } = make();
    const all = [];
    for await (const o of streaming.listObjects('c/', { recursive: true })) all.push(o);
    expect(all.map(({ key, size }) => ({ key, size }))).toEqual(['c/a.txt', 'c/big.log', 'c/sub/b.txt', 'c/we ird+name%25.txt'].map((key) => ({ key, size: OBJECTS[key].length })));
    // The workspace index's change check: when each object was last written (seeded by this run, so within the last hour).
    for (const o of all) expect({ key: o.key, recent: Math.abs(Date.now() - (o.modifiedMs ?? 0)) < 3_600_000 }).toEqual({ key: o.key, recent: true });
    const top = [];
    for await (const o of streaming.listObjects('c/', { recursive: false })) top.push(o.key);
    expect(top).toEqual(['c/a.txt', 'c/big.log', 'c/we ird+name%25.txt']);
    expect(streaming.uriOf('c/a.txt')).toBe(`${uri}c/a.txt`);
  });
});

describe.each(cases)('storage driver contract: $name', ({ lists, key = (n) => n, make }) => {

  it('stats an object, and says null for a missing one', async () => {
    const { streaming } = make();
    expect(await streaming.statObject('c/a.txt', {})).toEqual({ size: 6 });
    expect(await streaming.statObject('c/none.txt', {})).toBeNull();
  });

  it('streams small objects whole and big ones in chunks of at most 1 MiB, byte for byte, odd names too', async () => {
    const { streaming } = make();
    const small = await collect(streaming.streamObject(key('c/we ird+name%25.txt'), { size: 4 }));
    expect(small.map((c) => Buffer.from(c).toString())).toEqual(['odd\n']);
    const big = await collect(streaming.streamObject('c/big.log', {}));
    expect(big.length).toBe(10);
    expect(Math.max(...big.map((c) => c.length))).toBe(1 << 20);
    expect(Buffer.concat(big).equals(BIG)).toBe(true);
    await expect(collect(streaming.streamObject('c/none.txt', {}))).rejects.toMatchObject({ code: 'PATH_NOT_FOUND' });
  });

  it('works as a plain unstorage driver (colon keys)', async () => {
    const storage = createStorage({ driver: make() });
    expect(await storage.getItem('c:a.txt')).toBe('alpha\n');
    expect(await storage.hasItem('c:none.txt')).toBe(false);
    expect(Buffer.from((await storage.getItemRaw('c:sub:b.txt')) as Uint8Array).toString()).toBe('beta\n');
    if (lists) expect((await storage.getKeys('c:sub')).sort()).toEqual(['c:sub:b.txt']);
  });
});
