// The library entry point: createSearcher() owns the model (loaded lazily, once), the worker pool and
// an in-process scorer; search() turns user options into sources and runs the pipeline.
import { availableParallelism } from 'node:os';
import { stat } from 'node:fs/promises';
import { SimgrepError } from './errors.js';
import { normalizeInPlace, unitRows } from './embed/unit.js';
import { withSharedDirections } from './embed/static.js';
import { poolTable, withPoolMemory } from './embed/pool-memory.js';
import { checkOptionTypes, describe } from './options-check.js';
import { createInProcessExecutor } from './in-process.js';
import { loadModel, type LoadModelOptions } from './model/load.js';
import { completeRows } from './model/lazy-rows.js';
import { defaultModelSpec } from './model/default-model.js';
import { runPipeline } from './pipeline.js';
import type { PipelineOutcome, SearchProgress, SearchStats } from './pipeline/types.js';
import type { KeptFiles } from './pipeline/kept-files.js';
import { PooledFiles } from './pipeline/pooled-files.js';
import type { Executor } from './pool.js';
import type { HandedWalk } from './rank/prose-sweep-walk.js';
import { SEARCH_MODES, type SearchMode } from './types.js';
import { bundledLexicon } from './rank/lexical/lexicon.js';
import { searchLike, type LikeTarget } from './rank/related.js';
import { knownByEmbedding, knownShareOf, queryMode } from './rank/query-mode.js';
import { mergeHits, mergeResults, resultsPerHit, hitToResult, type SearchResult } from './rank/windows.js';
import { createContentSource } from './sources/content.js';
import { WARM_UP_QUERY, warmUpCode, warmUpProse } from './text/warm-up-text.js';
import type { RemoteOptions } from './sources/remote/options.js';
import { extensionsWithTypes } from './sources/file-types.js';
import { checkFilterValues, type FilterValues } from './sources/filter-options.js';
import { limitHunksPerFile, limitPerFile, PER_FILE_OVERFETCH } from './output/per-file.js';
import { quotedQuery } from './text/cut.js';
import { sourcesForPaths } from './sources/resolve.js';
import { isGlob } from './sources/fs.js';
import { isRemoteUri } from './sources/uri.js';
import { localWorkWithin } from './sources/small-work.js';
import { fileKeys } from './sources/real-paths.js';
import type { Source, SourceWarning } from './sources/source.js';
import type { EmbedderKind, ModelData } from './types.js';

export interface SearcherOptions {
  /** Local model dir or Hugging Face id; default: $SIMGREP_MODEL, else the bundled model. */
  model?: string;
  /** Worker threads; 0 runs everything on the calling thread. Default: available cores. */
  concurrency?: number;
  embedder?: EmbedderKind;
  offline?: boolean;
  cacheDir?: string;
  onModelProgress?: LoadModelOptions['onProgress'];
  /**
   * Where a search with `cluster` set runs: the cluster adapter's, plugged in by the caller
   * (library.ts does, for the package's createSearcher). Without it such a search is refused.
   */
  clusterSearch?: ClusterSearch;
}

/** A search run on other machines, answering with the candidates this machine's pipeline would keep. */
export type ClusterSearch = (o: SearchOptions, ctx: ClusterSearchContext) => Promise<PipelineOutcome>;

export interface ClusterSearchContext {
  /** The model the searcher was made with (its spec): workers must run the same. */
  model: string;
  deadline: Deadline | null;
  onNotice?: (message: string) => void;
}

export { SEARCH_MODES, type SearchMode } from './types.js';

/** The file filters and per-file answers (globs, types, typesNot, extensions, perFile, filesWithMatches) are the one table's: sources/filter-options.ts. */
export interface SearchOptions extends FilterValues {
  /** What to look for; ignored (pass '') with `like`. */
  query: string;
  /**
   * Find code like the chunk at this file and 1-based line (the chunk, cut where the ranker cuts them,
   * is the query) and leave that chunk out of the answer.
   */
  like?: LikeTarget;
  /** Ranking mode (default 'hybrid'). */
  mode?: SearchMode;
  paths?: string[];
  /** Extra sources (e.g. stdin, or a caller's own Source). */
  sources?: Source[];
  topK?: number;
  maxDistance?: number;
  nLines?: number;
  ignoreCase?: boolean;
  recursive?: boolean;
  hidden?: boolean;
  noIgnore?: boolean;
  maxFileBytes?: number;
  /** Follow symbolic links in directory walks (loops are detected and reported). */
  followSymlinks?: boolean;
  /** Overall time budget: when it runs out, reading stops and the results so far are returned (with a TIMEOUT warning). */
  timeoutMs?: number;
  /** For s3://, gs://, az:// and http(s):// paths: S3 endpoint override, timeout, retries, the env settings are read from. */
  remote?: RemoteOptions;
  /** Merge overlapping windows of one file into one result (default true). */
  merge?: boolean;
  /** Lines per worker batch (tuning only; results never depend on it). */
  batchLines?: number;
  signal?: AbortSignal;
  onProgress?: (s: SearchProgress) => void;
  /**
   * Search on the workers of a cluster instead of this machine: a Redis URL (redis://, rediss://),
   * or the URL with tuning. The answer is the one this machine would give (docs/cluster.md).
   */
  cluster?: string | ClusterOptions;
  /** Internal (FRESH_ONLY): not a library option. */
  [FRESH_ONLY]?: boolean;
}

/**
 * Internal, not for callers (the MCP engine's made-up searches at its start), and so a symbol, which the
 * options' check (options-check.ts) does not list: a workspace search that finds files changed since the
 * index saw them stops there, reading and saving none of them, its answer empty with a NOT_FRESH warning
 * (workspace/search-run.ts). A scan ignores it.
 */
export const FRESH_ONLY: unique symbol = Symbol('simgrep.freshOnly');

export interface ClusterOptions {
  url: string;
  /** Give up when no worker has been listening for this long (default 30 s). */
  timeoutMs?: number;
  /** Bytes of files per shard (default 16 MiB). */
  shardBytes?: number;
  /** Said while the search runs (no worker listening yet): the CLI prints it on stderr. */
  onNotice?: (message: string) => void;
}

export interface SearchContentOptions extends Omit<SearchOptions, 'paths' | 'sources'> {
  content: string;
  /** Name used as the result filename (default "<content>"). */
  name?: string;
}

export interface SearchResponse {
  results: SearchResult[];
  /** Set when --max-distance let nothing through: the closest line, for a hint. */
  closestMiss?: SearchResult;
  warnings: SourceWarning[];
  stats: SearchStats;
  /** With filesWithMatches: the files with results, best first. */
  files?: string[];
  /** True when more matches exist than `results` holds: topK cut them (with perFile or filesWithMatches: more results under the same per-file limit). */
  more?: boolean;
}

export interface Searcher {
  search(opts: SearchOptions): Promise<SearchResponse>;
  searchContent(opts: SearchContentOptions): Promise<SearchResponse>;
  /** The model, loading it on first use. */
  model(): Promise<ModelData>;
  /** Unit-length embeddings of texts (rows x dim), as search() embeds a query. */
  embed(texts: string[]): Promise<Float32Array>;
  /**
   * Loads the model, starts the worker threads and runs one made-up search through them now, so that
   * the first search waits for none of it (a resident process that expects searches: the MCP engine).
   * Never throws: a failure shows on the search that needs them.
   */
  warm(): Promise<void>;
  close(): Promise<void>;
}

/** The filters that choose files by name (searchContent refuses them). */
const FILE_FILTER_KEYS = ['globs', 'types', 'typesNot', 'extensions'] as const;

/** The warm-up search's texts and batches: enough lines for every thread to compile its loops, a few ms of work. */
const WARM_UP_CODE_LINES = 3000;
const WARM_UP_PROSE_LINES = 600;
const WARM_UP_BATCH_LINES = 96;

/**
 * Inputs under this size are scored on the calling thread: starting workers would cost more (a pool's
 * threads each start Node and load the model's code, ~0.2-0.4 s of CPU, before their first batch).
 */
const IN_PROCESS_BYTES = 2 << 20;
/** A walk of more files than this is not small work whatever their size (it bounds the sizing walk). */
const IN_PROCESS_FILES = 1000;
/**
 * A sizing walk that has listed more directory entries than this counts the work as big, whatever its
 * filters keep (listing 10,000 entries costs ~10 ms; filters that leave out most of /usr's 117k files would
 * otherwise have the sizing walk list all of them before the search lists them again).
 */
const IN_PROCESS_ENTRIES = 10_000;

/** Worker threads beyond 2 per core only cost memory (each has its own V8 heap): -J is capped there. */
export function maxConcurrency(cores = availableParallelism()): number {
  return Math.max(4, 2 * cores);
}

export function createSearcher(opts: SearcherOptions = {}): Searcher {
  const asked = opts.concurrency ?? availableParallelism();
  if (!Number.isInteger(asked) || asked < 0) {
    throw new SimgrepError('BAD_FLAG', `concurrency must be a whole number >= 0 (got ${describe(opts.concurrency)}); use 0 for in-process`);
  }
  if (opts.embedder !== undefined && opts.embedder !== 'static' && opts.embedder !== 'onnx') {
    throw new SimgrepError('BAD_FLAG', `embedder must be 'static' or 'onnx' (got ${describe(opts.embedder)})`);
  }
  const concurrency = Math.min(asked, maxConcurrency());
  const capNote = asked > concurrency
    ? { path: '', code: 'CONCURRENCY_CAPPED', message: `-J ${asked} is more worker threads than this machine can use; using ${concurrency} (2 per core, at least 4)` }
    : null;
  const kind: EmbedderKind = opts.embedder ?? 'static';
  let modelP: Promise<ModelData> | null = null;
  let localP: Promise<Executor> | null = null;
  let poolP: Promise<Executor> | null = null;
  /** The pool once started (poolP resolved), until it is let go: what a search may hand work to without waiting for a start. */
  let poolUp: Executor | null = null;
  let searchCount = 0;

  // With a slot in which its threads share the kernel's pruning directions (computed once, not per thread),
  // and a float32 table in a shared memory from which they all pool in WebAssembly (embed/pool-memory.ts),
  // read straight into it (poolTable: not read, then copied).
  // An int8 table is read row by row as the in-process scorer's tokens meet them (model/lazy-rows.ts): a small
  // search reads a few thousand rows, not the whole table. model() reads the rest before any other use: the
  // pool's threads, an index, a workspace's kept tokens and sums, the library's callers.
  // The first use decides: a small search (run's `lazy`) loads it lazily, anything else whole, as before.
  const loaded = (lazy = false) => (modelP ??= loadModel(opts.model ?? defaultModelSpec(), {
    offline: opts.offline, cacheDir: opts.cacheDir, onProgress: opts.onModelProgress, floatTable: poolTable, lazyRows: lazy,
  }).then((m) => withPoolMemory(withSharedDirections(m))));
  const model = async () => { const m = await loaded(); await completeRows(m); return m; };
  /** The kept sums this searcher's scorers used, every executor it ever made adding into it (pooledSumsUsed). */
  const counts = { keptSumsUsed: 0 };
  const local = async (lazy = false) => (localP ??= createInProcessExecutor(await loaded(lazy), kind, counts));
  // piscina is loaded with the pool: a search answered on this thread (small, or from an index) never loads it.
  // The threads start before the model is loaded, and load their code meanwhile (embed/model-channel.ts).
  // A pool made for a search (or warm()) is asked for the kernel's pruning directions first (whatever the
  // query; ~60-100 ms of CPU on the bench model): its first free thread works them out while this thread
  // still embeds the query and reads the first files, not inside a batch of the scan, where the other
  // threads would wait for them (issue 30: the first answer from nothing).
  let boundAsked = false;
  const workers = (o: { prepareBound?: boolean; started?: () => void } = {}): Promise<Executor> => {
    if (!poolP) {
      boundAsked = o.prepareBound === true;
      poolP = (async () => {
        const m = model();
        const pool = (await import('./pool.js')).createPool({ model: m, kind, threads: concurrency, counts });
        if (o.prepareBound) void pool.prepareBound().catch(() => {});
        o.started?.();
        try {
          await m;
        } catch (e) {
          await pool.close();
          throw e;
        }
        return pool;
      })();
      const started = poolP;
      void started.then((p) => { if (poolP === started) poolUp = p; }, () => {});
      poolP.catch(() => { poolP = null; }); // the next search tries again
    } else if (o.prepareBound && !boundAsked) {
      // A pool an index build made: asked once, now (behind whatever batches the build has queued).
      boundAsked = true;
      void poolP.then((p) => p.prepareBound()).catch(() => {});
    }
    return poolP;
  };

  /** Stops the worker threads, if started; the next pooled work starts new ones. */
  const releasePool = async (): Promise<void> => {
    const pool = poolP;
    poolP = null;
    poolUp = null;
    await pool?.then((p) => p.close(), () => undefined);
  };

  // The last query's vector and known-word share: a workspace search embeds its query to pick
  // candidates, then searches them with the same query (a pasted file: ~100 ms each, more under load).
  let lastQuery: { text: string; vector: Float32Array; share?: number } | null = null;
  /** The query's raw embedding (a copy: callers normalise it in place). */
  async function embedQuery(text: string): Promise<Float32Array> {
    if (lastQuery?.text !== text) {
      const vector = await (await local()).embedTexts([text]);
      lastQuery = { text, vector };
    }
    return lastQuery.vector.slice();
  }
  /** Which words the model knows, as knownShareOf found them (a pasted file's thousands are tokenized once per process). */
  const knownWords = new Map<string, boolean>();
  async function knownShare(text: string, inProcess: Executor): Promise<number> {
    const memo = lastQuery?.text === text ? lastQuery : null;
    if (memo?.share !== undefined) return memo.share;
    // From the words' tokens alone where the executor can (in-process: no row summed), else their vectors.
    const knows = inProcess.knownTexts ? (t: string[]) => inProcess.knownTexts!(t) : knownByEmbedding((t) => inProcess.embedTexts(t));
    const share = await knownShareOf(text, knows, knownWords);
    if (memo) memo.share = share;
    return share;
  }

  /**
   * The files an index build of this process is pooling (pooledFilesOf), by key in the index (real path) or URI: each one's
   * state as indexed (a chunk key's file part, ending in its content's sha256), whose chunks' exact sums
   * the in-process scorer keeps. A scan of the tree meanwhile scores their chunks from those sums.
   */
  const pooledFiles = new PooledFiles();
  /** What a scan's pipeline needs of them (pipeline/kept-files.ts); undefined when none is kept. */
  function keptFiles(inProcess: Executor, sources: Source[], paths: string[]): KeptFiles | undefined {
    const store = pooledFiles.size > 0 && sources.every((src) => !src.pieces) ? inProcess.keptChunks?.() : undefined;
    if (!store) return undefined;
    // Each build registers its files by their keys in the index (a root reached through a symlink: its real path).
    // (A walk of an absolute root lists absolute paths: their keys need no cwd call, ~15 us each.)
    const keyOf = fileKeys(paths);
    return {
      stateOf(p) {
        const f = pooledFiles.get(keyOf(p));
        return f === undefined ? undefined : { state: f.state, sha256: f.state.slice(f.state.lastIndexOf('\0') + 1), lines: f.lines };
      },
      sumOf: (key) => store.get(key)?.sum ?? undefined,
    };
  }

  /** Stops the warm-up search (warm()) once a real search comes: its batches would only queue before the real ones. */
  let warmUp: AbortController | null = null;
  /** Set by the first real search: a warm-up not started yet is not needed any more. */
  let searched = false;

  /**
   * `lazy`: the sources give text only (paths, a string: no kept tokens or sums, which were not tokenized
   * here) and the work is small, so the table's rows are read as the tokens meet them; else the whole table first.
   */
  async function run(sources: Source[], o: SearchOptions, small: boolean, deadline: Deadline | null, candidatesOnly = false, lazy = false): Promise<PipelineOutcome> {
    if (!warmUp || o.signal !== warmUp.signal) { searched = true; warmUp?.abort(); warmUp = null; }
    const queryText = o.ignoreCase ? o.query.toLowerCase() : o.query;
    // Start the pool now: its threads boot while this thread embeds the query.
    const pooled = concurrency === 0 || small ? null : workers({ prepareBound: true });
    pooled?.catch(() => {}); // awaited below; a failure must not also surface as unhandled
    const rowByRow = lazy && small && pooledFiles.size === 0;
    const inProcess = await local(rowByRow);
    if (!rowByRow) await model();
    const query = await embedQuery(queryText);
    // A query the model cannot embed is searched by its words (with a warning), not refused.
    const asked = o.mode ?? 'hybrid';
    const share = asked === 'hybrid' ? await knownShare(queryText, inProcess) : 1;
    const { mode, rank, warning } = queryMode(o.query, asked, normalizeInPlace(query), bundledLexicon(), share);
    const executor = pooled ? await pooled : inProcess;
    const maxDistance = o.maxDistance;
    const topK = o.topK ?? (maxDistance !== undefined ? Infinity : 3);
    const outcome = await runPipeline({
      sources, executor, query, queryKey: `${++searchCount}:${queryText}`,
      topK, maxDistance, nLines: o.nLines ?? 3, ignoreCase: !!o.ignoreCase, rank,
      signal: o.signal, onProgress: o.onProgress, batchLines: o.batchLines,
      maxFileBytes: o.maxFileBytes, deadline: deadline ?? undefined, candidatesOnly, kept: keptFiles(inProcess, sources, o.paths ?? []),
    });
    // A query of stop words only ("the of and a") has nothing to match: no lexical term, and an
    // embedding of words that carry no topic, near every line alike. Any hybrid hit is chance, of
    // negligible relevance: none is a match (exit 1). --mode semantic still gives the nearest lines.
    if (mode === 'hybrid' && rank!.terms.length === 0 && /[\p{L}\p{N}]/u.test(o.query) && !candidatesOnly) {
      // A query with a number and no other word ("1964", "in 1964"): the number is a prose term only beside
      // words (a stop word is none), so the numbers note, which says to add a word.
      const note = !/\p{N}/u.test(o.query)
        ? { path: '', code: 'QUERY_STOP_WORDS', message: `the query ${quotedQuery(o.query)} has only common words (stop words), which match any line by chance: no match; use identifiers or words, or --mode semantic for the nearest lines anyway` }
        : { path: '', code: 'QUERY_NUMBERS_ONLY', message: `the query ${quotedQuery(o.query)} has numbers but no word: a number is looked up only beside a query's words; add a word beside it, or use --mode lexical for the lines that hold it (--mode line for the nearest lines)` };
      return { ...outcome, hits: [], more: false, closestMiss: null, warnings: [note, ...(capNote ? [capNote] : []), ...outcome.warnings] };
    }
    const notes = [capNote, warning].filter((w) => w !== null && w !== undefined);
    return notes.length > 0 ? { ...outcome, warnings: [...notes, ...outcome.warnings] } : outcome;
  }

  const searcher: Searcher = {
    model,
    async embed(texts) {
      const v = texts.length === 1 ? await embedQuery(texts[0]) : await (await local()).embedTexts(texts);
      return texts.length > 0 ? unitRows(v, v.length / texts.length) : v;
    },
    async search(o) {
      checkOptionTypes(o);
      checkFilterValues(o, 'library');
      // Per file first: the chunk a like-search leaves out must not take its file's place.
      if (o.perFile !== undefined || o.filesWithMatches) return searchPerFile(o, (x) => searcher.search(x));
      if (o.like) return searchLike(o, (x) => searcher.search(x));
      if (o.types) return searcher.search(withTypes(o));
      validate(o);
      // The clock starts now: listing, model loading and the pool's start all count.
      const deadline = deadlineOf(o.timeoutMs);
      if (o.cluster !== undefined) {
        if (!opts.clusterSearch) {
          throw new SimgrepError('BAD_FLAG', 'this searcher has no cluster plugged in: create it with createSearcher from the simgrep package, which searches clusters');
        }
        const cfg = typeof o.cluster === 'string' ? { url: o.cluster } : o.cluster;
        return respond(await opts.clusterSearch(o, { model: opts.model ?? defaultModelSpec(), deadline, onNotice: cfg.onNotice }), o);
      }
      const paths = o.paths ?? [];
      const sources: Source[] = [...(o.sources ?? [])];
      const walk = {
        recursive: o.recursive, hidden: o.hidden, noIgnore: o.noIgnore,
        extensions: o.extensions, typesNot: o.typesNot, globs: o.globs, maxFileBytes: o.maxFileBytes, remote: o.remote, followSymlinks: o.followSymlinks,
        unique: paths.length > 1 ? fileKeys(paths) : undefined,
      };
      if (paths.length > 0) sources.unshift(...await sourcesForPaths(paths, walk));
      if (sources.length === 0) throw new SimgrepError('BAD_FLAG', 'nothing to search: pass paths, or pipe text on stdin');
      // Small work (a few files, a small tree: under IN_PROCESS_BYTES as a walk lists them, which stops
      // once past it) is scored on this thread: the pool's start would cost more than it saves. Where the
      // pool already runs (a resident engine's warm(), an earlier big search) its start is paid: only named
      // files are sized (a stat each), a directory goes to the pool as before, with no sizing walk on its way.
      const small = (o.sources ?? []).every((src) => src.small === true)
        && (paths.length === 0 || (poolP !== null ? await namedFileBytes(paths) < IN_PROCESS_BYTES
          : await localWorkWithin(paths, walk, { maxBytes: IN_PROCESS_BYTES, maxFiles: IN_PROCESS_FILES, maxEntries: IN_PROCESS_ENTRIES }, o.signal)));
      return respond(await run(sources, o, small, deadline, false, (o.sources ?? []).length === 0), o);
    },
    async searchContent(o) {
      checkOptionTypes(o);
      if (typeof o.content !== 'string') throw new SimgrepError('BAD_FLAG', `searchContent needs content, the text to search, as a string (got ${describe(o.content)})`);
      checkFilterValues(o, 'library');
      // File filters choose files by name: over one given text they would silently keep or drop all of it.
      const filters = FILE_FILTER_KEYS.filter((k) => o[k] !== undefined);
      if (filters.length > 0) {
        throw new SimgrepError('BAD_FLAG', `searchContent searches the text it is given, so file filters have nothing to choose from: drop ${filters.join(', ')} (they apply to search() over paths)`);
      }
      // Paths or sources beside the content were ignored, and the caller thought them searched (trial33).
      const elsewhere = (['paths', 'sources'] as const).filter((k) => (o as { paths?: unknown[]; sources?: unknown[] })[k]?.length);
      if (elsewhere.length > 0) {
        throw new SimgrepError('BAD_FLAG', `searchContent searches only the text it is given: drop ${elsewhere.join(' and ')}, or call search() for them`);
      }
      if (o.perFile !== undefined || o.filesWithMatches) return searchPerFile(o, (x) => searcher.searchContent(x));
      validate(o);
      const source = createContentSource(o.name ?? '<content>', o.content);
      return respond(await run([source], o, o.content.length < IN_PROCESS_BYTES, deadlineOf(o.timeoutMs), false, true), o);
    },
    async warm() {
      try {
        // The kernel's pruning directions are worked out now, on a worker thread where there are any (the
        // pool's first task), rather than inside the first search that prunes (issue 30: the agent's first
        // answer, a scan of the whole tree).
        // Every search's plan reads the bundled lexicon (1.4 MB, ~25 ms of CPU): parsed while the model is read
        // (libuv's thread) and, with a pool, once its threads have been started (not before: that would hold
        // them back), not on the first search's way to its first batch, after the model (branch boot35). A
        // lexicon that cannot be read fails the search that needs it.
        const parseLexicon = (): void => { try { bundledLexicon(); } catch { /* said by that search */ } };
        const loading = concurrency > 0 ? workers({ prepareBound: true, started: parseLexicon }) : model();
        if (concurrency === 0) parseLexicon();
        await loading;
        const inProcess = await local();
        if (concurrency === 0 && !searched) void inProcess.prepareBound().catch(() => {});
        // One made-up search through the pool: each thread builds its tokenizer and scorer and compiles
        // its hot loops now, not inside the first real search (on the 1M-line bench tree that first
        // scan cost ~1.5 s of CPU more than the next one; docs/agents.md). Its answer is dropped, and a
        // real search that comes meanwhile stops it (the batches already sent still warm their threads).
        if (searched) return;
        const texts = [createContentSource('warm-up.ts', warmUpCode(WARM_UP_CODE_LINES)), createContentSource('warm-up.md', warmUpProse(WARM_UP_PROSE_LINES))];
        const stop = warmUp = new AbortController();
        await run(texts, { query: WARM_UP_QUERY, topK: 10, batchLines: WARM_UP_BATCH_LINES, signal: stop.signal }, concurrency === 0, null).finally(() => {
          if (warmUp === stop) warmUp = null;
        });
      } catch {
        // A model that cannot load fails the search that needs it, with its own error.
      }
    },
    async close() {
      const inProcess = localP;
      localP = null;
      await Promise.all([releasePool(), inProcess?.then((l) => l.close(), () => undefined)]);
    },
  };
  // The indexer and a workspace's searches score tokens and sums not tokenized here: the whole table first.
  executors.set(searcher, async (pooled) => { await model(); return pooled && concurrency > 0 ? workers() : local(); });
  knownShares.set(searcher, async (text) => knownShare(text, await local()));
  pooledFileMaps.set(searcher, pooledFiles);
  sumsUsed.set(searcher, () => counts.keptSumsUsed);
  poolReleases.set(searcher, releasePool);
  poolStarts.set(searcher, () => poolP !== null);
  // A walk goes to the pool only while no batch of it is under way: it never waits behind one.
  sweepWalkers.set(searcher, () => {
    const pool = poolUp;
    // A walk that fails on the worker is walked on the search's thread (takeHanded): nothing to report here.
    return pool?.walkSweep && pool.pending === 0 ? (w) => { pool.walkSweep!(w).catch(() => {}); } : null;
  });
  shardSearches.set(searcher, (sources, o) => {
    validate(o);
    return run(sources, o, false, deadlineOf(o.timeoutMs), true);
  });
  return searcher;
}

/** A search's outcome as the caller sees it: windows merged (or one result per hit) and the closest miss. */
function respond(outcome: PipelineOutcome, o: SearchOptions | SearchContentOptions): SearchResponse {
  return {
    results: o.merge === false ? resultsPerHit(outcome.hits) : mergeHits(outcome.hits),
    more: outcome.more === true,
    closestMiss: outcome.closestMiss ? hitToResult(outcome.closestMiss) : undefined,
    warnings: outcome.warnings,
    stats: outcome.stats,
  };
}

const executors = new WeakMap<Searcher, (pooled: boolean) => Promise<Executor>>();
const knownShares = new WeakMap<Searcher, (query: string) => Promise<number>>();
const poolReleases = new WeakMap<Searcher, () => Promise<void>>();
const poolStarts = new WeakMap<Searcher, () => boolean>();
const sweepWalkers = new WeakMap<Searcher, () => ((w: HandedWalk) => void) | null>();
const shardSearches = new WeakMap<Searcher, (sources: Source[], o: SearchOptions) => Promise<PipelineOutcome>>();

const pooledFileMaps = new WeakMap<Searcher, PooledFiles>();
const sumsUsed = new WeakMap<Searcher, () => number>();

/**
 * How many chunks the searcher's scans have scored from an index build's kept sums (pooledFilesOf), as its
 * scorers counted them: a sum sent along with a batch whose chunk was dropped by its lexical bound first is
 * not one (tests, benches).
 */
export function pooledSumsUsed(searcher: Searcher): number {
  return sumsUsed.get(searcher)?.() ?? 0;
}

/**
 * The files whose chunks' exact sums an index build of this process hands the searcher's in-process scorer
 * (workspace/search/warm-chunks.ts builtSums), and the prose documents it keeps, path -> state
 * (snapshot/prose-stats-file.ts documentState: its last field the content's sha256): a scan meanwhile
 * scores those chunks from the sums, and takes those documents' counted line terms, where it reads the same
 * bytes. Each build registers its own entries (PooledFiles.build) and lets go of them once its index is
 * published (searches use the index then); another build's stay.
 */
export function pooledFilesOf(searcher: Searcher): PooledFiles {
  const m = pooledFileMaps.get(searcher);
  if (!m) throw new SimgrepError('INTERNAL', 'not a searcher made by createSearcher()');
  return m;
}

/**
 * The searcher's search over given sources, answering with the ranked candidates as kept (before they
 * are spread across files and merged into windows): what a cluster worker returns for a shard.
 */
export function shardSearchOf(searcher: Searcher): (sources: Source[], o: SearchOptions) => Promise<PipelineOutcome> {
  const get = shardSearches.get(searcher);
  if (!get) throw new SimgrepError('INTERNAL', 'not a searcher made by createSearcher()');
  return get;
}

/**
 * Where a prose sweep's walk can be handed to run beside this thread (rank/prose-sweep.ts walkAhead): a
 * worker of the searcher's pool, when the pool has started and no batch is under way on it; else null
 * (walked on this thread).
 */
export function sweepWalkerOf(searcher: Searcher): ((w: HandedWalk) => void) | null {
  return sweepWalkers.get(searcher)?.() ?? null;
}

/** Whether the searcher has started its worker threads (and not let them go since): tests, benches. */
export function workersStarted(searcher: Searcher): boolean {
  return poolStarts.get(searcher)?.() ?? false;
}

/**
 * Stops the searcher's worker threads, if it started them, and frees their memory (a big index build
 * does before it builds its snapshot); the next search that needs them starts them again.
 */
export async function releaseWorkersOf(searcher: Searcher): Promise<void> {
  await poolReleases.get(searcher)?.();
}

/**
 * The share of a query's words the searcher's model knows, as its hybrid search plans by (memoised for the
 * last query embedded): a workspace search plans its candidates and prose listing by the same share, so
 * the pipeline ranks with that very plan (rank/plan.ts buildRankPlan).
 */
export function knownShareFor(searcher: Searcher, query: string): Promise<number> {
  const get = knownShares.get(searcher);
  if (!get) throw new SimgrepError('INTERNAL', 'not a searcher made by createSearcher()');
  return get(query);
}

/** The searcher's worker pool (pooled) or in-process scorer, for the workspace indexer. */
export function executorOf(searcher: Searcher, pooled: boolean): Promise<Executor> {
  const get = executors.get(searcher);
  if (!get) throw new SimgrepError('INTERNAL', 'not a searcher made by createSearcher()');
  return get(pooled);
}

export type Deadline = { signal: AbortSignal; seconds: number };

/** Total size of the given paths when all are plain local files; Infinity when any is a directory, glob or URI. */
async function namedFileBytes(paths: string[]): Promise<number> {
  let total = 0;
  for (const p of paths) {
    if (isRemoteUri(p)) return Infinity;
    try {
      const s = await stat(p);
      if (!s.isFile()) return Infinity;
      total += s.size;
    } catch {
      if (isGlob(p)) return Infinity;
      // A missing path is reported by the source.
    }
  }
  return total;
}

function deadlineOf(timeoutMs: number | undefined): Deadline | null {
  if (timeoutMs === undefined) return null;
  return { signal: AbortSignal.timeout(timeoutMs), seconds: timeoutMs / 1000 };
}

/** The options with `types` turned into the extensions they mean (one table: sources/file-types.ts). */
export function withTypes<O extends SearchOptions>(o: O): O {
  return { ...o, extensions: extensionsWithTypes(o.extensions, o.types), types: undefined };
}

/**
 * perFile and filesWithMatches: more candidates are ranked (PER_FILE_OVERFETCH per result wanted) so
 * that K results remain once each file keeps its best N; with filesWithMatches, N is 1 unless given. Where
 * fewer than K remain and the ranked pool overflowed (a few files held all of it), the pool is widened
 * PER_FILE_OVERFETCH times and ranked again, until K remain or it holds every match: K files come back
 * whenever K files match.
 */
export async function searchPerFile<O extends SearchOptions | SearchContentOptions>(o: O, run: (o: O) => Promise<SearchResponse>): Promise<SearchResponse> {
  const k = o.topK ?? (o.maxDistance !== undefined ? Infinity : 3);
  let pool = Number.isFinite(k) ? k * PER_FILE_OVERFETCH : o.topK;
  for (;;) {
    // One result per hit, cut per file, then merged: the pool's windows merged first made a file's whole
    // run of hits one hunk before the cut (a file matching on every other line came back whole; audit44).
    // Merged, a file keeps its best hits whose windows stay apart, so that each is a hunk of its own.
    const r = await run({ ...o, perFile: undefined, filesWithMatches: undefined, topK: pool, merge: false });
    const kept = o.merge === false ? limitPerFile(r.results, o.perFile ?? 1) : mergeResults(limitHunksPerFile(r.results, o.perFile ?? 1));
    if (kept.length < k && r.more === true && pool !== undefined) { pool *= PER_FILE_OVERFETCH; continue; }
    const results = kept.slice(0, k);
    // More under the same per-file limit: a page cut by k, or a full page from a pool that overflowed (the
    // pool's own overflow says nothing when fewer than k files came back: every file did, review of trial39).
    const more = kept.length > results.length || (r.more === true && results.length === k);
    return o.filesWithMatches ? { ...r, results, more, files: [...new Set(results.map((x) => x.filename))] } : { ...r, results, more };
  }
}

/** Checks a search's options (types and ranges): throws a SimgrepError that says what to fix. */
export function validate(o: SearchOptions | SearchContentOptions): void {
  checkOptionTypes(o);
  if (o.timeoutMs !== undefined && !(o.timeoutMs > 0)) {
    throw new SimgrepError('BAD_FLAG', `--timeout must be a number of seconds > 0 (got ${o.timeoutMs / 1000})`);
  }
  if (typeof o.query !== 'string' || o.query.trim() === '') {
    throw new SimgrepError('BAD_QUERY', 'the query is empty; pass what you are looking for, e.g. simgrep "retry failed uploads" ./src');
  }
  if (o.mode !== undefined && !(SEARCH_MODES as readonly string[]).includes(o.mode)) {
    throw new SimgrepError('BAD_FLAG', `--mode must be one of ${SEARCH_MODES.join(', ')} (got ${String(o.mode)})`);
  }
  if (o.topK !== undefined && (!Number.isInteger(o.topK) || o.topK <= 0)) {
    throw new SimgrepError('BAD_FLAG', `--top-k must be a whole number >= 1 (got ${o.topK})`);
  }
  if (o.maxDistance !== undefined && (!Number.isFinite(o.maxDistance) || o.maxDistance < 0)) {
    throw new SimgrepError('BAD_FLAG', `--max-distance must be a number >= 0 (cosine distance, 0..2; got ${o.maxDistance})`);
  }
  if (o.maxFileBytes !== undefined && (!Number.isInteger(o.maxFileBytes) || o.maxFileBytes < 0)) {
    throw new SimgrepError('BAD_FLAG', `--max-filesize must be a whole number of bytes >= 0 (got ${o.maxFileBytes})`);
  }
  if (o.nLines !== undefined && (!Number.isInteger(o.nLines) || o.nLines < 0)) {
    throw new SimgrepError('BAD_FLAG', `--n-lines must be a whole number >= 0 (got ${o.nLines})`);
  }
}
