// Micro-benchmark: lines/s of @huggingface/tokenizers vs the native line tokenizers on real code lines
// from node_modules, or from every text file under --dir (sorted walk, deterministic). Build first, then:
// node dist/bench/tokenizer.bench.js [--lines 200000] [--dir DIR] [--tokenizer path/to/tokenizer.json ...].
// Not part of `npm test`.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Tokenizer } from '@huggingface/tokenizers';
import { createIdBuffer, createLineTokenizer } from '../src/model/tokenizer/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = [path.resolve(here, '..'), path.resolve(here, '..', '..')].find((p) => existsSync(path.join(p, 'package.json'))) ?? process.cwd();
const sharedDir = process.env.SIMGREP_SHARED_DIR ?? path.resolve(repoRoot, '..', 'shared');

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

function codeLines(max: number, dir: string | undefined): string[] {
  // --dir: any language's tree (the dev sets' corpora), so a vocabulary is timed on the code it is for.
  const wanted = dir ? (name: string) => !/\.(?:png|jpe?g|gif|ico|pdf|zip|gz|jar|class|so|a|o|bin|woff2?|ttf)$/i.test(name)
    : (name: string) => /\.(?:[cm]?js|ts)$/.test(name);
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const p = path.join(dir, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (wanted(name) && st.size < 2_000_000) files.push(p);
    }
  };
  walk(dir ?? path.join(repoRoot, 'node_modules'));
  const out: string[] = [];
  for (let i = 0; i < files.length && out.length < max; i += 3) {
    const text = readFileSync(files[i], 'utf8');
    if (text.includes('\0')) continue;
    for (const l of text.split('\n')) {
      // Like the pipeline: blank lines are skipped before tokenization.
      if (l.trim().length > 0) out.push(l);
      if (out.length >= max) break;
    }
  }
  return out;
}

function rate(lines: string[], run: (l: string) => void, minMs = 1500): number {
  let done = 0;
  const t0 = performance.now();
  do {
    for (const l of lines) run(l);
    done += lines.length;
  } while (performance.now() - t0 < minMs);
  return done / ((performance.now() - t0) / 1000);
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

function benchOne(file: string, lines: string[]): void {
  const json = JSON.parse(readFileSync(file, 'utf8'));
  const lib = new Tokenizer(json, {});
  const native = createLineTokenizer(json);
  const buf = createIdBuffer(1 << 16);
  const libLines = lines.slice(0, 20_000);
  const libRate = rate(libLines, (l) => lib.encode(l, { add_special_tokens: false }));
  const onePass = (input: string[]): number => {
    const fresh = createLineTokenizer(json);
    const t0 = performance.now();
    for (const l of input) { buf.length = 0; fresh.encodeInto(l, buf); }
    return input.length / ((performance.now() - t0) / 1000);
  };
  const coldRate = onePass(lines);
  const unique = [...new Set(lines)];
  const uniqueRate = onePass(unique);
  const warmRate = rate(lines, (l) => { buf.length = 0; native.encodeInto(l, buf); });
  const chars = lines.reduce((s, l) => s + l.length, 0) / lines.length;
  console.log(`\n${path.relative(process.cwd(), file)} -> ${native.kind}`);
  console.log(`  lines: ${fmt(lines.length)} (${fmt(unique.length)} unique, ${chars.toFixed(1)} chars/line)`);
  const row = (label: string, r: number) => console.log(`  ${label.padEnd(28)} ${fmt(r).padStart(10)} lines/s ${(r / libRate).toFixed(1).padStart(6)}x`);
  row('library', libRate);
  row('native, one pass (fresh)', coldRate);
  row('native, unique lines (fresh)', uniqueRate);
  row('native, repeated passes', warmRate);
}

function main(): void {
  const n = Number(arg('--lines', '200000'));
  const given = process.argv.flatMap((a, i) => (process.argv[i - 1] === '--tokenizer' ? [a] : []));
  const files = given.length > 0 ? given : ['test-model-float32', 'test-model-vocab-quantized']
    .map((d) => path.join(sharedDir, 'fixtures', 'model2vec', d, 'tokenizer.json'))
    .filter((f) => existsSync(f));
  if (files.length === 0) {
    console.error('no tokenizer.json found: pass --tokenizer <file> or set SIMGREP_SHARED_DIR');
    process.exitCode = 2;
    return;
  }
  const dir = process.argv.includes('--dir') ? arg('--dir', '') : undefined;
  const lines = codeLines(n, dir);
  console.log(`node ${process.version}, ${fmt(lines.length)} non-blank code lines from ${dir ?? 'node_modules'}`);
  for (const f of files) benchOne(f, lines);
}

main();
