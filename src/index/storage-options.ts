// Where an index lives in an object store: LanceDB reads and writes s3:// itself; this turns the
// same endpoint and credential settings the s3:// sources use (--s3-endpoint, AWS_* variables,
// profiles) into LanceDB's storage options.
import { SimgrepError } from '../errors.js';
import { resolveS3Settings } from '../sources/remote/aws-config.js';

export async function lanceStorageOptions(uri: string, o: { s3Endpoint?: string } = {}): Promise<Record<string, string> | undefined> {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(uri)) return undefined;
  if (!uri.startsWith('s3://')) {
    throw new SimgrepError('UNSUPPORTED_SCHEME', `${uri}: a workspace index can live in a local directory or under s3:// (including S3-compatible stores with --s3-endpoint)`);
  }
  const s = await resolveS3Settings(process.env, o);
  const out: Record<string, string> = { aws_region: s.region };
  if (s.credentials) {
    out.aws_access_key_id = s.credentials.accessKeyId;
    out.aws_secret_access_key = s.credentials.secretAccessKey;
    if (s.credentials.sessionToken) out.aws_session_token = s.credentials.sessionToken;
  }
  if (s.endpoint) {
    out.aws_endpoint = s.endpoint.origin;
    out.aws_virtual_hosted_style_request = 'false';
    if (s.endpoint.protocol === 'http:') out.allow_http = 'true';
  }
  return out;
}
