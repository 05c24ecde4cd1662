// A temp tree indexed once into a workspace directory inside it, for tests that compare a first indexed
// search (or a fresh handle) with a scan of the same tree.
import path from 'node:path';
import { createWorkspace } from '../../src/workspace/workspace.js';
import { makeTree } from './tree.js';

/** The tree of `files`, indexed into `<tree>/.ws` by a workspace closed again; `dir` is that directory. */
export async function indexedTree(files: Record<string, string | Uint8Array>): Promise<{ tree: { dir: string; cleanup: () => Promise<void> }; dir: string }> {
  const tree = await makeTree(files);
  const dir = path.join(tree.dir, '.ws');
  const ws = createWorkspace({ dir, concurrency: 0 });
  try { await ws.index([tree.dir]); } finally { await ws.close(); }
  return { tree, dir };
}
