// A run's last progress carries its final counts (files indexed, chunks written): the caller publishes
// next, and what shows the progress meanwhile (the MCP status of a background build) said 1683 files of
// 2000 and 0 chunks while the build's snapshot was already written (review of left35).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { IndexProgress } from '../../../src/workspace/build/indexer.js';
import { createWorkspace } from '../../../src/workspace/workspace.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-last-progress-'));
afterAll(() => { rmSync(tmp, { recursive: true, force: true }); });

it('the last progress of a run has its final files and chunks', async () => {
  const tree = path.join(tmp, 'tree');
  mkdirSync(tree);
  for (let f = 0; f < 300; f++) writeFileSync(path.join(tree, `f${f}.ts`), `export function handler${f}(req) {\n  return retryUpload(req, ${f});\n}\n`);
  const ws = createWorkspace({ dir: path.join(tmp, 'ws'), concurrency: 0 });
  const seen: IndexProgress[] = [];
  try {
    const report = await ws.index([tree], { onProgress: (p) => seen.push({ ...p }) });
    expect(report).toMatchObject({ files: 300, indexed: 300 });
    expect(report.chunks).toBeGreaterThanOrEqual(300);
    expect(seen.at(-1)).toMatchObject({ files: 300, indexed: 300, chunks: report.chunks, lines: report.lines });
  } finally {
    await ws.close();
  }
});

// mend38a: each progress carried the report so far, its patch (every chunk's row with its vector, the
// files, the terms) and warnings with it: `simgrep serve` sent each to its clients as JSON every 100 ms
// (1.16 MB each, 14.9 MB the last on a 72k-line tree), the MCP server kept the last in memory. A
// progress is its counts only, a few hundred bytes however big the tree.
it('a progress is its counts only: its JSON stays small over a tree of thousands of chunks', async () => {
  const tree = path.join(tmp, 'big');
  mkdirSync(tree);
  const lines = (f: number) => Array.from({ length: 240 }, (_, i) => `export const upload${f}_${i} = retryInvoice(${i}, "socket ${f * 31 + i}");`).join('\n');
  for (let f = 0; f < 400; f++) writeFileSync(path.join(tree, `f${f}.ts`), lines(f));
  const ws = createWorkspace({ dir: path.join(tmp, 'ws-big'), concurrency: 0 });
  const sizes: number[] = [];
  const keys = new Set<string>();
  try {
    const report = await ws.index([tree], { onProgress: (p) => { sizes.push(JSON.stringify(p).length); for (const k of Object.keys(p)) keys.add(k); } });
    expect(report.chunks).toBeGreaterThanOrEqual(2000);
    expect(sizes.length).toBeGreaterThan(0);
    // The report's JSON is megabytes here (its patch); a progress of seven counts is under 200 bytes.
    expect(Math.max(...sizes)).toBeLessThan(1024);
    expect([...keys].sort()).toEqual(['bytes', 'bytesToRead', 'chunks', 'files', 'indexed', 'lines', 'ms']);
  } finally {
    await ws.close();
  }
});
