// The warning that the ranking snapshot was not saved (SNAPSHOT_NOT_SAVED) belongs to the run that wrote
// it. It was a flag the workspace held, taken by whichever run asked next: a search beside an index run of
// the same process (simgrep serve, the MCP engine) reported the run's failure as its own, and the run's
// report then lost it (review of engine40). The run is held after its failed save (its prose statistics'
// update waits on a gate) while a search beside it answers.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createSearcher } from '../../../src/searcher.js';
import { createWorkspace } from '../../../src/workspace/workspace.js';
import { writeTinyModel } from '../../helpers/tiny-model.js';

/** Closed: an index run's prose statistics wait here (after its snapshot save, before its report). */
const gate = { closed: false, entered: () => {}, open: () => {} };
vi.mock('../../../src/workspace/prose-stats.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../src/workspace/prose-stats.js')>();
  return {
    ...real,
    updateProseStats: async (...args: Parameters<typeof real.updateProseStats>) => {
      if (gate.closed) await new Promise<void>((resolve) => { gate.open = resolve; gate.entered(); });
      return real.updateProseStats(...args);
    },
  };
});

let tmp = '';
let tree = '';
let modelDir = '';
const file = (f: number, extra = '') => Array.from({ length: 40 }, (_, i) => `function upload${f}_${i}() { return retryUpload(${i}); }`).join('\n') + extra;

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-notsaved-run-'));
  tree = path.join(tmp, 'tree');
  mkdirSync(tree, { recursive: true });
  for (let f = 0; f < 12; f++) writeFileSync(path.join(tree, `f${f}.ts`), file(f));
  modelDir = await writeTinyModel(path.join(tmp, 'model'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

it('a search beside an index run whose snapshot save failed reports nothing of it; the run reports it', async () => {
  const dir = path.join(tmp, 'ws');
  const searcher = createSearcher({ model: modelDir, concurrency: 0 });
  const ws = createWorkspace({ dir, model: modelDir, searcher, concurrency: 0, resident: true });
  try {
    expect((await ws.index([tree])).indexed).toBe(12);
    // The snapshot's temp files cannot be made (a directory stands where each goes): its saves fail.
    for (const name of ['snapshot.bin', 'snapshot.delta.bin']) mkdirSync(path.join(dir, `${name}.${process.pid}.tmp`));
    writeFileSync(path.join(tree, 'f3.ts'), file(3, '\nconst lateInvoice = retryUpload(invoice);'));
    gate.closed = true;
    const held = new Promise<void>((resolve) => { gate.entered = resolve; });
    const run = ws.index([tree]);
    await held;
    // The run saved (and failed to save) its snapshot and holds the lock: the search answers beside it.
    const search = await ws.search({ query: 'retry the upload', paths: [tree], topK: 3 });
    gate.closed = false;
    gate.open();
    const report = await run;
    expect(search.stats.index).toEqual({ workspace: 'ws', refreshed: 1, pending: 1 });
    expect(search.warnings.map((w) => w.code)).toEqual([]);
    expect(report.indexed).toBe(1);
    expect(report.warnings.map((w) => w.code)).toEqual(['SNAPSHOT_NOT_SAVED']);
    expect(report.warnings[0].message).toMatch(/^workspace ws: the ranking snapshot was not saved \(EISDIR: /);
  } finally {
    gate.closed = false;
    gate.open();
    await ws.close();
    await searcher.close();
  }
}, 60_000);
