// Seeded bench corpora: a tree of many small code-like files, or one huge file written as a stream.
// node dist/bench/corpus.js tree --lines 1000000 [--scale 10] [--seed 1] --out bench/corpus/tree-1m
// node dist/bench/corpus.js bigfile --bytes 1073741824 [--seed 1] --out bench/corpus/big-1g.txt
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCodeGenerator, type Lang } from './code-lines.js';
import { createRng } from './prng.js';

export const DEFAULT_SEED = 20240611;
const FILES_PER_DIR = 16;
const DIRS_PER_PARENT = 16;
const CHUNK_BYTES = 4 * 1024 * 1024;

export interface TreeOptions { out: string; lines: number; scale?: number; seed?: number }
export interface BigFileOptions { out: string; bytes: number; seed?: number }

function pickLang(r: number): Lang {
  return r < 0.35 ? 'ts' : r < 0.65 ? 'py' : r < 0.85 ? 'go' : 'md';
}

/** A marker written after a complete generation: a re-run with the same parameters is a no-op. */
function markerPath(out: string): string {
  return `${out.replace(/[/\\]+$/, '')}.done.json`;
}

function isDone(out: string, params: object): boolean {
  const marker = markerPath(out);
  if (!existsSync(marker) || !existsSync(out)) return false;
  try {
    return JSON.stringify(JSON.parse(readFileSync(marker, 'utf8')).params) === JSON.stringify(params);
  } catch {
    return false;
  }
}

/** Writes `lines * scale` lines as ~20-200 line files in nested dirs; returns files and lines written. */
export function generateTree(opts: TreeOptions): { files: number; lines: number; bytes: number } {
  const total = Math.round(opts.lines * (opts.scale ?? 1));
  const seed = opts.seed ?? DEFAULT_SEED;
  const params = { kind: 'tree', lines: total, seed };
  if (isDone(opts.out, params)) return JSON.parse(readFileSync(markerPath(opts.out), 'utf8')).stats;
  const rng = createRng(seed);
  const gen = createCodeGenerator(rng);
  const tmp = `${opts.out}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  let written = 0;
  let bytes = 0;
  let files = 0;
  let dir = '';
  const dirNames: string[] = [];
  while (written < total) {
    if (files % FILES_PER_DIR === 0) {
      const group = files / FILES_PER_DIR;
      const top = Math.floor(group / DIRS_PER_PARENT);
      if (group % DIRS_PER_PARENT === 0) dirNames[0] = `${gen.file('md', 1)[0].replace(/[^a-z]+/gi, '-').replace(/^-+|-+$/g, '').toLowerCase().slice(0, 24)}-${top}`;
      dir = path.join(tmp, dirNames[0], `mod-${group % DIRS_PER_PARENT}`, rng.chance(0.3) ? 'internal' : '');
      mkdirSync(dir, { recursive: true });
    }
    const lang = pickLang(rng.next());
    const n = Math.min(rng.int(20, 200), total - written);
    const text = gen.file(lang, n).join('\n') + '\n';
    writeFileSync(path.join(dir, `file-${files}.${lang}`), text);
    written += n;
    bytes += text.length; // ASCII only: chars == bytes
    files++;
  }
  rmSync(opts.out, { recursive: true, force: true });
  renameSync(tmp, opts.out);
  const stats = { files, lines: written, bytes };
  writeFileSync(markerPath(opts.out), JSON.stringify({ params, stats }, null, 2) + '\n');
  return stats;
}

/** Streams exactly `bytes` bytes of code-like lines (the last line is cut short but ends in '\n'). */
export function generateBigFile(opts: BigFileOptions): { lines: number; bytes: number } {
  const seed = opts.seed ?? DEFAULT_SEED;
  const params = { kind: 'bigfile', bytes: opts.bytes, seed };
  if (isDone(opts.out, params)) return JSON.parse(readFileSync(markerPath(opts.out), 'utf8')).stats;
  const rng = createRng(seed);
  const gen = createCodeGenerator(rng);
  const tmp = `${opts.out}.tmp`;
  mkdirSync(path.dirname(opts.out), { recursive: true });
  const fd = openSync(tmp, 'w');
  let left = opts.bytes;
  let lines = 0;
  try {
    let pending: string[] = [];
    let pendingBytes = 0;
    while (left > 0) {
      const text = gen.file(pickLang(rng.next()), rng.int(20, 200)).join('\n') + '\n';
      pending.push(text);
      pendingBytes += text.length;
      if (pendingBytes >= CHUNK_BYTES || pendingBytes >= left) {
        let chunk = pending.join('');
        if (chunk.length >= left) chunk = chunk.slice(0, left - 1) + '\n';
        writeSync(fd, chunk);
        left -= chunk.length;
        for (let i = chunk.indexOf('\n'); i >= 0; i = chunk.indexOf('\n', i + 1)) lines++;
        pending = [];
        pendingBytes = 0;
      }
    }
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, opts.out);
  const stats = { lines, bytes: opts.bytes };
  writeFileSync(markerPath(opts.out), JSON.stringify({ params, stats }, null, 2) + '\n');
  return stats;
}

function flag(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
}

function main(argv: string[]): void {
  const [kind] = argv;
  const out = flag(argv, 'out');
  const seed = flag(argv, 'seed') !== undefined ? Number(flag(argv, 'seed')) : undefined;
  const started = Date.now();
  if (kind === 'tree' && out) {
    const stats = generateTree({ out, lines: Number(flag(argv, 'lines') ?? 1_000_000), scale: Number(flag(argv, 'scale') ?? 1), seed });
    console.log(`${out}: ${stats.files} files, ${stats.lines} lines, ${stats.bytes} bytes (${Date.now() - started} ms)`);
  } else if (kind === 'bigfile' && out) {
    const stats = generateBigFile({ out, bytes: Number(flag(argv, 'bytes') ?? 1024 ** 3), seed });
    console.log(`${out}: ${stats.lines} lines, ${stats.bytes} bytes (${Date.now() - started} ms)`);
  } else {
    console.error('usage: corpus.js tree --lines N [--scale K] [--seed S] --out DIR\n'
      + '       corpus.js bigfile --bytes N [--seed S] --out FILE');
    process.exitCode = 2;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
