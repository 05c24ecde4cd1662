// One HTTP GET against the hub: manual redirects (to keep the x-repo-commit header and to drop the
// token when leaving the hub's origin), a stall watchdog, and errors that say how to fix them.
import { SimgrepError } from '../errors.js';

const MAX_REDIRECTS = 10;
export const DEFAULT_TIMEOUT_MS = 30_000;

/** Aborts when the caller aborts, or when `kick()` is not called for timeoutMs (connect, headers, body stalls). */
export interface Watchdog {
  readonly signal: AbortSignal;
  readonly timedOut: boolean;
  kick(): void;
  dispose(): void;
}

export function createWatchdog(outer: AbortSignal | undefined, timeoutMs: number): Watchdog {
  const ctl = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  const onAbort = (): void => ctl.abort(outer?.reason);
  if (outer?.aborted) ctl.abort(outer.reason);
  else outer?.addEventListener('abort', onAbort, { once: true });
  const kick = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      ctl.abort(new Error(`no data for ${timeoutMs} ms`));
    }, timeoutMs);
  };
  kick();
  return {
    signal: ctl.signal,
    get timedOut() {
      return timedOut;
    },
    kick,
    dispose() {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    },
  };
}

/** A URL safe to print: no userinfo, no query (CDN redirects carry signed query strings). */
export function printableUrl(url: string | URL): string {
  const u = new URL(url);
  u.username = '';
  u.password = '';
  u.search = '';
  return u.toString();
}

export interface HubResponse {
  res: Response;
  /** x-repo-commit from the first hop that sent it. */
  commit: string | null;
  /** x-error-code from the hub (RepositoryNotFound, RevisionNotFound, EntryNotFound, GatedRepo...). */
  errorCode: string | null;
}

export async function hubGet(url: string, opts: { token?: string; watchdog: Watchdog }): Promise<HubResponse> {
  let current = new URL(url);
  const hubOrigin = current.origin;
  let commit: string | null = null;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const headers: Record<string, string> = { 'user-agent': 'simgrep', 'accept-encoding': 'identity' };
    if (opts.token && current.origin === hubOrigin) headers.authorization = `Bearer ${opts.token}`;
    const res = await fetch(current, { headers, redirect: 'manual', signal: opts.watchdog.signal });
    opts.watchdog.kick();
    commit ??= res.headers.get('x-repo-commit');
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      await res.body?.cancel().catch(() => undefined);
      current = new URL(location, current);
      continue;
    }
    return { res, commit, errorCode: res.headers.get('x-error-code') };
  }
  throw new SimgrepError('MODEL_DOWNLOAD', `Too many redirects for ${printableUrl(url)}. Check HF_ENDPOINT.`);
}

/** Maps a hub HTTP error status to a typed error; `repoId` names the model in the message. */
export function httpError(r: HubResponse, url: string, repoId: string, hasToken: boolean): SimgrepError {
  const where = printableUrl(url);
  const status = `HTTP ${r.res.status}${r.res.statusText ? ` ${r.res.statusText}` : ''}`;
  if (r.errorCode === 'RepositoryNotFound') {
    return new SimgrepError(
      'MODEL_NOT_FOUND',
      `Model "${repoId}" was not found on the hub (${status} for ${where}). Check the id (e.g. minishlab/potion-base-8M)` +
        `${hasToken ? '' : ', or set HF_TOKEN if it is a private repository'}, or pass --model <dir>.`,
    );
  }
  if (r.errorCode === 'RevisionNotFound') {
    return new SimgrepError('MODEL_NOT_FOUND', `Revision not found for model "${repoId}" (${status} for ${where}). Check --revision.`);
  }
  if (r.res.status === 401 || r.res.status === 403) {
    return new SimgrepError(
      'MODEL_DOWNLOAD',
      `Access denied downloading "${repoId}" (${status} for ${where}). The model may be gated or private: ` +
        (hasToken ? 'the token in HF_TOKEN was refused; check that it has access.' : 'set HF_TOKEN to a token with access.'),
    );
  }
  return new SimgrepError(
    'MODEL_DOWNLOAD',
    `Downloading "${repoId}" failed: ${status} for ${where}. Retry later, or pass --model <dir> with a local copy.`,
  );
}

/** Maps a thrown fetch/stream error: caller abort -> ABORTED, watchdog -> timeout, else network failure. */
export function networkError(e: unknown, url: string, watchdog: Watchdog, outer: AbortSignal | undefined, timeoutMs: number): SimgrepError {
  if (e instanceof SimgrepError) return e;
  const where = printableUrl(url);
  if (outer?.aborted) return new SimgrepError('ABORTED', `Download of ${where} was aborted.`, { cause: e });
  if (watchdog.timedOut) {
    return new SimgrepError(
      'MODEL_DOWNLOAD',
      `Download of ${where} stalled: no data for ${timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`}. ` +
        'Check your network (or proxy), then retry.',
      { cause: e },
    );
  }
  const cause = (e as { cause?: { code?: string; message?: string } })?.cause;
  const detail = cause?.code ?? cause?.message ?? (e instanceof Error ? e.message : String(e));
  return new SimgrepError(
    'MODEL_DOWNLOAD',
    `Could not download ${where} (${detail}). Check your network connection and HF_ENDPOINT, ` +
      'or pass --model <dir> with a local copy of the model.',
    { cause: e },
  );
}
