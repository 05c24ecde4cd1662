// Loopback stand-ins for what the AWS SDK's credential chain and S3 client talk to: an S3 bucket that
// verifies every request's SigV4 signature (recomputed with @smithy/signature-v4 from the one identity
// it knows) and answers a mismatch as S3 does (403 SignatureDoesNotMatch), EC2 instance metadata
// (IMDSv2: a session token first), an ECS container-credentials endpoint and STS AssumeRole.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Sha256 } from '@smithy/core/checksum';
import { SignatureV4 } from '@smithy/signature-v4';
import { listenLocal } from './http-server.js';

export interface Identity { accessKeyId: string; secretAccessKey: string; sessionToken?: string }

export interface FakeEndpoint { origin: string; server: Server; requests: string[]; close(): Promise<void> }

/** What the chain's providers serve: keys, and an expiry an hour away. */
export function issued(id: Identity): { AccessKeyId: string; SecretAccessKey: string; Token?: string; Expiration: string } {
  return { AccessKeyId: id.accessKeyId, SecretAccessKey: id.secretAccessKey, Token: id.sessionToken, Expiration: new Date(Date.now() + 3_600_000).toISOString() };
}

/** Checks a request's Authorization header against `id`: the S3 error code, or null when it is genuine. */
export async function sigV4Problem(req: IncomingMessage, body: Buffer, id: Identity, service: string): Promise<string | null> {
  const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/\d{8}\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(req.headers.authorization ?? '');
  if (!m) return 'AccessDenied';
  const [, keyId, region, signedService, signedHeaders, signature] = m;
  if (keyId !== id.accessKeyId) return 'InvalidAccessKeyId';
  if (signedService !== service) return 'SignatureDoesNotMatch';
  if (id.sessionToken && req.headers['x-amz-security-token'] !== id.sessionToken) return 'InvalidToken';
  const url = new URL(req.url!, `http://${req.headers.host}`);
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) query[k] = v;
  const headers: Record<string, string> = {};
  for (const name of signedHeaders.split(';')) headers[name] = String(req.headers[name] ?? '');
  const d = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(headers['x-amz-date'] ?? '');
  if (!d) return 'AccessDenied';
  const signingDate = new Date(Date.UTC(+d[1], +d[2] - 1, +d[3], +d[4], +d[5], +d[6]));
  const signer = new SignatureV4({ credentials: id, region, service, sha256: Sha256, uriEscapePath: service !== 's3' });
  const rawPath = req.url!.split('?')[0];
  const signed = await signer.sign({ method: req.method!, protocol: 'http:', hostname: url.hostname, port: Number(url.port), path: rawPath, query, headers, body: body.length ? body : undefined }, { signingDate });
  const expected = /Signature=([0-9a-f]{64})/.exec(String(signed.headers.authorization))?.[1];
  return expected === signature ? null : 'SignatureDoesNotMatch';
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve(Buffer.concat(chunks))).on('error', reject);
  });
}

async function serve(handle: (req: IncomingMessage, body: Buffer, res: ServerResponse) => Promise<void> | void): Promise<FakeEndpoint> {
  const requests: string[] = [];
  const { server, origin } = await listenLocal((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    readBody(req).then((body) => handle(req, body, res)).catch((e) => { res.statusCode = 500; res.end(String(e)); });
  });
  return { origin, server, requests, close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

const xmlError = (res: ServerResponse, status: number, code: string) =>
  res.writeHead(status, { 'content-type': 'application/xml' }).end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${code}</Message></Error>`);

/** A one-bucket S3 that only answers requests signed by `id` (path-style: /bucket/key). */
export async function signatureCheckingS3(bucket: string, objects: Record<string, string>, id: Identity): Promise<FakeEndpoint> {
  return serve(async (req, body, res) => {
    const problem = await sigV4Problem(req, body, id, 's3');
    if (problem) { xmlError(res, 403, problem); return; }
    const url = new URL(req.url!, 'http://x');
    if (url.pathname === `/${bucket}/` || url.pathname === `/${bucket}`) {
      const prefix = url.searchParams.get('prefix') ?? '';
      const keys = Object.keys(objects).filter((k) => k.startsWith(prefix)).sort();
      res.writeHead(200, { 'content-type': 'application/xml' }).end(`<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>${bucket}</Name><Prefix>${prefix}</Prefix><KeyCount>${keys.length}</KeyCount><IsTruncated>false</IsTruncated>`
        + keys.map((k) => `<Contents><Key>${k}</Key><Size>${Buffer.byteLength(objects[k])}</Size></Contents>`).join('') + '</ListBucketResult>');
      return;
    }
    const key = decodeURIComponent(url.pathname.slice(bucket.length + 2));
    if (!url.pathname.startsWith(`/${bucket}/`) || objects[key] === undefined) { xmlError(res, 404, 'NoSuchKey'); return; }
    res.writeHead(200, { 'content-length': Buffer.byteLength(objects[key]), etag: '"e"' }).end(req.method === 'HEAD' ? undefined : objects[key]);
  });
}

/** EC2 instance metadata, IMDSv2 only: credentials of role `simgrep-reader` for a session token. */
export async function instanceMetadata(id: Identity): Promise<FakeEndpoint> {
  const token = 'imds-session-token';
  return serve((req, _body, res) => {
    const url = new URL(req.url!, 'http://x');
    if (req.method === 'PUT' && url.pathname === '/latest/api/token') {
      if (!req.headers['x-aws-ec2-metadata-token-ttl-seconds']) { res.writeHead(400).end(); return; }
      res.writeHead(200, { 'content-type': 'text/plain' }).end(token);
      return;
    }
    if (req.headers['x-aws-ec2-metadata-token'] !== token) { res.writeHead(401).end(); return; }
    if (url.pathname === '/latest/meta-data/iam/security-credentials/') { res.end('simgrep-reader'); return; }
    if (url.pathname === '/latest/meta-data/iam/security-credentials/simgrep-reader') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ Code: 'Success', Type: 'AWS-HMAC', LastUpdated: new Date().toISOString(), ...issued(id) }));
      return;
    }
    res.writeHead(404).end();
  });
}

/** An ECS / EKS container-credentials endpoint at /creds that wants `authorization`. */
export async function containerCredentials(id: Identity, authorization: string): Promise<FakeEndpoint> {
  return serve((req, _body, res) => {
    if (req.url !== '/creds') { res.writeHead(404).end(); return; }
    if (req.headers.authorization !== authorization) { res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"bad token"}'); return; }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(issued(id)));
  });
}

/** STS: AssumeRole signed by `source` (a source_profile's keys) gives `assumed`. */
export async function securityTokenService(source: Identity, assumed: Identity): Promise<FakeEndpoint> {
  return serve(async (req, body, res) => {
    const problem = await sigV4Problem(req, body, source, 'sts');
    const form = new URLSearchParams(body.toString('utf8'));
    if (problem || form.get('Action') !== 'AssumeRole') {
      res.writeHead(403, { 'content-type': 'text/xml' }).end(`<ErrorResponse><Error><Type>Sender</Type><Code>${problem ?? 'InvalidAction'}</Code><Message>${problem ?? 'InvalidAction'}</Message></Error></ErrorResponse>`);
      return;
    }
    const c = issued(assumed);
    res.writeHead(200, { 'content-type': 'text/xml' }).end(`<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleResult>`
      + `<Credentials><AccessKeyId>${c.AccessKeyId}</AccessKeyId><SecretAccessKey>${c.SecretAccessKey}</SecretAccessKey><SessionToken>${c.Token}</SessionToken><Expiration>${c.Expiration}</Expiration></Credentials>`
      + `<AssumedRoleUser><AssumedRoleId>AROAEXAMPLE:${form.get('RoleSessionName')}</AssumedRoleId><Arn>${form.get('RoleArn')}/${form.get('RoleSessionName')}</Arn></AssumedRoleUser>`
      + '</AssumeRoleResult><ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></AssumeRoleResponse>');
  });
}
