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
