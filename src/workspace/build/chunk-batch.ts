// Chunks on their way into the store: collected until a commit's worth of lines, embedded on the
// executor (a chunk whose text hash the file had before keeps its vector), then written in order:
// the old chunks of the files the batch starts are dropped, the new ones appended, then the states
// of the files it completes recorded. Two batches overlap at most (one embedding while the other
// commits). Readers pin the last completed version, so they never see the steps in between.
import { SimgrepError } from '../../errors.js';
import type { Executor } from '../../pool.js';
import type { ChunkColumns } from '../store/arrow-rows.js';
import type { ChunkIdentifiers } from '../snapshot/chunk-features.js';
import { toFloat16Into } from '../packed/float16.js';
import type { FileState, IndexStore } from '../store/store.js';
import { writing } from '../store/writing.js';
import { unsavedStore } from '../store/unsaved-store.js';

export interface PendingChunk {
  path: string;
  start: number;
  end: number;
  chars: number;
  blank: boolean;
  identifiers: ChunkIdentifiers;
  defs: string[];
  hash: string;
  /** Its file's state as indexed (snapshot/prose-stats-file.ts documentState): what a search keys its text by. */
  state: string;
  /** The chunk's lines as bytes, and their offsets (lines + 1), for embedding. */
  bytes: Uint8Array;
  offsets: Uint32Array;
}

export interface ChunkBatchOptions {
  store: IndexStore;
  executor: Executor;
  chunkLines: number;
  /** Aborts a run paused by the test failpoint below. */
  signal?: AbortSignal;
  /**
   * The store held nothing when the run began (and the run starts each file once): no file it starts
   * has chunks to drop or a state to replace, so commits skip the deletes (each scans the chunks
   * table) and append file states instead of merging them.
   */
  fresh?: boolean;
  /**
   * After each commit: the chunks written, their vectors as float16 bits (rows x dim, as the store and
   * the snapshot file keep them), whether each has tokens, and the file states recorded.
   */
  onCommit(c: { chunks: PendingChunk[]; halves: Uint16Array; hasTokens: boolean[]; files: FileState[]; reused: number }): void;
  /**
   * Once every batch's vectors are in (in finish(), before the last commit is written): nothing more
   * is embedded, so the caller may let the executor's threads go while that commit writes.
   */
  onEmbedded?(): Promise<void> | void;
  /**
   * As each request of chunks is embedded: their exact pooled sums (chunks x dim, NaN for a chunk with no
   * token; the executor's embedChunkSums), which a resident process's scorer keeps (search/warm-chunks.ts).
   * Chunks whose vector is reused by text hash are not embedded, so not given.
   */
  onSums?(chunks: PendingChunk[], sums: Float64Array): void;
}

/** Lines per commit: big enough that commits are rare, small enough that a kill loses little. */
const COMMIT_LINES = 65_536;
/** Lines per embedding request: enough requests per commit to keep every worker busy. */
const EMBED_LINES = 2048;
/** A batch of file states alone (unchanged content, binary files) is committed at this count. */
const COMMIT_FILES = 2048;

export class ChunkBatch {
  private chunks: PendingChunk[] = [];
  /** Files started since the last commit: their old chunks (or a crashed run's) go first. */
  private starting: string[] = [];
  private hadVectors: string[] = [];
  private done: FileState[] = [];
  private lines = 0;
  private seen = 0;
  private cut = 0;
  private previous: Promise<void> = Promise.resolve();
  private older: Promise<void> = Promise.resolve();
  /** Every batch's embedding so far (a later batch's requests can finish before an earlier one's last). */
  private embedded: Promise<void> = Promise.resolve();
  private commits = 0;

  constructor(private readonly o: ChunkBatchOptions) {}

  get linesSeen(): number { return this.seen; }
  /** Chunks cut from the files read so far (written at the commit they are in). */
  get chunksSeen(): number { return this.cut; }

  fileStarted(key: string, hadVectors: boolean): void {
    this.starting.push(key);
    if (hadVectors) this.hadVectors.push(key);
  }

  async addChunk(c: PendingChunk): Promise<void> {
    this.chunks.push(c);
    this.lines += c.end - c.start;
    this.seen += c.end - c.start;
    this.cut++;
    if (this.lines >= COMMIT_LINES) await this.flush();
  }

  async fileDone(state: FileState): Promise<void> {
    this.done.push(state);
    if (this.done.length >= COMMIT_FILES) await this.flush();
  }

  async finish(): Promise<void> {
    await this.flush();
    await this.embedded;
    await this.o.onEmbedded?.();
    await this.previous;
  }

  private async flush(): Promise<void> {
    const chunks = this.chunks;
    const starting = this.starting;
    const hadVectors = this.hadVectors;
    const done = this.done;
    this.chunks = [];
    this.starting = [];
    this.hadVectors = [];
    this.done = [];
    this.lines = 0;
    if (chunks.length === 0 && done.length === 0 && starting.length === 0) return;
    // At most two batches in flight: wait for the one before the previous to land.
    await this.older;
    const before = this.previous;
    const embedding = (async () => {
      const reuse = await this.o.store.vectorsByHash(hadVectors);
      return this.embed(chunks, reuse);
    })();
    const work = (async () => {
      const { vectors, reused } = await embedding;
      await before;
      if (!this.o.fresh) await writing(() => this.o.store.deleteChunksOf(starting));
      const written = columns(chunks, vectors);
      await writing(() => this.o.store.addChunks(written));
      await writing(() => this.o.store.writeFiles({
        path: done.map((f) => f.key), size: Float64Array.from(done, (f) => f.size), mtime: Float64Array.from(done, (f) => f.mtime), ctime: Float64Array.from(done, (f) => f.ctime),
        hash: done.map((f) => f.hash), kind: done.map((f) => f.kind), lines: Int32Array.from(done, (f) => f.lines), chunks: Int32Array.from(done, (f) => f.chunks),
      }, { allNew: this.o.fresh }));
      this.o.onCommit({ chunks, halves: written.vector, hasTokens: written.hasTokens, files: done, reused });
      // A store that keeps nothing (a search's refresh for its own answer) commits nothing.
      if (this.o.store.uri !== unsavedStore.uri) await failpoint(++this.commits, this.o.signal);
    })();
    work.catch(() => {}); // awaited by the next flush or finish()
    this.older = this.previous;
    this.previous = work;
    // A failed embedding fails `work` too, which finish() throws.
    const earlier = this.embedded;
    this.embedded = embedding.then(() => earlier, () => earlier);
  }

  /** Unit vectors of the chunks (rows x dim): reused by text hash where possible, else embedded. */
  private async embed(chunks: PendingChunk[], reuse: Map<string, Float32Array>): Promise<{ vectors: Float32Array[]; reused: number }> {
    const vectors = new Array<Float32Array>(chunks.length);
    const todo: number[] = [];
    chunks.forEach((c, i) => { const v = reuse.get(c.hash); if (v) vectors[i] = v; else todo.push(i); });
    const reused = chunks.length - todo.length;
    const requests: number[][] = [];
    let lines = EMBED_LINES;
    for (const i of todo) {
      if (lines >= EMBED_LINES) { requests.push([]); lines = 0; }
      requests[requests.length - 1].push(i);
      lines += chunks[i].end - chunks[i].start;
    }
    const { executor, onSums } = this.o;
    const withSums = onSums && executor.embedChunkSums ? executor.embedChunkSums.bind(executor) : null;
    await Promise.all(requests.map(async (ids) => {
      const packed = pack(ids.map((i) => chunks[i]));
      let out: Float32Array;
      if (withSums) {
        const both = await withSums(packed);
        out = both.vectors;
        onSums!(ids.map((i) => chunks[i]), both.sums);
      } else {
        out = await executor.embedChunks(packed);
      }
      const dim = out.length / ids.length;
      ids.forEach((i, j) => { vectors[i] = out.subarray(j * dim, (j + 1) * dim); });
    }));
    return { vectors, reused };
  }
}

/**
 * Several chunks' lines as one embedding request. A file's last line may lack its newline: one is
 * added, or it would run into the next chunk's first line when the request is decoded.
 */
export function pack(chunks: { bytes: Uint8Array; offsets: Uint32Array }[]): { bytes: Uint8Array; offsets: Uint32Array; chunkStarts: Uint32Array } {
  let byteCount = 0;
  let lineCount = 0;
  const open = (c: { bytes: Uint8Array }) => c.bytes.length > 0 && c.bytes[c.bytes.length - 1] !== 10;
  for (const c of chunks) { byteCount += c.bytes.length + (open(c) ? 1 : 0); lineCount += c.offsets.length - 1; }
  const bytes = new Uint8Array(byteCount);
  const offsets = new Uint32Array(lineCount + 1);
  const chunkStarts = new Uint32Array(chunks.length + 1);
  let b = 0;
  let l = 0;
  chunks.forEach((c, j) => {
    bytes.set(c.bytes, b);
    chunkStarts[j] = l;
    const n = c.offsets.length - 1;
    for (let i = 0; i < n; i++) offsets[l + i] = b + c.offsets[i];
    b += c.bytes.length;
    if (open(c)) bytes[b++] = 10;
    l += n;
  });
  offsets[l] = b;
  chunkStarts[chunks.length] = l;
  return { bytes, offsets, chunkStarts };
}

/**
 * The chunks as store columns, their vectors rounded to float16 here, once: the store keeps these
 * bits and the run's snapshot patch shares them (half the memory of the float32 rows, which go).
 */
function columns(chunks: PendingChunk[], vectors: Float32Array[]): ChunkColumns & { vector: Uint16Array } {
  const dim = vectors[0]?.length ?? 0;
  const halves = new Uint16Array(chunks.length * dim);
  const hasTokens = vectors.map((v, i) => {
    toFloat16Into(v, halves, i * dim);
    for (let d = 0; d < v.length; d++) if (v[d] !== 0) return true;
    return false;
  });
  return {
    id: chunks.map((c) => `${c.path}:${c.start}`),
    path: chunks.map((c) => c.path),
    start: Int32Array.from(chunks, (c) => c.start),
    end: Int32Array.from(chunks, (c) => c.end),
    vector: halves,
    hasTokens,
    hash: chunks.map((c) => c.hash),
  };
}

/**
 * Test hook for crash tests: SIMGREP_FAILPOINT=pause-after-commit:N stops the run after its N-th
 * commit (until it is aborted) and says so on stderr, so a test can kill -9 or abort it at a known point.
 */
async function failpoint(commits: number, signal?: AbortSignal): Promise<void> {
  const m = /^pause-after-commit:(\d+)$/.exec(process.env.SIMGREP_FAILPOINT ?? '');
  if (!m || Number(m[1]) !== commits) return;
  process.stderr.write(`simgrep: failpoint: paused after commit ${commits}\n`);
  await new Promise((_, reject) => {
    const aborted = () => reject(new SimgrepError('ABORTED', 'indexing was aborted'));
    if (signal?.aborted) aborted(); else signal?.addEventListener('abort', aborted, { once: true });
  });
}
