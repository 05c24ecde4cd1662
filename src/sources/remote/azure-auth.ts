// Azure Blob credentials the way the az CLI and SDKs take them (AZURE_STORAGE_CONNECTION_STRING,
// or AZURE_STORAGE_ACCOUNT with AZURE_STORAGE_KEY or AZURE_STORAGE_SAS_TOKEN; Azurite's
// UseDevelopmentStorage=true), and Shared Key request signing. Keys never appear in a message.
import { createHmac } from 'node:crypto';
import { SimgrepError } from '../../errors.js';

export interface AzureSettings {
  account: string;
  /** The Blob service endpoint; for the emulator it ends with the account (/devstoreaccount1). */
  endpoint: URL;
  /** Base64 account key, or a SAS token (query string, no leading '?'). */
  accountKey?: string;
  sasToken?: string;
  credentialSource: string;
  credentialHint: string;
}

export const AZURE_API_VERSION = '2021-08-06';
// Azurite's published, well-known development account (not a secret).
const DEV_ACCOUNT = 'devstoreaccount1';
const DEV_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

type Env = Record<string, string | undefined>;

export function resolveAzureSettings(rawEnv: Env): AzureSettings {
  const env = (k: string) => rawEnv[k] || undefined;
  const conn = env('AZURE_STORAGE_CONNECTION_STRING');
  if (conn) return fromConnectionString(conn);
  const account = env('AZURE_STORAGE_ACCOUNT');
  const key = env('AZURE_STORAGE_KEY') ?? env('AZURE_STORAGE_ACCESS_KEY');
  const sas = env('AZURE_STORAGE_SAS_TOKEN');
  if (account && (key || sas)) {
    return {
      account, endpoint: new URL(`https://${account}.blob.core.windows.net`),
      accountKey: key || undefined, sasToken: sas ? sas.replace(/^\?/, '') : undefined,
      credentialSource: key ? 'AZURE_STORAGE_ACCOUNT / AZURE_STORAGE_KEY' : 'AZURE_STORAGE_ACCOUNT / AZURE_STORAGE_SAS_TOKEN',
      credentialHint: key ? 'check AZURE_STORAGE_ACCOUNT and AZURE_STORAGE_KEY' : 'check AZURE_STORAGE_SAS_TOKEN (its expiry and permissions: read, list)',
    };
  }
  throw new SimgrepError('REMOTE_CREDENTIALS', account
    ? 'AZURE_STORAGE_ACCOUNT is set but neither AZURE_STORAGE_KEY nor AZURE_STORAGE_SAS_TOKEN is; set one of them'
    : 'no Azure credentials found: set AZURE_STORAGE_CONNECTION_STRING, or AZURE_STORAGE_ACCOUNT with AZURE_STORAGE_KEY or AZURE_STORAGE_SAS_TOKEN');
}

export function fromConnectionString(conn: string): AzureSettings {
  const parts: Record<string, string> = {};
  for (const piece of conn.split(';')) {
    const eq = piece.indexOf('=');
    if (eq > 0) parts[piece.slice(0, eq).trim().toLowerCase()] = piece.slice(eq + 1).trim();
  }
  const source = 'AZURE_STORAGE_CONNECTION_STRING';
  const hint = 'check AccountName and AccountKey (or SharedAccessSignature) in AZURE_STORAGE_CONNECTION_STRING';
  if (parts.usedevelopmentstorage === 'true') {
    const proxy = parts.developmentstorageproxyuri?.replace(/\/+$/, '') ?? 'http://127.0.0.1';
    return { account: DEV_ACCOUNT, endpoint: new URL(`${proxy}:10000/${DEV_ACCOUNT}`), accountKey: DEV_KEY, credentialSource: source, credentialHint: hint };
  }
  const account = parts.accountname;
  const sas = parts.sharedaccesssignature?.replace(/^\?/, '');
  if (!account && !(parts.blobendpoint && sas)) {
    throw new SimgrepError('REMOTE_CREDENTIALS', 'AZURE_STORAGE_CONNECTION_STRING has no AccountName; copy the whole string from the portal (Access keys) or use UseDevelopmentStorage=true for Azurite');
  }
  if (!parts.accountkey && !sas) {
    throw new SimgrepError('REMOTE_CREDENTIALS', 'AZURE_STORAGE_CONNECTION_STRING has neither AccountKey nor SharedAccessSignature; add one');
  }
  let endpoint: URL;
  try {
    endpoint = new URL(parts.blobendpoint ?? `${parts.defaultendpointsprotocol ?? 'https'}://${account}.blob.${parts.endpointsuffix ?? 'core.windows.net'}`);
  } catch {
    throw new SimgrepError('REMOTE_CREDENTIALS', 'AZURE_STORAGE_CONNECTION_STRING has an invalid BlobEndpoint; it must be a URL such as https://account.blob.core.windows.net');
  }
  return { account: account ?? endpoint.hostname.split('.')[0], endpoint, accountKey: parts.accountkey || undefined, sasToken: sas || undefined, credentialSource: source, credentialHint: hint };
}

/** Shared Key authorization for a body-less request (Blob service, version 2009-09-19 and later). */
export function signSharedKey(spec: { method: string; url: URL; headers?: Record<string, string> }, account: string, accountKey: string, now = new Date()): Record<string, string> {
  const added = { 'x-ms-date': now.toUTCString(), 'x-ms-version': AZURE_API_VERSION };
  const h: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...spec.headers, ...added })) h[k.toLowerCase()] = v;
  const std = (n: string) => h[n] ?? '';
  const msHeaders = Object.keys(h).filter((n) => n.startsWith('x-ms-')).sort().map((n) => `${n}:${h[n].trim().replace(/\s+/g, ' ')}\n`).join('');
  const params = new Map<string, string[]>();
  for (const [k, v] of spec.url.searchParams) {
    const name = k.toLowerCase();
    params.set(name, [...(params.get(name) ?? []), v]);
  }
  const resource = `/${account}${spec.url.pathname || '/'}` + [...params.keys()].sort().map((k) => `\n${k}:${params.get(k)!.sort().join(',')}`).join('');
  const contentLength = std('content-length') === '0' ? '' : std('content-length');
  const toSign = [
    spec.method.toUpperCase(), std('content-encoding'), std('content-language'), contentLength, std('content-md5'), std('content-type'),
    '', std('if-modified-since'), std('if-match'), std('if-none-match'), std('if-unmodified-since'), std('range'),
  ].join('\n') + '\n' + msHeaders + resource;
  const signature = createHmac('sha256', Buffer.from(accountKey, 'base64')).update(toSign, 'utf8').digest('base64');
  return { ...added, authorization: `SharedKey ${account}:${signature}` };
}
