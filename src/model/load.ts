// loadModel: resolve a --model spec (local dir -> HF cache -> hub) and read it into ModelData, with
// every table on a SharedArrayBuffer so worker threads share one copy.
import path from 'node:path';
import { SimgrepError } from '../errors.js';
import type { ModelData } from '../types.js';
import { readModelConfig } from './config.js';
import { firstNonFiniteOf } from './finite-check.js';
import type { DownloadProgress } from './progress.js';
import { resolveModel, type ResolvedModel } from './resolve.js';
import { readModelTables, type ModelTables } from './tables.js';
import { openTokenizerFile } from './tokenizer-file.js';
import type { TokenizerMeta } from './tokenizer-meta.js';

export interface LoadModelOptions {
  /** Never touch the network (also on when HF_HUB_OFFLINE=1). */
  offline?: boolean;
  /** Hugging Face hub cache; default $HF_HUB_CACHE, $HF_HOME/hub, ~/.cache/huggingface/hub. */
  cacheDir?: string;
  /** Hub base URL; default $HF_ENDPOINT or https://huggingface.co. */
  endpoint?: string;
  /** Branch, tag or commit hash; default main. */
  revision?: string;
  onProgress?: (p: DownloadProgress) => void;
  signal?: AbortSignal;
  /** Longest wait for a connection, response headers or the next chunk of a download (default 30 s). */
  timeoutMs?: number;
  /**
   * Where a float32 table of `length` floats in rows of `dim` is read: a shared array of that length the
   * caller lays out (a searcher's pool memory: embed/pool-memory.ts poolTable), or undefined for a
   * SharedArrayBuffer of its own (also when absent, and for an int8 table).
   */
  floatTable?: (length: number, dim: number) => Float32Array | undefined;
  /**
   * An int8 table is laid out, not read: its rows are read as they are met (model/lazy-rows.ts), and
   * completeRows reads the rest before any use that reads rows the tokenizer did not give.
   */
  lazyRows?: boolean;
}

export type { DownloadProgress };

/** How to fix a broken file, depending on where the model came from. */
function fixHint(r: ResolvedModel): string {
  if (r.repoDir) return `Delete ${r.repoDir} and run again to re-download it, or pass --model <dir> with a valid model.`;
  return 'Replace it with a valid copy, or pass --model with a valid model2vec model directory.';
}

export async function loadModel(spec: string, opts: LoadModelOptions = {}): Promise<ModelData> {
  const resolved = await resolveModel(spec, opts);
  const { layout } = resolved;
  const hint = fixHint(resolved);
  // The table is read from the start, beside the config and the tokenizer (it needs neither): its read (and
  // the page faults of the memory it fills, ~0.15-0.3 s of a libuv thread for the bench model's 30 MB) had
  // waited for the tokenizer's modules and cache, and a resident engine's first search waited for it in
  // turn (issue 30: the first answer from nothing). Their failures still come first, as before.
  const tablesP = readModelTables(layout.modelPath, layout.spec.tensor, hint, opts.floatTable, opts.lazyRows === true);
  // Awaited below once the config and the tokenizer are read; a failure of theirs comes first and drops it.
  tablesP.catch(() => {});
  const [config, tokenizer] = await Promise.all([
    readModelConfig(layout.configPath, layout.modulesPath, hint),
    openTokenizerFile(layout.tokenizerPath, hint),
  ]);
  if (opts.signal?.aborted) throw new SimgrepError('ABORTED', `Loading ${spec} was aborted.`);
  const tables = await tablesP;
  checkCoverage(tables, tokenizer.meta, layout.modelPath, layout.tokenizerPath, hint);
  const bad = firstNonFiniteOf(layout.modelPath, tables.table, tables.dim, tables.weights);
  if (bad) throw new SimgrepError('MODEL_CORRUPT', `${layout.modelPath}: not a number at ${bad}; the model's weights are damaged and would match nothing. ${hint}`);
  return {
    id: resolved.id,
    dir: layout.dir,
    tokenizerPath: path.resolve(layout.tokenizerPath),
    table: tables.table,
    rows: tables.rows,
    dim: tables.dim,
    ...(tables.mapping && { mapping: tables.mapping }),
    ...(tables.weights && { weights: tables.weights }),
    normalize: config.normalize,
    maxLength: config.maxLength,
    unkId: tokenizer.meta.unkId,
    ...(tokenizer.shared && { tokenizer: tokenizer.shared }),
    ...(tables.lazyRows && { lazyRows: tables.lazyRows }),
    file: tables.file,
  };
}

/** Every token id the tokenizer can emit must index the table (through mapping/weights when present). */
function checkCoverage(t: ModelTables, tok: TokenizerMeta, modelPath: string, tokenizerPath: string, hint: string): void {
  const covered = t.mapping ? t.mapping.length : t.rows;
  const what = t.mapping ? '"mapping" entries' : 'table rows';
  const problem =
    covered < tok.vocabSize
      ? `${covered} ${what} but ${tokenizerPath} has ${tok.vocabSize} tokens (the files do not belong together)`
      : t.weights && t.weights.length < tok.vocabSize
        ? `${t.weights.length} "weights" but ${tokenizerPath} has ${tok.vocabSize} tokens`
        : null;
  if (problem) throw new SimgrepError('MODEL_CORRUPT', `${modelPath}: ${problem}. ${hint}`);
}
