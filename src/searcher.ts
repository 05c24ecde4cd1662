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
import { loadModel } from './model/load.js';
import { completeRows } from './model/lazy-rows.js';
import { defaultModelSpec } from './model/default-model.js';
import { runPipeline } from './pipeline.js';
import type { PipelineOutcome } from './pipeline/types.js';
import type { KeptFiles } from './pipeline/kept-files.js';
import { PooledFiles } from './pipeline/pooled-files.js';
import type { Executor } from './pool.js';
import { bundledLexicon } from './rank/lexical/lexicon.js';
import { searchLike } from './rank/related.js';
import { knownByEmbedding, knownShareOf, queryMode } from './rank/query-mode.js';
import { mergeHits, resultsPerHit, hitToResult } from './rank/windows.js';
import { createContentSource } from './sources/content.js';
import { WARM_UP_QUERY, warmUpCode, warmUpProse } from './text/warm-up-text.js';
import { checkFilterValues } from './sources/filter-options.js';
import { quotedQuery } from './text/cut.js';
import { sourcesForPaths } from './sources/resolve.js';
import { isGlob } from './sources/fs.js';
import { isRemoteUri } from './sources/uri.js';
import { localWorkWithin } from './sources/small-work.js';
import { fileKeys } from './sources/real-paths.js';
import type { Source } from './sources/source.js';
import type { EmbedderKind, ModelData } from './types.js';
import {
  deadlineOf, validate, withTypes,
  type Deadline, type SearchContentOptions, type SearchOptions, type Searcher, type SearcherOptions, type SearchResponse,
} from './searcher/api.js';
import { searchPerFile } from './searcher/per-file.js';
import { attachSeams } from './searcher/seams.js';

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
    throw new SimgrepError('BAD_FLAG', `concurrency (-J) must be a whole number >= 0 (got ${describe(opts.concurrency)}); use 0 for in-process`);
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
        // Awaited below, after the pool's module is imported: a model that fails first (a --model that does not
        // exist fails in a stat) had no handler until then, and Node ended the process on the unhandled
        // rejection, its stack printed, before the command could say what was wrong (trust47).
        m.catch(() => {});
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
      // The clock starts now, for --timeout and --stats alike: listing, model loading and the pool's start all count.
      const started = performance.now();
      const deadline = deadlineOf(o.timeoutMs);
      if (o.cluster !== undefined) {
        if (!opts.clusterSearch) {
          throw new SimgrepError('BAD_FLAG', 'this searcher has no cluster plugged in: create it with createSearcher from the simgrep package, which searches clusters');
        }
        const cfg = typeof o.cluster === 'string' ? { url: o.cluster } : o.cluster;
        return respond(await opts.clusterSearch(o, { model: opts.model ?? defaultModelSpec(), deadline, onNotice: cfg.onNotice }), o, started);
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
      return respond(await run(sources, o, small, deadline, false, (o.sources ?? []).length === 0), o, started);
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
      const started = performance.now();
      const source = createContentSource(o.name ?? '<content>', o.content);
      return respond(await run([source], o, o.content.length < IN_PROCESS_BYTES, deadlineOf(o.timeoutMs), false, true), o, started);
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
  attachSeams(searcher, {
    executor: async (pooled) => { await model(); return pooled && concurrency > 0 ? workers() : local(); },
    knownShare: async (text) => knownShare(text, await local()),
    releasePool,
    poolStarted: () => poolP !== null,
    // A walk goes to the pool only while no batch of it is under way: it never waits behind one.
    sweepWalker: () => {
      const pool = poolUp;
      // A walk that fails on the worker is walked on the search's thread (takeHanded): nothing to report here.
      return pool?.walkSweep && pool.pending === 0 ? (w) => { pool.walkSweep!(w).catch(() => {}); } : null;
    },
    shardSearch: (sources, o) => {
      validate(o);
      return run(sources, o, false, deadlineOf(o.timeoutMs), true);
    },
    pooledFiles,
    sumsUsed: () => counts.keptSumsUsed,
  });
  return searcher;
}

/** A search's outcome as the caller sees it: windows merged (or one result per hit) and the closest miss. */
/**
 * The answer of a search whose clock started at `started` (where its --timeout's did): its stats' `ms` is the
 * whole search's (before, the pipeline's alone, without the model's load, the pool's start and the query's
 * embedding, so a first search's `--stats` said 40 ms where the search took 300, and a --timeout's less than it).
 */
function respond(outcome: PipelineOutcome, o: SearchOptions | SearchContentOptions, started: number): SearchResponse {
  return {
    results: o.merge === false ? resultsPerHit(outcome.hits) : mergeHits(outcome.hits),
    more: outcome.more === true,
    closestMiss: outcome.closestMiss ? hitToResult(outcome.closestMiss) : undefined,
    warnings: outcome.warnings,
    stats: { ...outcome.stats, ms: performance.now() - started },
  };
}

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
