// What a recorded walk saves a cold indexed search of a tree with many files: walking the tree (list
// every directory, apply the ignore rules) against loading the record and checking its directories;
// the stat of every file that both are followed by is timed too, on one thread and as a search does
// it (stat-many.ts: half on a second thread above 30,000 files), median of 5. Writes the walk-record
// section of bench/RESULTS.md.   npm run build && node dist/bench/walk-record.js [FILES]
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './bench-model.js';
import { writeResultsSection } from './results.js';
import { createFsSource } from '../src/sources/fs.js';
import { loadWalkRecord, saveWalkRecord } from '../src/workspace/changes/walk-record.js';
import { statMany } from '../src/workspace/changes/stat-many.js';
import type { Walk } from '../src/workspace/changes/walk-cache.js';
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
  const split: number[] = [];
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
    const paths = loaded.entries.map((e) => e.path);
    const t2 = performance.now();
    const got = await statMany(paths);
    split.push(performance.now() - t2);
    if (got.some((x) => x !== x)) throw new Error('a file was not stat\'ed');
  }
  const median = (xs: number[]) => Math.round([...xs].sort((a, b) => a - b)[xs.length >> 1]).toLocaleString('en-US');
  const line = `${files.toLocaleString('en-US')} files in ${files / PER_DIR} directories: walked (listed, ignore rules applied) in ${median(walks)} ms; `
    + `the record (${(bytes / 1048576).toFixed(1)} MB) loaded and its directories checked in ${median(loads)} ms; either is followed by a stat of every file: ${median(stats)} ms on one thread, ${median(split)} ms as a search stats them (statMany: half on a second thread)`;
  process.stdout.write(`${line}\n`);
  writeResultsSection(path.join(REPO_ROOT, 'bench/RESULTS.md'), 'walk-record', [
    '<!-- walk-record:begin (written by node dist/bench/walk-record.js) -->',
    '## A cold indexed search of a tree with many files: recorded walk against a walk',
    '',
    `Command: \`npm run build && node dist/bench/walk-record.js ${files}\` (${new Date().toISOString().slice(0, 16)}, ${os.availableParallelism()} cores, Node ${process.version}, load ${os.loadavg()[0].toFixed(1)}), median of 5. ${line}.`,
    '<!-- walk-record:end -->',
    '',
  ].join('\n'));
  rmSync(root, { recursive: true, force: true });
  rmSync(record, { force: true });
}

main().catch((e: unknown) => { process.stderr.write(`${(e as Error)?.stack ?? String(e)}\n`); process.exitCode = 2; });
