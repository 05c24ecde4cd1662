// A search of small work (a small tree, a few files) is scored on the calling thread: no worker thread
// starts; big work starts the pool. Both answer as the in-process searcher (-J 0) does.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearcher } from '../../src/searcher.js';
import { executorOf, workersStarted } from '../../src/searcher/seams.js';

let root: string;
beforeAll(() => { root = mkdtempSync(path.join(os.tmpdir(), 'simgrep-small-search-')); });
afterAll(() => rmSync(root, { recursive: true, force: true }));

const upload = (i: number) => `export function retryUpload${i}(file: File) {\n  return send(file, { attempts: ${i} });\n}\n`;

async function searchBoth(paths: string[]): Promise<{ pooled: boolean; results: unknown; inProcess: unknown }> {
  const pooled = createSearcher({ concurrency: 2 });
  const local = createSearcher({ concurrency: 0 });
  try {
    // The reference reads its table whole first: lazy rows are compared with the whole read, not with themselves.
    await local.model();
    const ask = { query: 'retry the upload', paths, topK: 5 };
    const r = await pooled.search(ask);
    return { pooled: workersStarted(pooled), results: r.results, inProcess: (await local.search(ask)).results };
  } finally {
    await Promise.all([pooled.close(), local.close()]);
  }
}

/** The answers of one searcher to several questions in turn: its model read row by row as met (a small search), or whole first. */
async function answers(paths: string[], questions: string[], whole: boolean): Promise<unknown[]> {
  const s = createSearcher({ concurrency: 2 });
  try {
    if (whole) await s.model();
    const out: unknown[] = [];
    for (const query of questions) out.push(await s.search({ query, paths, topK: 5, nLines: 1 }), await s.searchContent({ query, content: `${query}\nand a line besides\n` }));
    return out.map((r) => { const { stats: _, ...rest } = r as { stats: unknown }; return rest; });
  } finally {
    await s.close();
  }
}

describe('small work', () => {
  it('a small tree is searched with no worker thread started, as -J 0 answers it', async () => {
    const dir = path.join(root, 'small');
    mkdirSync(path.join(dir, 'sub'), { recursive: true });
    writeFileSync(path.join(dir, 'upload.ts'), upload(1));
    writeFileSync(path.join(dir, 'sub', 'notes.md'), '# Uploads\n\nA failed upload is retried after a pause.\n');
    const r = await searchBoth([dir]);
    expect(r.pooled).toBe(false);
    expect(r.results).toEqual(r.inProcess);
    expect((r.results as unknown[]).length).toBeGreaterThan(0);
  });

  it('answers several questions in one process as over the table read whole: rows first met by a later question or file are read in', async () => {
    const dir = path.join(root, 'questions');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'upload.ts'), upload(7));
    writeFileSync(path.join(dir, 'config.py'), 'def load_config(path):\n    # Parse the YAML file and validate its schema.\n    return schema.validate(yaml.safe_load(open(path)))\n');
    writeFileSync(path.join(dir, 'README.md'), '# Deploy\n\nThe service is deployed with Helm; rollbacks keep the previous release.\n');
    const questions = ['retry the upload', 'validate the yaml schema', 'roll back a helm release', 'zebra quantum harmonica'];
    expect(await answers([dir], questions, false)).toEqual(await answers([dir], questions, true));
  });

  it('where the pool already runs (a resident engine warmed it), a directory goes to it as before, unsized', async () => {
    const dir = path.join(root, 'warm');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'upload.ts'), upload(3));
    const s = createSearcher({ concurrency: 2 });
    try {
      const pool = await executorOf(s, true);
      const before = pool.completed!;
      const r = await s.search({ query: 'retry the upload', paths: [dir], topK: 5 });
      expect(r.results.length).toBeGreaterThan(0);
      expect(pool.completed).toBeGreaterThan(before);
    } finally {
      await s.close();
    }
  });

  it('a tree of more files than the bound starts the pool, and answers as -J 0 does', async () => {
    const dir = path.join(root, 'many');
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < 1001; i++) writeFileSync(path.join(dir, `f${i}.ts`), upload(i));
    const r = await searchBoth([dir]);
    expect(r.pooled).toBe(true);
    expect(r.results).toEqual(r.inProcess);
  });
});
