// AWS Signature Version 4 for S3 requests without a body (GET, HEAD): the canonical request, the
// derived signing key, the Authorization header. Synchronous, node:crypto only.
import { createHash, createHmac } from 'node:crypto';

export interface AwsCredentials { accessKeyId: string; secretAccessKey: string; sessionToken?: string }

export interface SignInput {
  method: string;
  url: URL;
  /** Extra headers to send and sign (e.g. range); names in any case. */
  headers?: Record<string, string>;
  region: string;
  service?: string;
  /** Hex SHA-256 of the body, or UNSIGNED-PAYLOAD (the default; S3 accepts it). */
  payloadHash?: string;
  now?: Date;
}

export const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';

/** The headers to add to the request: x-amz-date, x-amz-content-sha256, the token, authorization. */
export function signV4(input: SignInput, creds: AwsCredentials): Record<string, string> {
  const service = input.service ?? 's3';
  const amzDate = (input.now ?? new Date()).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const added: Record<string, string> = {
    'x-amz-date': amzDate,
    'x-amz-content-sha256': input.payloadHash ?? UNSIGNED_PAYLOAD,
  };
  if (creds.sessionToken) added['x-amz-security-token'] = creds.sessionToken;
  const all: Record<string, string> = { host: input.url.host };
  for (const [k, v] of Object.entries({ ...input.headers, ...added })) all[k.toLowerCase()] = v.trim().replace(/\s+/g, ' ');
  const names = Object.keys(all).sort();
  const signedHeaders = names.join(';');
  const canonical = [
    input.method.toUpperCase(),
    input.url.pathname || '/',
    canonicalQuery(input.url),
    names.map((n) => `${n}:${all[n]}\n`).join(''),
    signedHeaders,
    added['x-amz-content-sha256'],
  ].join('\n');
  const scope = `${day}/${input.region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonical)].join('\n');
  const key = signingKey(creds.secretAccessKey, day, input.region, service);
  const signature = createHmac('sha256', key).update(toSign).digest('hex');
  return {
    ...added,
    authorization: `AWS4-HMAC-SHA256 Credential=${creds.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
  };
}

/** RFC 3986 encoding, as SigV4 and S3 keys in paths want it ('/' kept when asked). */
export function encodeRfc3986(s: string, keepSlash = false): string {
  const enc = encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return keepSlash ? enc.replace(/%2F/g, '/') : enc;
}

/** Builds a query string in SigV4's canonical form, so what is sent is exactly what is signed. */
export function buildQuery(params: Record<string, string | undefined>): string {
  return Object.entries(params)
    .filter((e): e is [string, string] => e[1] !== undefined)
    .map(([k, v]) => [encodeRfc3986(k), encodeRfc3986(v)])
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

function canonicalQuery(url: URL): string {
  const params: [string, string][] = [];
  for (const [k, v] of url.searchParams) params.push([encodeRfc3986(k), encodeRfc3986(v)]);
  params.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  return params.map(([k, v]) => `${k}=${v}`).join('&');
}

// The derived key changes once a day: caching it saves four HMACs on every request.
let cachedKey: { id: string; secret: string; key: Buffer } | null = null;

function signingKey(secret: string, day: string, region: string, service: string): Buffer {
  const id = `${day}/${region}/${service}`;
  if (cachedKey?.id === id && cachedKey.secret === secret) return cachedKey.key;
  let key = hmac(`AWS4${secret}`, day);
  for (const part of [region, service, 'aws4_request']) key = hmac(key, part);
  cachedKey = { id, secret, key };
  return key;
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

function sha256Hex(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}
