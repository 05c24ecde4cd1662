// Where gs:// requests go and what signs them: --gcs-endpoint (signed in), else STORAGE_EMULATOR_HOST
// (an emulator: no credentials, as Google's client libraries do), else Cloud Storage itself; credentials
// from Application Default Credentials through @google-cloud/storage's auth client (imported only here,
// on the first gs:// URI). Tokens never appear in a message; where they came from does.
import { SimgrepError } from '../../errors.js';

/** Signs one request: google-auth-library's GoogleAuth, or anything that gives request headers. */
export interface GcsAuth { getRequestHeaders(url?: string): Promise<Record<string, string>> }

export interface GcsSettings {
  /** The JSON API base, e.g. https://storage.googleapis.com/storage/v1. */
  endpoint: string;
  /** null: requests go unsigned (an emulator). */
  auth: GcsAuth | null;
  credentialSource: string;
  credentialHint: string;
}

type Env = Record<string, string | undefined>;

/** What gcloud and Google's libraries read for Application Default Credentials, in their order. */
export const ADC_ORDER = 'GOOGLE_APPLICATION_CREDENTIALS, gcloud auth application-default login, the metadata server on GCE/GKE/Cloud Run';

export async function resolveGcsSettings(rawEnv: Env, o: { gcsEndpoint?: string; timeoutMs: number }): Promise<GcsSettings> {
  const env = (k: string) => rawEnv[k] || undefined;
  const emulator = env('STORAGE_EMULATOR_HOST');
  if (!o.gcsEndpoint && emulator) {
    return {
      endpoint: jsonApiBase(emulator, 'STORAGE_EMULATOR_HOST'), auth: null,
      credentialSource: 'none (STORAGE_EMULATOR_HOST names an emulator, read without credentials)',
      credentialHint: 'unset STORAGE_EMULATOR_HOST to sign in with Application Default Credentials, or use --gcs-endpoint for an endpoint that needs them',
    };
  }
  const endpoint = o.gcsEndpoint ? jsonApiBase(o.gcsEndpoint, '--gcs-endpoint') : `https://storage.${env('GOOGLE_CLOUD_UNIVERSE_DOMAIN') ?? 'googleapis.com'}/storage/v1`;
  return { endpoint, ...await applicationDefaultCredentials(endpoint, rawEnv, o.timeoutMs) };
}

/** An endpoint as written (host:port, an origin, or a URL with its path) -> the JSON API base. */
export function jsonApiBase(raw: string, name: string): string {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`);
  } catch {
    throw new SimgrepError('BAD_FLAG', `${name} must be a URL such as https://storage.googleapis.com or http://127.0.0.1:4443 (got "${raw}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SimgrepError('BAD_FLAG', `${name} must be an http(s) URL (got "${raw}")`);
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${path === '' ? '/storage/v1' : path}`;
}

/** ADC through @google-cloud/storage's GoogleAuth, asked for a token once here so that a missing sign-in is this source's one message. */
async function applicationDefaultCredentials(endpoint: string, env: Env, timeoutMs: number): Promise<Omit<GcsSettings, 'endpoint'>> {
  const { Storage } = await import('@google-cloud/storage');
  // Listing and reading objects need no project; without one, GoogleAuth first looks it up (Cloud
  // Resource Manager for a federation file, gcloud's config, the metadata server), which can fail or
  // wait where reading the bucket would work.
  const projectId = env.GOOGLE_CLOUD_PROJECT || env.GCLOUD_PROJECT || 'simgrep-needs-no-project';
  const auth = new Storage({ apiEndpoint: new URL(endpoint).origin, projectId }).authClient;
  const file = env.GOOGLE_APPLICATION_CREDENTIALS || undefined;
  let source = file ? `the credential file in GOOGLE_APPLICATION_CREDENTIALS (${file})` : 'Application Default Credentials';
  let hint = 'run `gcloud auth application-default login`, or set GOOGLE_APPLICATION_CREDENTIALS to a service-account key file';
  try {
    await withTimeout(auth.getClient(), timeoutMs, 'looking for credentials');
    ({ source, hint } = describe(auth.jsonContent?.type, file));
    await withTimeout(auth.getRequestHeaders(endpoint), timeoutMs, `getting an access token from ${source}`);
  } catch (e) {
    if (e instanceof SimgrepError) throw e;
    const text = summary(e);
    if (/could not load the default credentials/i.test(text)) {
      throw new SimgrepError('REMOTE_CREDENTIALS', `no Google Cloud credentials found (Application Default Credentials: ${ADC_ORDER}); ${hint}, or for an emulator set STORAGE_EMULATOR_HOST`, { cause: e });
    }
    throw new SimgrepError('REMOTE_CREDENTIALS', `could not get an access token from ${source}: ${text}; ${hint}`, { cause: e });
  }
  const renew = async (url?: string): Promise<Record<string, string>> => {
    try {
      return await withTimeout(auth.getRequestHeaders(url) as Promise<Record<string, string>>, timeoutMs, `renewing the access token from ${source}`);
    } catch (e) {
      if (e instanceof SimgrepError) throw e;
      throw new SimgrepError('REMOTE_CREDENTIALS', `could not renew the access token from ${source}: ${summary(e)}; ${hint}`, { cause: e });
    }
  };
  return { auth: { getRequestHeaders: sharedRefresh(renew) }, credentialSource: source, credentialHint: hint };
}

function describe(type: string | undefined, file: string | undefined): { source: string; hint: string } {
  const where = file ? `GOOGLE_APPLICATION_CREDENTIALS (${file})` : 'application_default_credentials.json (gcloud auth application-default login)';
  switch (type) {
    case 'service_account':
      return { source: `the service-account key in ${where}`, hint: `check that the key is not deleted or disabled (gcloud iam service-accounts keys list) and belongs to the bucket's project or is granted on it` };
    case 'authorized_user':
      return { source: `the user sign-in in ${where}`, hint: 'sign in again: gcloud auth application-default login' };
    case 'external_account':
    case 'external_account_authorized_user':
      return { source: `workload identity federation in ${where}`, hint: 'check the pool, provider and subject token the configuration names' };
    case 'impersonated_service_account':
      return { source: `service-account impersonation in ${where}`, hint: 'check that the signed-in identity may impersonate the service account (roles/iam.serviceAccountTokenCreator)' };
    case undefined:
      return { source: 'the metadata server (the service account of this GCE VM, GKE node or Cloud Run service)', hint: 'check which service account the workload runs as, and that its access scopes include devstorage.read_only or cloud-platform' };
    default:
      return { source: `the "${type}" credential in ${where}`, hint: 'check the credential file' };
  }
}

/** Concurrent requests share one token fetch (GoogleAuth caches the token; a refresh near expiry would otherwise run once per request). */
function sharedRefresh(get: (url?: string) => Promise<Record<string, string>>): (url?: string) => Promise<Record<string, string>> {
  let inflight: Promise<Record<string, string>> | null = null;
  return (url) => (inflight ??= get(url).finally(() => { inflight = null; }));
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new SimgrepError('REMOTE_CREDENTIALS', `${what} did not finish within ${ms} ms; check the network to the token endpoint or metadata server, or raise SIMGREP_REMOTE_TIMEOUT_MS`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** The first part of an auth library error (a token endpoint's reply can be long). */
function summary(e: unknown): string {
  const err = e as { message?: string; response?: { data?: { error?: string; error_description?: string } } };
  const data = err.response?.data;
  const text = (data?.error ? `${data.error}${data.error_description ? `: ${data.error_description}` : ''}` : err.message ?? String(e)).replace(/\s+/g, ' ').trim();
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
