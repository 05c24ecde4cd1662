// The one place that turns a --model spec into a model folder: an existing local directory, else the
// Hugging Face cache, else a hub download (unless offline).
import { stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SimgrepError } from '../errors.js';
import { lookupCache, DEFAULT_REVISION } from './hf-cache.js';
import { hubCacheDir, hubEndpoint, hubOffline, hubToken } from './hf-env.js';
import { downloadModel } from './hub-download.js';
import { detectLayout, isFile, missingFiles, type ModelLayout } from './layout.js';
import type { ProgressListener } from './progress.js';

export interface ResolveOptions {
  offline?: boolean;
  cacheDir?: string;
  endpoint?: string;
  revision?: string;
  onProgress?: ProgressListener;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface ResolvedModel {
  /** The hub id, or the local directory as given. */
  id: string;
  layout: ModelLayout;
  source: 'local' | 'cache' | 'hub';
  /** models--org--name folder for cache/hub models (what to delete to force a re-download). */
  repoDir: string | null;
}

/** org/name, the shape model2vec and huggingface_hub accept for a model repository. */
const REPO_ID_RE = /^[A-Za-z0-9][\w.-]*\/[\w.-]+$/;
const REVISION_RE = /^[\w.-]+(\/[\w.-]+)*$/;

/** A model spec that names a local directory, not a Hugging Face id (mcp/outside-places.ts's too). */
export function looksLikePath(spec: string): boolean {
  return spec.startsWith('.') || spec.startsWith('~') || path.isAbsolute(spec) || spec.includes('\\');
}

/** `~` and `~/x` made the home directory's. */
export function expandHome(spec: string): string {
  return spec === '~' || spec.startsWith('~/') ? path.join(os.homedir(), spec.slice(1)) : spec;
}

async function statOrNull(p: string): Promise<Awaited<ReturnType<typeof stat>> | null> {
  try {
    return await stat(p);
  } catch {
    return null;
  }
}

export async function resolveModel(spec: string, opts: ResolveOptions = {}): Promise<ResolvedModel> {
  if (spec.trim() === '') throw new SimgrepError('MODEL_NOT_FOUND', 'The model name is empty. Pass --model <dir> or a Hugging Face id like minishlab/potion-base-8M.');
  const local = expandHome(spec);
  const info = await statOrNull(local);
  if (info || looksLikePath(spec)) {
    if (!info) {
      throw new SimgrepError(
        'MODEL_NOT_FOUND',
        `Model directory ${path.resolve(local)} does not exist. Pass --model with a directory holding config.json, ` +
          'tokenizer.json and model.safetensors, or a Hugging Face id like minishlab/potion-base-8M.',
      );
    }
    if (!info.isDirectory()) {
      throw new SimgrepError('MODEL_NOT_FOUND', `${path.resolve(local)} is a file; pass the model directory that contains it to --model.`);
    }
    return { id: spec, layout: await localLayout(path.resolve(local)), source: 'local', repoDir: null };
  }
  if (!REPO_ID_RE.test(spec)) {
    throw new SimgrepError(
      'MODEL_NOT_FOUND',
      `"${spec}" is neither a directory nor a Hugging Face model id (org/name, e.g. minishlab/potion-base-8M).`,
    );
  }
  const revision = opts.revision;
  if (revision !== undefined && (!REVISION_RE.test(revision) || revision.split('/').includes('..'))) {
    throw new SimgrepError('BAD_FLAG', `Invalid revision "${revision}": expected a branch, tag or commit hash.`);
  }
  const cacheDir = path.resolve(opts.cacheDir ?? hubCacheDir());
  const cached = await lookupCache(cacheDir, spec, revision);
  if (cached.layout) return { id: spec, layout: cached.layout, source: 'cache', repoDir: cached.repoDir };

  const envOffline = hubOffline();
  if (opts.offline || envOffline) {
    const why = envOffline ? 'HF_HUB_OFFLINE is set' : 'offline mode is on';
    throw new SimgrepError(
      'MODEL_OFFLINE',
      `Model "${spec}"${revision ? ` (revision ${revision})` : ''} is not in the Hugging Face cache (searched ${cached.repoDir}) ` +
        `and ${why}, so it cannot be downloaded. Run once with network access to download it` +
        `${envOffline ? ' (unset HF_HUB_OFFLINE)' : ''}, set HF_HUB_CACHE to the cache that has it, or pass --model <dir> with a local copy.`,
    );
  }
  const layout = await downloadModel(spec, {
    cacheDir,
    endpoint: (opts.endpoint ?? hubEndpoint()).replace(/\/+$/, ''),
    revision: revision ?? DEFAULT_REVISION,
    token: hubToken(),
    signal: opts.signal,
    timeoutMs: opts.timeoutMs,
    onProgress: opts.onProgress,
  });
  return { id: spec, layout, source: 'hub', repoDir: cached.repoDir };
}

/** A local directory must hold one complete layout; otherwise say exactly what is missing. */
async function localLayout(dir: string): Promise<ModelLayout> {
  const layout = await detectLayout(dir);
  if (layout) return layout;
  const missing = await missingFiles(dir);
  const hasModel = (await isFile(path.join(dir, 'model.safetensors'))) || (await isFile(path.join(dir, '0_StaticEmbedding', 'model.safetensors')));
  const fix = 'Copy the complete model (config.json, tokenizer.json, model.safetensors) into it, or pass --model with a complete model directory.';
  if (!hasModel && missing.length === 3) {
    throw new SimgrepError('MODEL_NOT_FOUND', `${dir} is not a model2vec model directory: it has no config.json, tokenizer.json or model.safetensors. ${fix}`);
  }
  if (missing.includes('tokenizer.json')) {
    throw new SimgrepError('TOKENIZER_CORRUPT', `${path.join(dir, 'tokenizer.json')} is missing. ${fix}`);
  }
  throw new SimgrepError('MODEL_CORRUPT', `${dir} is an incomplete model: missing ${missing.join(', ')}. ${fix}`);
}
