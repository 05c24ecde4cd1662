// The S3 driver's per-object GETs without the SDK's per-request middleware (about 1.4 ms of CPU each):
// the SDK resolves the endpoint once and the credentials once (again as they expire), @smithy/signature-v4
// signs, and the shared http-client sends (idle timeout, retries, resume). Error answers are parsed by
// the SDK's own restXml error deserializer, so they map to the same messages as the SDK's errors.
import type { S3Client } from '@aws-sdk/client-s3';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider, HttpRequest } from '@smithy/types';
import { MAX_ERROR_BODY_BYTES, type HttpClient, type OpenedResponse } from './http-client.js';

/** An S3 error answer as the SDK reports one: what the driver's error mapping reads. */
export interface SdkShapedError {
  name: string;
  message: string;
  $metadata: { httpStatusCode: number; attempts: number };
  $response: { headers: Record<string, string> };
}

/** GETs one object (with a Range and If-Match when resuming); resolves with a 2xx response (or a 412 to If-Match), else throws what `fail` makes of the answer. */
export type SignedGet = (key: string, headers: Record<string, string>, signal?: AbortSignal) => Promise<OpenedResponse>;

/** Refresh temporary credentials this long before they expire (the SDK's own margin). */
const REFRESH_BEFORE_MS = 5 * 60_000;

/**
 * A signed GET for `bucket`'s objects, or null where the SDK's endpoint rules ask for anything but plain
 * SigV4 with no extra headers (S3 Express directory buckets, multi-region access points): those stay on
 * the SDK's GetObject.
 */
export async function createSignedGet(s3: S3Client, bucket: string, http: HttpClient, fail: (e: SdkShapedError) => Error): Promise<SignedGet | null> {
  const [sdk, { getEndpointFromInstructions }, { extendedEncodeURIComponent }, { SignatureV4 }, { Sha256 }, { parseXmlErrorBody, loadRestXmlErrorCode }] = await Promise.all([
    import('@aws-sdk/client-s3'), import('@smithy/core/endpoints'), import('@smithy/core/protocols'), import('@smithy/signature-v4'),
    import('@smithy/core/checksum'), import('@aws-sdk/core/protocols'),
  ]);
  const config = s3.config as typeof s3.config & { credentials: AwsCredentialIdentityProvider; systemClockOffset?: number };
  const endpoint = await getEndpointFromInstructions({ Bucket: bucket, Key: 'k' }, sdk.GetObjectCommand, config);
  const scheme = (endpoint.properties?.authSchemes as { name?: string; signingName?: string; signingRegion?: string; disableDoubleEncoding?: boolean }[] | undefined)?.[0];
  if (scheme?.name !== 'sigv4' || !scheme.signingRegion || Object.keys(endpoint.headers ?? {}).length > 0) return null;
  const base = endpoint.url;
  const basePath = base.pathname.replace(/\/+$/, '');
  const signer = new SignatureV4({
    credentials: cachedCredentials(config.credentials), region: scheme.signingRegion, service: scheme.signingName ?? 's3', sha256: Sha256,
    uriEscapePath: !scheme.disableDoubleEncoding,
  });

  return async (key, extra, signal) => {
    // The SDK's own encoding of the greedy {Key+} label: each segment encoded, the slashes kept.
    const path = `${basePath}/${key.split('/').map(extendedEncodeURIComponent).join('/')}`;
    const request: HttpRequest = {
      method: 'GET', protocol: base.protocol, hostname: base.hostname, port: base.port ? Number(base.port) : undefined, path, query: {},
      headers: { host: base.host, ...extra },
    };
    // The SDK moves its clock by the skew a store reported (RequestTimeTooSkewed); the GETs follow it.
    const signed = await signer.sign(request, { signingDate: new Date(Date.now() + (config.systemClockOffset ?? 0)) });
    const opened = await http.open({ method: 'GET', url: new URL(`${base.origin}${path}`), rawPath: path, headers: signed.headers }, signal);
    // A 412 to If-Match (the object changed since the read began) is for the caller to handle.
    if ((opened.res.status >= 200 && opened.res.status < 300) || (opened.res.status === 412 && extra['if-match'])) return opened;
    throw fail(await errorOf(opened));
  };

  async function errorOf(opened: OpenedResponse): Promise<SdkShapedError> {
    const { status } = opened.res;
    const headers: Record<string, string> = {};
    const region = opened.res.headers.get('x-amz-bucket-region');
    if (region !== null) headers['x-amz-bucket-region'] = region;
    let data: { Error?: { message?: string }; message?: string; Message?: string } = {};
    if (Number(opened.res.headers.get('content-length') ?? 0) <= MAX_ERROR_BODY_BYTES) {
      // A chunked body has no Content-Length: text's own bound stops one that goes on.
      const body = await opened.text(MAX_ERROR_BODY_BYTES).catch(() => '');
      data = await parseXmlErrorBody(new TextEncoder().encode(body), config as unknown as Parameters<typeof parseXmlErrorBody>[1]).catch(() => ({}));
    } else {
      opened.discard();
    }
    // As the SDK names them: the document's Code, NotFound for a bare 404, else Unknown.
    const name = loadRestXmlErrorCode({ statusCode: status, headers }, data) ?? 'Unknown';
    const message = data.Error?.message ?? data.message ?? data.Message ?? 'UnknownError';
    return { name, message, $metadata: { httpStatusCode: status, attempts: opened.attempts }, $response: { headers } };
  }
}

/** The provider's identity, asked for once and again only when it is about to expire; callers meanwhile share one request. */
export function cachedCredentials(provider: AwsCredentialIdentityProvider): AwsCredentialIdentityProvider {
  let current: Promise<AwsCredentialIdentity> | null = null;
  let refreshAt = Infinity;
  return () => {
    if (current && Date.now() < refreshAt) return current;
    refreshAt = Infinity;
    current = provider().then((id) => {
      // Short-lived keys (minutes left) are still used for half of what is left, not asked for per request.
      const left = id.expiration ? id.expiration.getTime() - Date.now() : Infinity;
      refreshAt = Date.now() + left - Math.min(REFRESH_BEFORE_MS, left / 2);
      return id;
    }, (e: unknown) => {
      current = null;
      throw e;
    });
    return current;
  };
}
