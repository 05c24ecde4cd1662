// Where an index lives in an object store: LanceDB reads and writes s3:// itself; this turns the
// same endpoint and credential settings the s3:// sources use (--s3-endpoint, AWS_* variables,
// profiles) into LanceDB's storage options.
import { SimgrepError } from '../../errors.js';

export async function lanceStorageOptions(uri: string, o: { s3Endpoint?: string } = {}): Promise<Record<string, string> | undefined> {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(uri)) return undefined;
  if (!uri.startsWith('s3://')) {
    throw new SimgrepError('UNSUPPORTED_SCHEME', `${uri}: a workspace index can live in a local directory or under s3:// (including S3-compatible stores with --s3-endpoint)`);
  }
  // The AWS SDK's chain (loaded only here, for an s3:// index): LanceDB gets the keys it resolved,
  // temporary ones included (role, SSO, container, instance credentials).
  const { resolveS3Settings } = await import('../../sources/remote/aws-config.js');
  const s = await resolveS3Settings(process.env, o);
  const creds = await s.credentials();
  const out: Record<string, string> = { aws_region: s.region, aws_access_key_id: creds.accessKeyId, aws_secret_access_key: creds.secretAccessKey };
  if (creds.sessionToken) out.aws_session_token = creds.sessionToken;
  if (s.endpoint) {
    out.aws_endpoint = s.endpoint.origin;
    out.aws_virtual_hosted_style_request = 'false';
    if (s.endpoint.protocol === 'http:') out.allow_http = 'true';
  }
  return out;
}
