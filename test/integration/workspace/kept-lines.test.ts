// Regression guard (issue 30, warm search rescoring): a resident workspace keeps the candidate chunks'
// lines between searches (src/workspace/search/kept-lines.ts), under the index's state of each file. A
// file edited between two warm searches (same size, so only its mtime and hash tell) must be read again:
// the answer shows the edit, never the kept lines.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createWorkspace, type Workspace } from '../../../src/workspace/workspace.js';
import { makeTree } from '../../helpers/tree.js';

const body = (word: string) => [
  'export function retryFailedUploads(queue: string[]) {',
  `  // ${word}: retry failed uploads with backoff`,
  '  return queue.length;',
  '}',
].join('\n');

let tree: Awaited<ReturnType<typeof makeTree>>;
let ws: Workspace;

beforeAll(async () => {
  tree = await makeTree({ 'upload.ts': `${body('first')}\n`, 'other.ts': 'export const colour = "blue";\n' });
  ws = createWorkspace({ dir: path.join(tree.dir, '.ws'), concurrency: 0, resident: true });
  await ws.index([tree.dir]);
});
afterAll(async () => {
  await ws?.close();
  await tree?.cleanup();
});

const search = async () => (await ws.search({ query: 'retry failed uploads', paths: [tree.dir], topK: 1 })).results[0].lines.join('\n');

it('a file edited between two warm searches is read again, not served from the kept lines', async () => {
  expect(await search()).toContain('first:');
  expect(await search()).toContain('first:'); // served from the kept lines
  writeFileSync(path.join(tree.dir, 'upload.ts'), `${body('again')}\n`); // the same size
  // The resident workspace sees the edit through its watcher or its stale check: the answer follows it.
  let text = '';
  for (let i = 0; i < 30 && !text.includes('again:'); i++) {
    text = await search();
    if (!text.includes('again:')) await new Promise((done) => setTimeout(done, 100));
  }
  expect(text).toContain('again:');
  expect(text).not.toContain('first:');
});
