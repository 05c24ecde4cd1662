// Connections to the cluster's Redis (ioredis): redis:// and rediss:// (TLS) URLs with or without a
// password, failing fast with a message that never shows the password.
import type { Redis, RedisOptions } from 'ioredis';
import { SimgrepError } from '../errors.js';
import { redactUri } from '../sources/uri.js';

export const CONNECT_TIMEOUT_MS = 4000;

/** The URL as it may be shown: the password replaced by ***. */
export function shownUrl(url: string): string {
  return redactUri(url).replace(/^(rediss?:\/\/)([^@/:]+)@/i, (m, scheme: string, user: string) => (user ? `${scheme}***@` : m));
}

export function checkRedisUrl(url: string): void {
  if (!/^rediss?:\/\/[^/]/i.test(url)) {
    throw new SimgrepError('BAD_FLAG', `--cluster takes a Redis URL such as redis://host:6379 or rediss://:PASSWORD@host:6380 (got ${shownUrl(url)})`);
  }
}

/**
 * Connects and waits until Redis answers. `persistent`: reconnect forever (a worker outlives a
 * restart of Redis); otherwise give up after a few tries, so a coordinator fails instead of hanging.
 */
export async function connectRedis(url: string, o: { persistent?: boolean; name?: string } = {}): Promise<Redis> {
  checkRedisUrl(url);
  const { Redis: RedisClient } = await import('ioredis');
  const options: RedisOptions = {
    lazyConnect: true,
    connectTimeout: CONNECT_TIMEOUT_MS,
    connectionName: o.name,
    // BullMQ's blocking commands need this null; the coordinator bounds its waits itself.
    maxRetriesPerRequest: null,
    enableOfflineQueue: o.persistent === true,
    retryStrategy: (times) => (o.persistent ? Math.min(times * 200, 2000) : times > 3 ? null : 250),
  };
  const client = new RedisClient(url, options);
  let lastError: Error | null = null;
  client.on('error', (e: Error) => { lastError = e; });
  try {
    await withTimeout(client.connect(), CONNECT_TIMEOUT_MS + 1000);
    return client;
  } catch (e) {
    client.disconnect();
    throw unreachable(url, lastError ?? (e as Error));
  }
}

export function unreachable(url: string, e: Error, lost = false): SimgrepError {
  const reason = (e as NodeJS.ErrnoException).code ?? e.message;
  const what = lost ? `lost the connection to Redis at ${shownUrl(url)} during the query` : `cannot connect to Redis at ${shownUrl(url)}`;
  const hint = /NOAUTH|WRONGPASS|auth/i.test(e.message)
    ? 'check the password in the URL'
    : 'is redis-server running there, and the host, port and scheme (redis:// or rediss://) right?';
  return new SimgrepError('CLUSTER_UNAVAILABLE', `${what} (${scrub(reason, url)}); ${hint}`, { cause: e });
}

/** An error text with the URL's password taken out, should a client library have echoed it. */
function scrub(text: string, url: string): string {
  const password = /^rediss?:\/\/[^:@/]*:([^@/]+)@/i.exec(url)?.[1];
  return password ? text.split(password).join('***').split(decodeURIComponent(password)).join('***') : text;
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no answer in ${ms / 1000} s`)), ms);
    p.then((v) => { clearTimeout(t); resolve(v); }, (e) => { clearTimeout(t); reject(e); });
  });
}
