// Builds a model with the real potion-base-8M shape (vocab 29528 x dim 256, F32, normalize) from the
// shared fixture tokenizer and a seeded random table: bench/.tmp/potion-8m-shape. Never tracked in git.
// node dist/bench/bench-model.js [--out DIR] [--seed S]
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRng } from './prng.js';

export const BENCH_MODEL_ROWS = 29528;
export const BENCH_MODEL_DIM = 256;
const SEED = 8_000_000;

const here = path.dirname(fileURLToPath(import.meta.url));
/** The repo root, whether this runs from bench/ (tsx) or dist/bench/ (built). */
export const REPO_ROOT = [path.resolve(here, '..'), path.resolve(here, '..', '..')]
  .find((p) => existsSync(path.join(p, 'package.json'))) ?? process.cwd();
export const DEFAULT_BENCH_MODEL_DIR = path.join(REPO_ROOT, 'bench', '.tmp', 'potion-8m-shape');

/** ../shared from the repo root (fixtures, evaluation sets), or $SIMGREP_SHARED_DIR. */
export function sharedDir(): string {
  return process.env.SIMGREP_SHARED_DIR ?? path.resolve(REPO_ROOT, '..', 'shared');
}

export function sharedTokenizerPath(): string {
  return path.join(sharedDir(), 'fixtures', 'model2vec', 'test-model-float32', 'tokenizer.json');
}

function safetensors(rows: number, dim: number, seed: number): Buffer {
  const header = JSON.stringify({
    __metadata__: { format: 'pt', source: 'simgrep bench: seeded random, potion-base-8M shape' },
    embeddings: { dtype: 'F32', shape: [rows, dim], data_offsets: [0, rows * dim * 4] },
  });
  const padded = header.padEnd(Math.ceil(header.length / 8) * 8, ' ');
  const out = Buffer.alloc(8 + padded.length + rows * dim * 4);
  out.writeBigUInt64LE(BigInt(padded.length), 0);
  out.write(padded, 8, 'latin1');
  const rng = createRng(seed);
  const table = new Float32Array(out.buffer, out.byteOffset + 8 + padded.length, rows * dim);
  for (let i = 0; i < table.length; i++) table[i] = rng.normal() * 0.1;
  return out;
}

/** Creates the model dir unless a complete one is there; returns its path. */
export function buildBenchModel(out = DEFAULT_BENCH_MODEL_DIR, seed = SEED): string {
  const marker = path.join(out, 'bench-model.json');
  const params = JSON.stringify({ rows: BENCH_MODEL_ROWS, dim: BENCH_MODEL_DIM, seed });
  if (existsSync(marker) && readFileSync(marker, 'utf8').trim() === params) return out;
  const tokenizer = sharedTokenizerPath();
  if (!existsSync(tokenizer)) {
    throw new Error(`bench model: ${tokenizer} not found. The bench model borrows the potion-base-8M tokenizer from `
      + 'the shared model2vec fixtures (../shared next to the repo); set SIMGREP_SHARED_DIR to where shared/ lives.');
  }
  const vocab = Object.keys((JSON.parse(readFileSync(tokenizer, 'utf8')) as { model: { vocab: object } }).model.vocab).length;
  if (vocab !== BENCH_MODEL_ROWS) throw new Error(`bench model: ${tokenizer} has ${vocab} tokens, expected ${BENCH_MODEL_ROWS}`);
  const tmp = `${out}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  copyFileSync(tokenizer, path.join(tmp, 'tokenizer.json'));
  writeFileSync(path.join(tmp, 'config.json'), JSON.stringify({
    model_type: 'model2vec', architectures: ['StaticModel'], tokenizer_name: 'baai/bge-base-en-v1.5',
    apply_pca: BENCH_MODEL_DIM, apply_zipf: true, hidden_dim: BENCH_MODEL_DIM, seq_length: 1000000, normalize: true,
  }, null, 2) + '\n');
  writeFileSync(path.join(tmp, 'model.safetensors'), safetensors(BENCH_MODEL_ROWS, BENCH_MODEL_DIM, seed));
  writeFileSync(path.join(tmp, 'bench-model.json'), params + '\n');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(path.dirname(out), { recursive: true });
  renameSync(tmp, out);
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--out');
  const j = process.argv.indexOf('--seed');
  try {
    const dir = buildBenchModel(i >= 0 ? process.argv[i + 1] : undefined, j >= 0 ? Number(process.argv[j + 1]) : undefined);
    console.log(`bench model: ${dir}`);
  } catch (e) {
    console.error((e as Error).message);
    process.exitCode = 1;
  }
}
