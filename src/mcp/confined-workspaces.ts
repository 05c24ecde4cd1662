// Which workspace answers an MCP call for a directory inside the server's root: the named workspace
// that covers it most nearly among those whose every root lies inside the root, else the directory's
// own (named after it, built on first use). A workspace that also indexes something outside the root
// is never searched, refreshed, re-indexed or reported by the server: an MCP client reads nothing
// outside the root, not even a file count.
import { existsSync } from 'node:fs';
import type { ActionEngine } from '../actions/engine.js';
import { SimgrepError } from '../errors.js';
import { defaultName, readInfo, rootsInside, workspaceDir } from '../workspace/registry.js';
import type { Workspace } from '../workspace/workspace.js';
import type { Root } from './scope.js';

export interface ConfinedWorkspaces {
  /** The workspace a search of `dir` uses, built (and awaited) on first use. */
  forSearch(dir: string): Promise<Workspace>;
  /** The workspace an index run of `dir` updates, and the roots to index (all inside the root). */
  forIndex(dir: string): Promise<{ ws: Workspace; roots: string[] }>;
  /** The workspace that answers for `dir` when one exists, else null (not indexed yet). */
  forStatus(dir: string): Promise<Workspace | null>;
}

export function createConfinedWorkspaces(engine: ActionEngine, root: Root): ConfinedWorkspaces {
  const building = new Map<string, Promise<Workspace>>();
  const covering = (dir: string) => engine.covering([dir], { rootsWithin: root.real });

  /** The directory's own workspace, and whether it has been built; refused when its roots reach out. */
  async function own(dir: string): Promise<{ ws: Workspace; exists: boolean }> {
    const name = defaultName([dir]);
    const ws = engine.workspace({ name });
    if (!existsSync(workspaceDir(name))) return { ws, exists: false };
    const roots = readInfo(workspaceDir(name))?.roots ?? (await ws.status()).roots;
    if (!rootsInside(roots, root.real)) {
      throw new SimgrepError('BAD_FLAG', `workspace ${name} also indexes directories outside the server's root, so the MCP server does not use it; remove it (simgrep workspace rm ${name}) or give the server a root that holds all of its roots`);
    }
    return { ws, exists: true };
  }

  return {
    forSearch(dir) {
      const c = covering(dir);
      if (c) return Promise.resolve(c);
      let p = building.get(dir);
      if (!p) {
        p = own(dir).then(({ ws, exists }) => (exists ? ws : ws.index([dir]).then(() => ws)));
        p.catch(() => building.delete(dir));
        building.set(dir, p);
      }
      return p;
    },
    async forIndex(dir) {
      const c = covering(dir);
      if (c) {
        // Its recorded roots were checked; the index's own list is checked again (a run cut short after
        // writing it could have added one), and the run then keeps to `dir`.
        const roots = (await c.status()).roots;
        return { ws: c, roots: rootsInside(roots, root.real) ? roots : [dir] };
      }
      return { ws: (await own(dir)).ws, roots: [dir] };
    },
    async forStatus(dir) {
      const c = covering(dir);
      if (c) return c;
      const { ws, exists } = await own(dir);
      return exists ? ws : null;
    },
  };
}
