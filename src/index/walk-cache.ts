// In a long-lived process (the library, the MCP server), repeated searches of the same paths skip the
// freshness walk while nothing under them changed: a recursive fs.watch per root marks the cached walk
// stale on any event. Where watching is not possible (no inotify watches left, a remote mount) every
// search walks, as a one-shot process does.
import { watch, type FSWatcher } from 'node:fs';
import type { Entry, SourceWarning } from '../sources/source.js';

export interface Walk { entries: Entry[]; warnings: SourceWarning[] }

interface Cached { walk: Walk | null; dirty: boolean; watchers: FSWatcher[]; uses: number }

export class WalkCache {
  private readonly cached = new Map<string, Cached>();

  /** The walk for `key` (the paths and walk options), re-run only when something may have changed. */
  async get(key: string, roots: string[], run: () => Promise<Walk>): Promise<{ walk: Walk; cached: boolean }> {
    let c = this.cached.get(key);
    // One turn of the event loop's poll phase first, so events of writes made before this call are in.
    if (c?.watchers.length) await new Promise((r) => setImmediate(r));
    if (c && c.walk && !c.dirty) return { walk: c.walk, cached: true };
    if (!c) {
      c = { walk: null, dirty: true, watchers: [], uses: 0 };
      this.cached.set(key, c);
    }
    // Watching starts with the second search of the same paths: a one-search process never pays for it.
    if (++c.uses === 2) {
      const entry = c;
      try {
        for (const root of roots) {
          const w = watch(root, { recursive: true, persistent: false }, () => { entry.dirty = true; });
          w.on('error', () => { entry.dirty = true; entry.walk = null; });
          entry.watchers.push(w);
        }
      } catch {
        for (const w of entry.watchers) w.close();
        entry.watchers = [];
      }
    }
    // Marked clean before walking: an event during the walk makes the next search walk again.
    c.dirty = c.watchers.length === 0;
    const walk = await run();
    c.walk = walk;
    return { walk, cached: false };
  }

  /** Forget a cached walk (after the index changed files it had seen as stale). */
  invalidate(key: string): void {
    const c = this.cached.get(key);
    if (c) c.dirty = true;
  }

  close(): void {
    for (const c of this.cached.values()) for (const w of c.watchers) w.close();
    this.cached.clear();
  }
}
