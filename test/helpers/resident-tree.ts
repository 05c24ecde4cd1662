// A temp tree with a resident workspace over it, indexed before a suite's tests and closed after them,
// and a one-shot searcher beside it: for the tests that hold a resident process's answers to a scan's.
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createSearcher } from '../../src/searcher.js';
import { type Searcher } from '../../src/searcher/api.js';
import { createWorkspace, type Workspace } from '../../src/workspace/workspace.js';
import { makeTree } from './tree.js';

export interface ResidentTree {
  /** The tree's directory (once the suite has started). */
  readonly dir: string;
  /** The resident workspace, its index under the tree's `.ws`. */
  readonly ws: Workspace;
  /** A one-shot searcher (no index) to compare with. */
  readonly scan: Searcher;
}

export function residentTree(files: Record<string, string | Uint8Array>): ResidentTree {
  let tree: Awaited<ReturnType<typeof makeTree>> | undefined;
  let ws: Workspace | undefined;
  const scan = createSearcher({ concurrency: 0 });
  beforeAll(async () => {
    tree = await makeTree(files);
    ws = createWorkspace({ dir: path.join(tree.dir, '.ws'), concurrency: 0, resident: true });
    await ws.index([tree.dir]);
  });
  afterAll(async () => {
    await ws?.close();
    await scan.close();
    await tree?.cleanup();
  });
  return {
    get dir() { return tree!.dir; },
    get ws() { return ws!; },
    scan,
  };
}
