// What a recorded walk saves a cold indexed search of a tree with many files: walking the tree (list
// every directory, apply the ignore rules) against loading the record and checking its directories;
// the stat of every file that both are followed by is timed too. Prints the figures (median of 5).
//   npm run build && node dist/bench/walk-record.js [FILES]
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './bench-model.js';
import { createFsSource } from '../src/sources/fs.js';
import { loadWalkRecord, saveWalkRecord } from '../src/index/walk-record.js';
import type { Walk } from '../src/index/walk-cache.js';
import type { Entry } from '../src/sources/source.js';

const files = Number(process.argv[2] ?? 150_000);
const root = path.join(REPO_ROOT, 'bench/.tmp/walk-tree');
const record = path.join(REPO_ROOT, 'bench/.tmp/walk-record.json');
const PER_DIR = 100;

async function walk(): Promise<{ walk: Walk; listed: string[] }> {
  const entries: Entry[] = [];
  const listed: string[] = [];
  for await (const e of createFsSource({ paths: [root], onListed: (d) => listed.push(d) }).list()) entries.push(e);
  return { walk: { entries, keys: entries.map((e) => path.resolve(e.path)), warnings: [] }, listed };
}

function timed<T>(fn: () => T): [T, number] {
  const t = performance.now();
  return [fn(), performance.now() - t];
}

async function main(): Promise<void> {
  rmSync(root, { recursive: true, force: true });
  for (let d = 0; d < files / PER_DIR; d++) {
    const dir = path.join(root, `pkg${d % 30}`, `mod${d}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < PER_DIR; f++) writeFileSync(path.join(dir, `file_${f}.ts`), `export const value${f} = ${d};\n`);
  }
  writeFileSync(path.join(root, '.gitignore'), 'build/\n');
  const walks: number[] = [];
  const loads: number[] = [];
  const stats: number[] = [];
  let bytes = 0;
  for (let rep = 0; rep < 5; rep++) {
    const t = performance.now();
    const w = await walk();
    walks.push(performance.now() - t);
    saveWalkRecord(record, w.walk, { roots: [root], listed: w.listed, rules: true, startedMs: Date.now(), racyMs: 0, pathFacts: true });
    bytes = statSync(record).size;
    const [loaded, ms] = timed(() => loadWalkRecord(record));
    if (!loaded || loaded.entries.length !== w.walk.entries.length) throw new Error('the walk was not recorded');
    loads.push(ms);
    stats.push(timed(() => { for (const e of loaded.entries) statSync(e.path); })[1]);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1].toFixed(0);
  process.stdout.write(`${files} files (${os.availableParallelism()} cores, load ${os.loadavg()[0].toFixed(1)}): walk ${median(walks)} ms; `
    + `record (${(bytes / 1048576).toFixed(1)} MB) loaded and checked ${median(loads)} ms; then a stat of every file ${median(stats)} ms (median of 5)\n`);
  rmSync(root, { recursive: true, force: true });
  rmSync(record, { force: true });
}

main().catch((e: unknown) => { process.stderr.write(`${(e as Error)?.stack ?? String(e)}\n`); process.exitCode = 2; });
