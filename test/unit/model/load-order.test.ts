// loadModel reads the model's table from the start, beside the config and the tokenizer (issue 30: a
// resident engine's first search waited for the table's read, which waited for the tokenizer's modules
// and cache). The real tokenizer file is opened here too; it is only held back until the test lets it go.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { tempDir, writeModelDir } from './model-files.js';

const gate = vi.hoisted(() => {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => { open = resolve; });
  return { opened, open };
});

vi.mock('../../../src/model/tokenizer-file.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../src/model/tokenizer-file.js')>();
  return { ...real, openTokenizerFile: async (...a: Parameters<typeof real.openTokenizerFile>) => { await gate.opened; return real.openTokenizerFile(...a); } };
});

const { loadModel } = await import('../../../src/model/load.js');

let root: string;
beforeAll(async () => { root = await tempDir('simgrep-load-order-'); });
afterAll(async () => { gate.open(); await rm(root, { recursive: true, force: true }); });

describe('loadModel', () => {
  it('starts reading the table before the tokenizer has been opened', async () => {
    const dir = await writeModelDir(path.join(root, 'm'));
    let laidOut!: () => void;
    const tableRead = new Promise<string>((resolve) => { laidOut = () => resolve('the table is being read'); });
    const loading = loadModel(dir, { floatTable: () => { laidOut(); return undefined; } });
    const first = await Promise.race([tableRead, new Promise<string>((resolve) => setTimeout(() => resolve('still waiting for the tokenizer'), 3_000))]);
    gate.open();
    expect(first).toBe('the table is being read');
    const m = await loading;
    expect({ rows: m.rows, dim: m.dim, table: Array.from(m.table.subarray(0, 6)) }).toEqual({ rows: m.rows, dim: 3, table: [0, -0, 0.5, 1, -1, 0.5] });
  });
});
