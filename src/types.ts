// Data types shared by every stage of the pipeline (no logic here).

/**
 * A batch of lines as raw UTF-8 bytes: line i is bytes[offsets[i], offsets[i+1]) and may still end
 * with its terminator (\n or \r\n), which consumers strip. offsets has n+1 entries.
 */
export interface LineBatch {
  bytes: Uint8Array;
  offsets: Uint32Array;
}

/** Token ids of a batch of lines, flattened: line i owns ids[lineStarts[i], lineStarts[i+1]). */
export interface TokenizedBatch {
  ids: Int32Array;
  /** length n+1 */
  lineStarts: Uint32Array;
}

/** A document's lines as the kernels pool them (embed/line-cosines.ts): each line's kept token ids and the norm of its weighted row sum. */
export interface LineTokens {
  /** The model they were tokenized and pooled with (ModelData.id). */
  model: string;
  /** Token ids of all lines, line after line. */
  ids: Uint16Array | Uint32Array;
  /** Per line, where its ids start in `ids` (length: lines + 1). */
  starts: Uint32Array;
  /** Per line, |Σ weight(id) × row(id)| over its ids (0: no token, or rows summing to zero: no cosine). */
  norms: Float32Array;
  /** The distinct ids, worked out on first use (a query's dots are taken for them first, then the lines summed). */
  distinct?: Uint32Array;
}

export type EmbeddingTable = Float32Array | Int8Array;

/**
 * A loaded model2vec model, in a form that can cross to worker threads without copying the table:
 * every typed array is a view over a SharedArrayBuffer.
 */
export interface ModelData {
  /** Human-readable id: the hub id or the local directory. */
  id: string;
  /** Directory that holds config.json / tokenizer.json / model.safetensors. */
  dir: string;
  tokenizerPath: string;
  /**
   * Embedding table rows x dim, row-major, backed by a SharedArrayBuffer. I8 tables stay int8 (a
   * quarter of the memory; model2vec also uses their raw values, the per-token weights and the final
   * normalisation carry the scale); every other dtype is widened to F32.
   */
  table: EmbeddingTable;
  rows: number;
  dim: number;
  /** Optional token id -> table row (vocab-quantized models). Length = vocab size. */
  mapping?: Int32Array;
  /** Optional per-token-id weight (vocab-quantized models). Length = vocab size. */
  weights?: Float32Array;
  /** L2-normalise the mean vector (config.json "normalize"). */
  normalize: boolean;
  /** Max tokens per text (model2vec encode default 512). */
  maxLength: number;
  /** Id of the unknown token, dropped before pooling (null when the tokenizer has none). */
  unkId: number | null;
  /**
   * The compiled tokenizer as loadModel opened it, in shared memory (when it compiles): every thread's
   * scorer makes its tokenizer from these bytes instead of reading and checking tokenizer.json and its
   * cache entry again (model/tokenizer-file.ts). Absent: each opens tokenizerPath.
   */
  tokenizer?: SharedTokenizer;
  /**
   * Where the static kernel's pruning directions are shared by the threads of a searcher (embed/shared-
   * directions.ts): worked out by the first thread that needs them, read by the others. Absent: each
   * kernel works out its own.
   */
  pruneDirections?: DirectionsSlot;
  /**
   * A shared WebAssembly memory holding `table` (a float32 table: `table` is then a view of it), made by
   * the searcher (embed/pool-memory.ts): every thread's static kernel pools in WebAssembly from this one
   * copy, each in a scratch slot of its own. Without it, a kernel pools in JavaScript (or makes its own copy).
   */
  poolMemory?: PoolMemory;
  /**
   * Where the table was not read whole (model/lazy-rows.ts): rows are read in as they are met, and the
   * table's unread rows are zeros until then. Absent (or complete): every row is in.
   */
  lazyRows?: LazyRows;
  /** The model file as loaded (its real path, size, mtime, inode): what caches of values computed from its table are keyed by. */
  file?: ModelFileId;
}

/** A model file's identity when loaded. */
export interface ModelFileId { path: string; size: number; mtimeMs: number; ino: number; dev: number }

/** A file's identity as stat gives it: a file written again in place changes its mtime and ctime (to the file system's time resolution). */
export interface FileIdentity { size: number; mtimeMs: number; ctimeMs: number; ino: number; dev: number }

/**
 * A table read row by row (model/lazy-rows.ts): `rowBytes`-byte rows from byte `offset` of `file` (whose
 * identity at load was `id`), and per row whether it is in (0 no, 2 being read, 1 in; one more entry past the
 * last row: 1 once all are, 3 once a changed file may have spoilt the rows in). A SharedArrayBuffer, so a clone shares it.
 */
export interface LazyRows { file: string; offset: number; rowBytes: number; id: FileIdentity; loaded: Uint8Array }

/** A compiled tokenizer other threads open without its file: its bytes (a SharedArrayBuffer's), median token length and what tokenizer.json says of itself. */
export interface SharedTokenizer {
  compiled: Uint8Array;
  medianTokenLength: number;
  meta: { modelType: string; unkId: number | null; vocabSize: number };
}

/** A shared memory: the table's floats at byte 0, then `slots` scratch slots of `slotBytes` from `slotsAt`, claimed by a counter at byte `counterAt`. */
export interface PoolMemory { memory: WebAssembly.Memory; counterAt: number; slotsAt: number; slotBytes: number; slots: number }

/** A SharedArrayBuffer slot for up to m directions of dim coordinates: state [empty/computing/ready, count], then the values. */
export interface DirectionsSlot { state: Int32Array; values: Float64Array; m: number; dim: number }

export type EmbedderKind = 'static' | 'onnx';

/** How lines are ranked (`--mode`): fused lexical + semantic (default), embedding distance only, lexical only, or each line alone. */
export const SEARCH_MODES = ['hybrid', 'semantic', 'lexical', 'line'] as const;
export type SearchMode = typeof SEARCH_MODES[number];
/** Every name `--mode` and the actions' and MCP tools' `mode` take: the modes, and the peers' `bm25` for lexical (BM25 over identifier-aware terms). */
export const MODE_NAMES = [...SEARCH_MODES, 'bm25'] as const;
export type ModeName = typeof MODE_NAMES[number];
/** The mode a name given by a user stands for (`bm25` is the lexical mode). */
export function modeOf(name: ModeName): SearchMode {
  return name === 'bm25' ? 'lexical' : name;
}

/**
 * A prose file's lines as term postings (rank/prose-lines.ts builds and reads them; opaque elsewhere):
 * what a source that keeps them (the workspace index, in a resident process) hands the pipeline, so a
 * query's document frequencies and a bound on its best line come without reading the file.
 */
/** What a prose document's line terms are taken for: a ranking plan's terms, grams and numbers (rank/plan.ts RankPlan has them). */
export interface ProsePlanTerms {
  readonly terms: readonly { key: string; whole: boolean }[];
  readonly prose: { readonly grams: readonly string[]; readonly numbers: readonly string[] } | null;
}

export interface ProseLineTerms {
  /** Lines (blank ones included), non-blank lines, and the characters of these (ProseStats' n and mean length). */
  readonly lines: number;
  readonly docs: number;
  readonly chars: number;
  /** Bytes held (what a cache of them counts). */
  readonly bytes: number;
}

/** What a path says regardless of the query (rank/path-signals.ts pathFacts; the index caches it per file; walk records keep it: bump their FORMAT when it changes). */
export interface PathFacts {
  fileStem: string;
  /** Identifier parts of the file stem and of its parent directory. */
  names: string[];
  test: boolean;
  side: boolean;
  init: boolean;
  dts: boolean;
  /** A table, lockfile, minified bundle or source map (data-files.ts). */
  data: boolean;
}
