#!/usr/bin/env node
// Where a test run's wall time went, from vitest's JSON report (.ci/run writes one; or
// `npx vitest run --reporter=json --outputFile.json=FILE`): node .ci/timeline.mjs FILE [WORKERS] [--files]
// Prints the wall and the summed file time; the seconds during which 0, 1, 2... files ran; the gaps
// between one file's end and the next file's start on a worker (vitest's file time runs from its first
// test's start to its last test's end, so a gap holds a fork and its imports, and the files' beforeAll and
// afterAll hooks too: an index build or a server's start there is a gap); and the wall the same file times
// would take if started slowest first (LPT), so a scheduling tail (a long file started last) shows as the
// difference.
import { readFileSync } from 'node:fs';

const [file, workersArg, ...rest] = process.argv.slice(2);
if (!file) { console.error('usage: node .ci/timeline.mjs VITEST_JSON [WORKERS] [--files]'); process.exit(2); }
const report = JSON.parse(readFileSync(file, 'utf8'));
const workers = Number(workersArg) > 0 ? Number(workersArg) : 2;
const s = (ms) => (ms / 1000).toFixed(0);
const files = report.testResults
  .map((t) => ({ path: t.name.replace(/^.*?\/(test\/)/, '$1'), start: t.startTime, end: t.endTime, status: t.status }))
  .sort((a, b) => a.start - b.start);
const t0 = report.startTime;
const last = Math.max(...files.map((f) => f.end));
const summed = files.reduce((n, f) => n + (f.end - f.start), 0);
console.log(`${files.length} files; wall ${s(last - t0)} s (the run's start to the last file's end); summed file time ${s(summed)} s; /${workers} = ${s(summed / workers)} s`);

// Seconds during which N files ran at once.
const events = files.flatMap((f) => [[f.start, 1], [f.end, -1]]).sort((a, b) => a[0] - b[0] || b[1] - a[1]); // a start before an end at the same ms
const at = {};
let running = 0;
let prev = t0;
for (const [time, d] of events) { at[running] = (at[running] ?? 0) + (time - prev); running += d; prev = time; }
console.log('seconds with N files running:', Object.entries(at).filter(([, ms]) => ms >= 500).map(([n, ms]) => `${n}: ${s(ms)}`).join(', '));

// Each file on the worker that came free last before it started: the gap is that worker's time between files.
const free = Array.from({ length: workers }, () => t0);
const gaps = files.map((f) => {
  let w = -1;
  for (let i = 0; i < workers; i++) if (free[i] <= f.start + 5 && (w < 0 || free[i] > free[w])) w = i;
  if (w < 0) w = free.indexOf(Math.min(...free));
  const gap = f.start - free[w];
  free[w] = f.end;
  f.gap = gap;
  return gap;
}).sort((a, b) => a - b);
const sumGaps = gaps.reduce((n, g) => n + g, 0);
console.log(`gaps between files on a worker (forks, imports, beforeAll/afterAll hooks): ${s(sumGaps)} s in all, median ${(gaps[gaps.length >> 1] / 1000).toFixed(2)} s, p90 ${(gaps[Math.floor(gaps.length * 0.9)] / 1000).toFixed(2)} s`);

// The same file times, slowest first on the first free worker (no gaps): the floor scheduling can reach.
const lpt = Array(workers).fill(0);
for (const d of files.map((f) => f.end - f.start).sort((a, b) => b - a)) { lpt.sort((a, b) => a - b); lpt[0] += d; }
console.log(`slowest first, no gaps: ${s(Math.max(...lpt))} s`);
// The same, each file with the gap before it (its fork, imports and beforeAll; the file before's afterAll).
const lptGaps = Array(workers).fill(0);
for (const d of files.map((f) => f.end - f.start + f.gap).sort((a, b) => b - a)) { lptGaps.sort((a, b) => a - b); lptGaps[0] += d; }
console.log(`slowest first, each file with the gap before it: ${s(Math.max(...lptGaps))} s`);

if (rest.includes('--files')) for (const f of files) console.log(`${s(f.start - t0).padStart(5)} ${((f.end - f.start) / 1000).toFixed(1).padStart(6)} ${(f.gap / 1000).toFixed(1).padStart(5)} ${f.status} ${f.path}`);
