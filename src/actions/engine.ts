// The engine behind every action: one searcher (so the model is loaded once, lazily, and shared by
// all actions), the vector collections and the workspaces it has opened. Created once per runner or
// server; close() releases them all.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findCovering, simgrepHome, workspaceDir, type CoveringFilter } from '../workspace/registry.js';
import type { Workspace } from '../workspace/workspace.js';
import type { Searcher, SearcherOptions } from '../searcher/api.js';
import { createSearcher, createWorkspace } from '../library.js';
import { isRemoteUri } from '../sources/uri.js';
import { openCollections, type Collections } from './collections.js';

export interface ActionEngineOptions extends Omit<SearcherOptions, 'onModelProgress'> {
  /** Where vector collections live (default $SIMGREP_HOME/collections); 'memory' = a temp dir dropped on close. */
  collectionsDir?: string;
  /** A server that lives on (the MCP server): its workspaces watch searched directories from the first search. */
  resident?: boolean;
}

export interface ActionEngine {
  readonly searcher: Searcher;
  /** The vector collections, opened on first use. */
  collections(): Promise<Collections>;
  /** A workspace by name or directory, opened once and sharing the engine's model. */
  workspace(target: { name: string } | { dir: string }): Workspace;
  /** The named workspace that covers every path (and passes the filter), or null (then a search scans). */
  covering(paths: string[], filter?: CoveringFilter): Workspace | null;
  close(): Promise<void>;
}

export function createActionEngine(o: ActionEngineOptions = {}): ActionEngine {
  const { collectionsDir, resident, ...searcherOptions } = o;
  const searcher = createSearcher(searcherOptions);
  const memory = collectionsDir === 'memory' ? mkdtempSync(path.join(tmpdir(), 'simgrep-collections-')) : null;
  const dir = memory ?? collectionsDir ?? path.join(simgrepHome(), 'collections');
  let collectionsP: Promise<Collections> | null = null;
  const workspaces = new Map<string, Workspace>();
  /** The local workspace directories seen on disk: one that vanishes since (removed from outside) is opened afresh. */
  const seen = new Set<string>();

  const engine: ActionEngine = {
    searcher,
    collections() {
      collectionsP ??= openCollections(dir, searcher);
      collectionsP.catch(() => { collectionsP = null; });
      return collectionsP;
    },
    workspace(target) {
      const key = 'name' in target ? `name:${target.name}` : `dir:${path.resolve(target.dir)}`;
      let ws = workspaces.get(key);
      // A workspace removed behind the engine's back (its home deleted, another process's `workspace
      // rm`): its open tables and snapshot are of files that are gone, so it is closed and opened again.
      const dir = 'name' in target ? workspaceDir(target.name) : isRemoteUri(target.dir) ? null : path.resolve(target.dir);
      if (dir !== null) {
        if (existsSync(dir)) seen.add(key);
        else if (ws && seen.delete(key)) {
          void ws.close().catch(() => undefined);
          workspaces.delete(key);
          ws = undefined;
        }
      }
      if (!ws) {
        // The engine's -J also governs the workspace's stat thread (0: none).
        ws = createWorkspace({ ...target, searcher, resident, concurrency: searcherOptions.concurrency });
        workspaces.set(key, ws);
      }
      return ws;
    },
    covering(paths, filter) {
      const found = findCovering(paths, undefined, filter);
      return found ? engine.workspace({ name: found.name }) : null;
    },
    async close() {
      const closing: Promise<unknown>[] = [...workspaces.values()].map((w) => w.close());
      workspaces.clear();
      if (collectionsP) closing.push(collectionsP.then((c) => c.close(), () => undefined));
      collectionsP = null;
      await Promise.all(closing);
      await searcher.close();
      if (memory) rmSync(memory, { recursive: true, force: true });
    },
  };
  return engine;
}
