// Turns an S3 error (as the SDK reports it) into a message that says what failed and how to fix it.
// The server's error code decides; HEAD responses have no body, so their status does.
import { SimgrepError } from '../../errors.js';

export interface S3ErrorContext {
  bucket: string;
  /** Where requests go ("https://s3.us-east-1.amazonaws.com" or the custom endpoint). */
  endpoint: string;
  region: string;
  credentialSource: string;
  credentialHint: string;
  attempts?: number;
}

export function s3ErrorFor(status: number, code: string | undefined, serverMessage: string | undefined, bucketRegion: string | null, ctx: S3ErrorContext, options?: { cause?: unknown }): SimgrepError {
  const made = s3Error(status, code, serverMessage, bucketRegion, ctx);
  return options?.cause === undefined ? made : new SimgrepError(made.code, made.message, options);
}

function s3Error(status: number, code: string | undefined, serverMessage: string | undefined, bucketRegion: string | null, ctx: S3ErrorContext): SimgrepError {
  const creds = `credentials from ${ctx.credentialSource}`;
  const tag = code ? ` (${code})` : ` (HTTP ${status})`;
  switch (code) {
    case 'NoSuchBucket':
      return new SimgrepError('PATH_NOT_FOUND', `bucket "${ctx.bucket}" does not exist at ${ctx.endpoint}${tag}; check the bucket name and the endpoint (--s3-endpoint, AWS_ENDPOINT_URL)`);
    case 'NoSuchKey':
      return new SimgrepError('PATH_NOT_FOUND', `no such object${tag}; check the key`);
    case 'InvalidAccessKeyId':
      return new SimgrepError('REMOTE_CREDENTIALS', `the store does not know this access key${tag}, ${creds}; ${ctx.credentialHint}`);
    case 'SignatureDoesNotMatch':
      return new SimgrepError('REMOTE_CREDENTIALS', `the secret key does not match the access key${tag}, ${creds}; ${ctx.credentialHint}`);
    case 'ExpiredToken':
    case 'TokenRefreshRequired':
    case 'InvalidToken':
      return new SimgrepError('REMOTE_CREDENTIALS', `the session token was rejected${tag}, ${creds}; refresh the temporary credentials (AWS_SESSION_TOKEN)`);
    case 'AccessDenied':
    case 'AllAccessDisabled':
      return new SimgrepError('REMOTE_ACCESS_DENIED', `access denied${tag}, ${creds}; the key needs s3:ListBucket on bucket "${ctx.bucket}" and s3:GetObject on its objects`);
    case 'PermanentRedirect':
    case 'AuthorizationHeaderMalformed':
    case 'IllegalLocationConstraintException':
      return wrongRegion(tag, bucketRegion, ctx);
    case 'RequestTimeTooSkewed':
      return new SimgrepError('REMOTE_CREDENTIALS', `the request time was refused${tag}: this machine's clock is off by more than 15 minutes; fix the clock`);
    default:
      break;
  }
  if (status === 301 || (status === 400 && bucketRegion && bucketRegion !== ctx.region)) return wrongRegion(tag, bucketRegion, ctx);
  if (status === 404) return new SimgrepError('PATH_NOT_FOUND', `not found${tag}; check the bucket and key`);
  if (status === 401 || status === 403) {
    return new SimgrepError('REMOTE_ACCESS_DENIED', `access denied${tag}, ${creds}; check the credentials and that they may read bucket "${ctx.bucket}"`);
  }
  const detail = serverMessage ? `: ${serverMessage}` : '';
  if (status >= 500 || status === 429) {
    const tries = ctx.attempts ? ` after ${ctx.attempts} attempts` : '';
    return new SimgrepError('REMOTE_UNAVAILABLE', `the store failed with HTTP ${status}${code ? ` ${code}` : ''}${tries}${detail}; try again later`);
  }
  return new SimgrepError('REMOTE_ERROR', `the store answered HTTP ${status}${code ? ` ${code}` : ''}${detail}`);
}

function wrongRegion(tag: string, bucketRegion: string | null, ctx: S3ErrorContext): SimgrepError {
  const fix = bucketRegion ? `set AWS_REGION=${bucketRegion}` : 'set AWS_REGION to the bucket\'s region';
  return new SimgrepError('REMOTE_ERROR', `bucket "${ctx.bucket}" is not in region ${ctx.region}${tag}; ${fix}`);
}

/** Whether a listing reply is a whole ListBucketResult document (a cut body is not a listing). */
export function isCompleteListing(xml: string): boolean {
  return /<ListBucketResult[\s>]/.test(xml) && xml.trimEnd().endsWith('</ListBucketResult>');
}

/** The error for a listing reply that is not an S3 listing (an HTML page, a proxy's answer, a cut body). */
export function s3ListingNotXml(contentType: string | undefined, body: string): SimgrepError {
  const trimmed = body.trim();
  const start = trimmed.slice(0, 60).replace(/\s+/g, ' ');
  const what = trimmed === '' ? 'an empty body'
    : /^<(!doctype html|html)/i.test(trimmed) ? 'an HTML page'
      : /<ListBucketResult[\s>]/.test(trimmed) ? `a listing cut short (${trimmed.length} characters, no closing tag)`
        : `"${start}${trimmed.length > 60 ? '…' : ''}"`;
  return new SimgrepError('REMOTE_ERROR', `the listing request was answered with ${what} (${contentType ?? 'no content type'}), not an S3 listing (ListBucketResult); check that --s3-endpoint (or AWS_ENDPOINT_URL) is the S3 API of the store, not its web console`);
}
