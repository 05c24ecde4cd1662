// A long-lived process (the library, MCP, serve) sees a repository's .git/info/exclude written after
// its walk was cached: the watchers cover only walked directories, never <repo>/.git/info, so before
// mend33 the cached walk kept the newly excluded file in every later search of the same object.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createWorkspace } from '../../../src/workspace/workspace.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-exclude-warm-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

it('one workspace object searching before and after .git/info/exclude is written (and again after it is edited)', async () => {
  const repo = path.join(tmp, 'repo');
  mkdirSync(path.join(repo, '.git'), { recursive: true }); // no info/ yet: the exclude file is created below
  mkdirSync(path.join(repo, 'src'));
  writeFileSync(path.join(repo, 'src', 'upload.ts'), 'export function uploadWithRetry(file) { return put(file); }\n');
  writeFileSync(path.join(repo, 'src', 'upload.scratch'), 'export function uploadWithRetryScratch(file) { return put(file); }\n');
  const ws = createWorkspace({ dir: path.join(tmp, 'ws'), concurrency: 0 });
  const files = async () => [...new Set((await ws.search({ query: 'upload with retry', paths: [repo], topK: 10 })).results.map((r) => path.basename(r.filename)))].sort();
  try {
    await ws.index([repo]);
    for (let i = 0; i < 3; i++) expect(await files()).toEqual(['upload.scratch', 'upload.ts']); // watched from the 2nd, cached by the 3rd
    mkdirSync(path.join(repo, '.git', 'info'));
    writeFileSync(path.join(repo, '.git', 'info', 'exclude'), '*.scratch\n');
    expect(await files()).toEqual(['upload.ts']);
    expect(await files()).toEqual(['upload.ts']);
    writeFileSync(path.join(repo, '.git', 'info', 'exclude'), '*.ts\n'); // edited in place
    expect(await files()).toEqual(['upload.scratch']);
  } finally {
    await ws.close();
  }
});
