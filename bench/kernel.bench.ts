// Pooling-kernel micro-benchmark: static vs onnx score() lines/s on a potion-base-8M-shaped table
// (29528 x 256, seeded random), one process, side by side. `npm run build && node dist/bench/kernel.bench.js`
import type { PoolingKernel } from '../src/embed/embedder.js';
import { createOnnxKernel } from '../src/embed/onnx.js';
import { createStaticKernel } from '../src/embed/static.js';
import type { ModelData, TokenizedBatch } from '../src/types.js';
import { createRng } from './prng.js';

const ROWS = 29528;
const DIM = 256;
const LINES = Number(process.env.BENCH_LINES ?? 200_000);
const BATCH_LINES = 2048; // the pipeline's default batch
const REPEATS = 5;

function syntheticModel(rand: () => number): ModelData {
  const table = new Float32Array(new SharedArrayBuffer(ROWS * DIM * 4));
  for (let i = 0; i < table.length; i++) table[i] = rand() * 2 - 1;
  return { id: 'bench-potion-base-8M-shape', dir: '', tokenizerPath: '', table, rows: ROWS, dim: DIM,
    normalize: true, maxLength: 512, unkId: null };
}

/** Token sampler: uniform ids, or Zipf(s = 1) over a shuffled vocabulary, closer to real text. */
function idSampler(kind: 'zipf' | 'uniform', rand: () => number): () => number {
  if (kind === 'uniform') return () => Math.floor(rand() * ROWS);
  const ids = Int32Array.from({ length: ROWS }, (_, i) => i);
  for (let i = ROWS - 1; i > 0; i--) { const j = Math.floor(rand() * (i + 1)); [ids[i], ids[j]] = [ids[j], ids[i]]; }
  const cdf = new Float64Array(ROWS);
  let sum = 0;
  for (let r = 0; r < ROWS; r++) { sum += 1 / (r + 1); cdf[r] = sum; }
  return () => {
    const x = rand() * sum;
    let lo = 0;
    let hi = ROWS - 1;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (cdf[mid] < x) lo = mid + 1; else hi = mid; }
    return ids[lo];
  };
}

/** Batches of BATCH_LINES lines of 8..16 tokens (mean 12). */
function batches(kind: 'zipf' | 'uniform', rand: () => number): TokenizedBatch[] {
  const sample = idSampler(kind, rand);
  const out: TokenizedBatch[] = [];
  for (let first = 0; first < LINES; first += BATCH_LINES) {
    const n = Math.min(BATCH_LINES, LINES - first);
    const lineStarts = new Uint32Array(n + 1);
    for (let i = 0; i < n; i++) lineStarts[i + 1] = lineStarts[i] + 8 + Math.floor(rand() * 9);
    const ids = new Int32Array(lineStarts[n]);
    for (let t = 0; t < ids.length; t++) ids[t] = sample();
    out.push({ ids, lineStarts });
  }
  return out;
}

/** Best-of-REPEATS time per kernel, alternating kernels each round so load spikes hit both alike. */
async function timeScores(kernels: Array<[string, PoolingKernel]>, work: TokenizedBatch[], query: Float32Array) {
  const results = kernels.map(([name]) => ({ name, bestMs: Infinity, scores: [] as Float32Array[] }));
  for (const [, kernel] of kernels) await kernel.score(work[0], query); // warm-up (JIT, ORT arena)
  for (let r = 0; r < REPEATS; r++) {
    for (const [k, [, kernel]] of kernels.entries()) {
      const t0 = performance.now();
      const scores: Float32Array[] = [];
      for (const b of work) scores.push(await kernel.score(b, query));
      results[k].bestMs = Math.min(results[k].bestMs, performance.now() - t0);
      results[k].scores = scores;
    }
  }
  return results.map((x) => ({ ...x, linesPerSec: LINES / (x.bestMs / 1000) }));
}

function maxAbsDiff(a: Float32Array[], b: Float32Array[]): number {
  let m = 0;
  a.forEach((x, k) => x.forEach((v, i) => { m = Math.max(m, Math.abs(v - b[k][i])); }));
  return m;
}

async function main(): Promise<void> {
  const rng = createRng(42);
  const rand = rng.next;
  const model = syntheticModel(rand);
  const query = new Float32Array(DIM).fill(1 / Math.sqrt(DIM));
  const kernels: Array<[string, PoolingKernel]> = [
    ['static', createStaticKernel(model)],
    ['onnx', await createOnnxKernel(model)],
  ];
  console.log(`kernel score(): ${LINES} lines of 8-16 tokens, table ${ROWS} x ${DIM} F32, `
    + `batches of ${BATCH_LINES} lines, best of ${REPEATS} interleaved, 1 thread`);
  for (const kind of ['zipf', 'uniform'] as const) {
    const work = batches(kind, rand);
    const results = await timeScores(kernels, work, query);
    const base = results[0];
    for (const r of results) {
      console.log(`  ${kind.padEnd(7)} ${r.name.padEnd(6)} ${Math.round(r.linesPerSec).toLocaleString('en-US').padStart(10)} lines/s`
        + `  x${(r.linesPerSec / base.linesPerSec).toFixed(2)} vs ${base.name}`
        + (r === base ? '' : `  max |diff| ${maxAbsDiff(r.scores, base.scores).toExponential(1)}`));
    }
  }
  console.log(`  peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
  for (const [, k] of kernels) await k.close?.();
}

await main();
