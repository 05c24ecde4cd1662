// When and how long to wait before trying a remote call again: transient statuses and transport
// failures, exponential backoff with full jitter, Retry-After honoured up to a cap.

/** Statuses worth another try: timeouts, throttling and server-side failures. */
export const TRANSIENT_STATUS = new Set([408, 429, 500, 502, 503, 504]);

/** Transport failures worth another try (a reset, a refused or timed-out connection, a DNS hiccup). */
const TRANSIENT_CODES = new Set([
  'ECONNRESET', 'ECONNREFUSED', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH',
  'TIMEOUT',
]);

const BASE_DELAY_MS = 200;
const MAX_DELAY_MS = 5_000;

/** Delay before retry number `attempt` (1-based): up to base * 2^(attempt-1), or what Retry-After asks. */
export function backoffMs(attempt: number, retryAfter?: string | null): number {
  const asked = retryAfter ? Number(retryAfter) * 1000 : NaN;
  if (asked >= 0) return Math.min(asked, MAX_DELAY_MS);
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (attempt - 1));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

/** The errno-style code of a fetch failure, looking through `cause` chains (some errors wrap them). */
export function transportCode(e: unknown): string | undefined {
  for (let cur = e as { code?: unknown; cause?: unknown } | undefined, depth = 0; cur && depth < 5; cur = cur.cause as typeof cur, depth++) {
    if (typeof cur.code === 'string') return cur.code;
  }
  return undefined;
}

export function isTransientCode(code: string | undefined): boolean {
  return code !== undefined && TRANSIENT_CODES.has(code);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) { reject(signal.reason); return; }
    const onAbort = () => { clearTimeout(timer); reject(signal!.reason); };
    const timer = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
