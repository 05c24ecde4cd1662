// An unstorage driver for Azure Blob Storage over its REST API (the stock driver needs
// @azure/storage-blob, whose current releases want Node 22, and cannot stream): List Blobs paginated
// under a prefix, streamed and resumable Get Blob, Shared Key or SAS auth, shared retries and timeouts.
import { defineDriver } from 'unstorage';
import { SimgrepError } from '../../errors.js';
import { signSharedKey } from './azure-auth.js';
import type { ListedObject, StoreDriverOptions, StreamingCapabilities, StreamingDriver } from './capabilities.js';
import { storeDriver } from './capabilities.js';
import { createHttpClient, type OpenedResponse, type RequestSpec } from './http-client.js';
import { objectReads, pagedListing, type ListingPage } from './object-stream.js';
import { buildQuery, encodeRfc3986 } from './sigv4.js';
import { isComplete, notAListing, xmlBlocks, xmlText } from './xml.js';

export interface AzureBlobDriverOptions extends StoreDriverOptions {
  container: string;
  account: string;
  /** Blob service endpoint, e.g. https://acct.blob.core.windows.net or http://127.0.0.1:10000/devstoreaccount1. */
  endpoint: URL | string;
  /** Base64 account key (Shared Key), or a SAS token. */
  accountKey?: string;
  sasToken?: string;
}

const PAGE_BLOBS = 5000;

function createAzureBlobDriver(o: AzureBlobDriverOptions): StreamingDriver {
  const endpoint = new URL(o.endpoint);
  const containerUrl = `${endpoint.origin}${endpoint.pathname.replace(/\/+$/, '')}/${encodeRfc3986(o.container)}`;
  const withSas = (query: string) => [query, o.sasToken].filter(Boolean).join('&');
  const client = createHttpClient({
    timeoutMs: o.timeoutMs,
    retries: o.retries,
    sign: o.accountKey ? (spec: RequestSpec) => signSharedKey(spec, o.account, o.accountKey!) : undefined,
  });
  const blobUrl = (key: string) => new URL(`${containerUrl}/${encodeRfc3986(key, true)}${o.sasToken ? `?${o.sasToken}` : ''}`);
  const creds = `credentials from ${o.credentialSource ?? 'the driver options'}`;

  async function fail(opened: OpenedResponse, method: string): Promise<never> {
    const body = method === 'HEAD' ? '' : await opened.text().catch(() => '');
    opened.discard();
    const { status } = opened.res;
    const code = opened.res.headers.get('x-ms-error-code') ?? xmlText(body, 'Code');
    const tag = code ? ` (${code})` : ` (HTTP ${status})`;
    switch (code) {
      case 'ContainerNotFound':
        throw new SimgrepError('PATH_NOT_FOUND', `container "${o.container}" does not exist in account "${o.account}"${tag}; check the container name and the account`);
      case 'BlobNotFound':
        throw new SimgrepError('PATH_NOT_FOUND', `no such blob${tag}; check the name`);
      case 'AuthenticationFailed':
      case 'InvalidAuthenticationInfo':
        throw new SimgrepError('REMOTE_CREDENTIALS', `the account key or SAS token was rejected${tag}, ${creds}; ${o.credentialHint ?? 'check the key'}`);
      case 'AuthorizationFailure':
        // Azurite (and some proxies) answer a bad Shared Key signature this way, not with AuthenticationFailed.
        throw new SimgrepError('REMOTE_ACCESS_DENIED', `access denied${tag}, ${creds}: the key does not match the account, or may not read and list container "${o.container}"; ${o.credentialHint ?? 'check the key'}`);
      case 'AuthorizationPermissionMismatch':
      case 'AuthorizationResourceTypeMismatch':
      case 'InsufficientAccountPermissions':
        throw new SimgrepError('REMOTE_ACCESS_DENIED', `access denied${tag}, ${creds}; the key or SAS needs read and list permission on container "${o.container}"`);
      default:
        break;
    }
    if (status === 404) throw new SimgrepError('PATH_NOT_FOUND', `not found${tag}; check the account, container and name`);
    if (status === 401 || status === 403) throw new SimgrepError('REMOTE_ACCESS_DENIED', `access denied${tag}, ${creds}`);
    if (status >= 500 || status === 429) throw new SimgrepError('REMOTE_UNAVAILABLE', `the store failed with HTTP ${status}${code ? ` ${code}` : ''} after ${opened.attempts} attempts; try again later`);
    const message = xmlText(body, 'Message')?.split('\n')[0];
    throw new SimgrepError('REMOTE_ERROR', `the store answered HTTP ${status}${code ? ` ${code}` : ''}${message ? `: ${message}` : ''}`);
  }

  async function listPage(prefix: string, recursive: boolean, marker: string | undefined, signal?: AbortSignal): Promise<ListingPage<ListedObject>> {
    const query = buildQuery({ restype: 'container', comp: 'list', prefix: prefix || undefined, maxresults: String(o.pageSize ?? PAGE_BLOBS), marker, delimiter: recursive ? undefined : '/' });
    const opened = await client.open({ method: 'GET', url: new URL(`${containerUrl}?${withSas(query)}`) }, signal);
    if (opened.res.status !== 200) return fail(opened, 'GET');
    const xml = await opened.text();
    if (!isComplete(xml, 'EnumerationResults')) throw notAListing(opened, xml, 'an Azure Blob listing (EnumerationResults)', 'check the account\'s blob endpoint (BlobEndpoint in the connection string)');
    const objects = xmlBlocks(xml, 'Blob').map((b) => {
      const size = Number(xmlText(b, 'Content-Length'));
      return { key: xmlText(b, 'Name') ?? '', size: Number.isFinite(size) ? size : undefined };
    });
    return { items: objects, cursor: xmlText(xml, 'NextMarker') || undefined };
  }

  const streaming: StreamingCapabilities = {
    listObjects: (prefix, { recursive, signal }) => pagedListing((marker) => listPage(prefix, recursive, marker, signal)),
    ...objectReads({ client, urlOf: blobUrl, isMissing: (res) => res.status === 404 && res.headers.get('x-ms-error-code') !== 'ContainerNotFound', fail }),
    uriOf: (key) => `az://${o.container}/${key}`,
  };

  return storeDriver('simgrep-azure-blob', o, streaming);
}

/** unstorage driver factory: createStorage({ driver: azureBlobDriver({ container, account, endpoint, accountKey }) }). */
export const azureBlobDriver = defineDriver(createAzureBlobDriver) as typeof createAzureBlobDriver;
