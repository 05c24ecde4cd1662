// Options shared by every remote source: endpoint override, timeouts and retries (with their env
// defaults, so tests and CI can shorten them), and the environment settings are read from.
import { SimgrepError } from '../../errors.js';

export interface RemoteOptions {
  /** S3-compatible endpoint such as http://127.0.0.1:9000 (MinIO, R2, GCS interop). Also AWS_ENDPOINT_URL_S3 / AWS_ENDPOINT_URL. */
  s3Endpoint?: string;
  /** Cloud Storage JSON API endpoint for gs:// (a private or regional endpoint), signed in with Application Default Credentials. STORAGE_EMULATOR_HOST instead names an emulator, read without credentials. */
  gcsEndpoint?: string;
  /** Per request: the time allowed until the response headers, and between two body chunks. Default 30 s ($SIMGREP_REMOTE_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Retries of a transient failure (5xx, 429, reset, timeout), with exponential backoff. Default 3 ($SIMGREP_REMOTE_RETRIES). */
  retries?: number;
  /**
   * Where simgrep reads its own settings from (default process.env): SIMGREP_REMOTE_*, the S3 endpoint
   * and region, AWS_PROFILE and the AWS file locations, AZURE_STORAGE_*, STORAGE_EMULATOR_HOST and
   * GOOGLE_CLOUD_UNIVERSE_DOMAIN. The credential providers of the AWS chain, DefaultAzureCredential and
   * Google's Application Default Credentials read process.env, as the SDKs do.
   */
  env?: Record<string, string | undefined>;
}

export interface ResolvedRemoteOptions {
  s3Endpoint?: string;
  gcsEndpoint?: string;
  timeoutMs: number;
  retries: number;
  env: Record<string, string | undefined>;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_RETRIES = 3;

export function resolveRemoteOptions(o: RemoteOptions = {}): ResolvedRemoteOptions {
  const env = o.env ?? process.env;
  const timeoutMs = o.timeoutMs ?? envNumber(env, 'SIMGREP_REMOTE_TIMEOUT_MS') ?? DEFAULT_TIMEOUT_MS;
  const retries = o.retries ?? envNumber(env, 'SIMGREP_REMOTE_RETRIES') ?? DEFAULT_RETRIES;
  if (!(timeoutMs > 0)) throw new SimgrepError('BAD_FLAG', `the remote timeout must be a number of milliseconds > 0 (got ${timeoutMs})`);
  if (!Number.isInteger(retries) || retries < 0) throw new SimgrepError('BAD_FLAG', `remote retries must be a whole number >= 0 (got ${retries})`);
  return { s3Endpoint: o.s3Endpoint, gcsEndpoint: o.gcsEndpoint, timeoutMs, retries, env };
}

function envNumber(env: Record<string, string | undefined>, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n)) throw new SimgrepError('BAD_FLAG', `$${name} must be a number (got "${raw}")`);
  return n;
}
