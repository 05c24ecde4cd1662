// Downloads a model2vec model from the hub into the standard huggingface_hub cache layout:
// temp file + rename per file, refs/{revision} written last, concurrent requests de-duplicated. A failed
// or aborted download removes its temp files; ones a killed process left are swept by the next.
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { SimgrepError } from '../errors.js';
import { incompleteName, sweepStaleIncomplete, trackIncomplete } from './download-temps.js';
import { repoCacheDir, readRef, snapshotDir, writeRef } from './hf-cache.js';
import {
  createWatchdog,
  DEFAULT_TIMEOUT_MS,
  httpError,
  hubGet,
  networkError,
  printableUrl,
  type HubResponse,
  type Watchdog,
} from './hub-http.js';
import { detectLayout, isFile, MODULES_FILE, type ModelLayout } from './layout.js';
import type { ProgressListener } from './progress.js';

export interface DownloadOptions {
  cacheDir: string;
  endpoint: string;
  revision: string;
  token?: string;
  signal?: AbortSignal;
  /** Longest wait for a connection, response headers or the next body chunk. */
  timeoutMs?: number;
  onProgress?: ProgressListener;
}

interface Job {
  promise: Promise<ModelLayout>;
  listeners: Set<ProgressListener>;
}

/** In-flight downloads per (repo, revision): concurrent loads of one model share one download. */
const jobs = new Map<string, Job>();
/** In-flight writes per destination file (different revisions can resolve to one commit). */
const writes = new Map<string, Promise<void>>();

export function downloadModel(repoId: string, opts: DownloadOptions): Promise<ModelLayout> {
  const key = `${repoCacheDir(opts.cacheDir, repoId)}\0${opts.revision}`;
  let job = jobs.get(key);
  if (!job) {
    const listeners = new Set<ProgressListener>();
    const emit: ProgressListener = (p) => listeners.forEach((l) => l(p));
    const promise = runDownload(repoId, opts, emit).finally(() => jobs.delete(key));
    job = { promise, listeners };
    jobs.set(key, job);
  }
  if (opts.onProgress) job.listeners.add(opts.onProgress);
  return job.promise;
}

interface Ctx {
  repoId: string;
  repoDir: string;
  opts: DownloadOptions;
  timeoutMs: number;
  signal: AbortSignal;
  emit: ProgressListener;
  /** Pinned by the first response so every file comes from one commit. */
  commit: string | null;
}

async function runDownload(repoId: string, opts: DownloadOptions, emit: ProgressListener): Promise<ModelLayout> {
  const repoDir = repoCacheDir(opts.cacheDir, repoId);
  // One failure cancels the sibling downloads of the same model.
  const ctl = new AbortController();
  const onAbort = (): void => ctl.abort(opts.signal?.reason);
  if (opts.signal?.aborted) ctl.abort(opts.signal.reason);
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  const ctx: Ctx = {
    repoId, repoDir, opts, emit,
    timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    signal: ctl.signal,
    commit: await readRef(repoDir, opts.revision),
  };
  await sweepStaleIncomplete(path.join(repoDir, 'snapshots'));
  let firstError: unknown;
  const get = (file: string, required: boolean): Promise<boolean> =>
    fetchToCache(ctx, file, required).catch((e: unknown) => {
      if (firstError === undefined) {
        firstError = e;
        ctl.abort();
      }
      throw e;
    });
  // Waits for every sibling to settle (and clean up its temp file) before reporting the first failure.
  const all = async (files: Array<[string, boolean]>): Promise<void> => {
    await Promise.allSettled(files.map(([f, required]) => get(f, required)));
    if (firstError !== undefined) throw firstError;
  };
  try {
    // Probe the layouts in model2vec's order: config.json, then sentence-transformers.
    if (await get('config.json', false)) {
      await all([['tokenizer.json', true], ['model.safetensors', true], [MODULES_FILE, false]]);
    } else if (await get('config_sentence_transformers.json', false)) {
      await get(MODULES_FILE, false);
      if (await get('model.safetensors', false)) await get('tokenizer.json', true);
      else await all([['0_StaticEmbedding/model.safetensors', true], ['0_StaticEmbedding/tokenizer.json', true]]);
    } else {
      throw new SimgrepError(
        'MODEL_DOWNLOAD',
        `"${repoId}" has no config.json (HTTP 404 for ${fileUrl(ctx, 'config.json')}): it is not a model2vec model. ` +
          'Pick a model2vec model such as minishlab/potion-base-8M.',
      );
    }
    const commit = ctx.commit ?? opts.revision;
    await writeRef(repoDir, opts.revision, commit);
    const layout = await detectLayout(snapshotDir(repoDir, commit));
    if (!layout) throw new SimgrepError('INTERNAL', `Downloaded "${repoId}" but ${snapshotDir(repoDir, commit)} is incomplete.`);
    return layout;
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

function fileUrl(ctx: Ctx, file: string): string {
  const rev = encodeURIComponent(ctx.commit ?? ctx.opts.revision);
  const filePath = file.split('/').map(encodeURIComponent).join('/');
  return `${ctx.opts.endpoint}/${ctx.repoId}/resolve/${rev}/${filePath}`;
}

/** Puts `file` into snapshots/{commit}/; false when it is optional and the repo does not have it. */
async function fetchToCache(ctx: Ctx, file: string, required: boolean): Promise<boolean> {
  if (ctx.commit && (await isFile(path.join(snapshotDir(ctx.repoDir, ctx.commit), file)))) return true;
  const url = fileUrl(ctx, file);
  const watchdog = createWatchdog(ctx.signal, ctx.timeoutMs);
  try {
    const r = await hubGet(url, { token: ctx.opts.token, watchdog });
    const missing = r.res.status === 404 && (r.errorCode === null || r.errorCode === 'EntryNotFound');
    if (missing && !required) {
      await r.res.body?.cancel().catch(() => undefined);
      return false;
    }
    if (!r.res.ok) {
      await r.res.body?.cancel().catch(() => undefined);
      throw httpError(r, url, ctx.repoId, ctx.opts.token !== undefined);
    }
    ctx.commit ??= r.commit ?? ctx.opts.revision;
    const dest = path.join(snapshotDir(ctx.repoDir, ctx.commit), ...file.split('/'));
    const pending = writes.get(dest);
    if (pending) {
      await r.res.body?.cancel().catch(() => undefined);
      await pending;
      return true;
    }
    const write = saveBody(r, dest, { file, url }, watchdog, ctx.emit).finally(() => writes.delete(dest));
    writes.set(dest, write);
    await write;
    return true;
  } catch (e) {
    throw networkError(e, url, watchdog, ctx.signal, ctx.timeoutMs);
  } finally {
    watchdog.dispose();
  }
}

function expectedBytes(res: Response): number | null {
  const encoding = res.headers.get('content-encoding');
  if (encoding && encoding !== 'identity') return null;
  const n = Number(res.headers.get('content-length') ?? NaN);
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

/** Streams the body to a temp file beside `dest`, then renames: readers never see a partial file. */
async function saveBody(
  r: HubResponse,
  dest: string,
  { file, url }: { file: string; url: string },
  watchdog: Watchdog,
  emit: ProgressListener,
): Promise<void> {
  await mkdir(path.dirname(dest), { recursive: true });
  const tmp = incompleteName(dest);
  const total = expectedBytes(r.res);
  // Known before it exists: a Ctrl-C that lands while the file is being created still removes it.
  const untrack = trackIncomplete(tmp);
  let fh;
  try {
    fh = await open(tmp, 'w');
  } catch (e) {
    untrack();
    throw e;
  }
  let closed = false;
  try {
    let received = 0;
    emit({ file, received, total });
    if (r.res.body) {
      for await (const chunk of r.res.body) {
        watchdog.kick();
        await fh.write(chunk);
        received += chunk.byteLength;
        emit({ file, received, total });
      }
    }
    if (total !== null && received !== total) {
      throw new SimgrepError('MODEL_DOWNLOAD', `Download of ${printableUrl(url)} was cut off after ${received} of ${total} bytes. Retry; nothing partial was kept.`);
    }
    await fh.sync();
    await fh.close();
    closed = true;
    await rename(tmp, dest);
  } catch (e) {
    if (!closed) await fh.close().catch(() => undefined);
    await rm(tmp, { force: true });
    throw e;
  } finally {
    untrack();
  }
}
