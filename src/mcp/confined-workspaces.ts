// Which workspace answers an MCP call for a directory inside the server's root: the named workspace
// that covers it most nearly among those whose every root lies inside the root, else the directory's
// own (named after it, built in the background once its first search has answered; searches scan meanwhile). A workspace that also indexes something outside the root
// is never searched, refreshed, re-indexed or reported by the server: an MCP client reads nothing
// outside the root, not even a file count.
import { existsSync } from 'node:fs';
import type { ActionEngine } from '../actions/engine.js';
import { isSimgrepError, SimgrepError } from '../errors.js';
import { errorText } from './error-redaction.js';
import { defaultName, readInfo, rootsInside, workspaceDir } from '../workspace/registry.js';
import type { SourceWarning } from '../sources/source.js';
import type { IndexProgress } from '../workspace/build/indexer.js';
import type { Workspace } from '../workspace/workspace.js';
import type { Root } from './scope.js';
import { OF_WORKSPACE, warmHoldMs, warmSearches, type AgentCalls } from './warm-searches.js';
import { IDLE_MS } from '../workspace/search/warm-chunks.js';

export interface ConfinedWorkspaces {
  /**
   * Runs a search of `dir` with the workspace it uses, or null while its index is first being built:
   * the search then answers from a scan, which gives the same answer. The first search of a directory
   * with no index queues its build, which starts once that search has answered (a build started beside
   * it would take half of the cores its scan needs: the agent's first answer comes first).
   */
  forSearch<T>(dir: string, search: (ws: Workspace | null) => Promise<T>): Promise<T>;
  /** The workspace an index run of `dir` updates, and the roots to index (all inside the root). */
  forIndex(dir: string): Promise<{ ws: Workspace; roots: string[] }>;
  /**
   * The workspace that answers for `dir` when one exists, else null (not indexed yet); `building`
   * while this server builds it in the background (its tables then hold only part of the tree), with
   * the build's progress so far (held in memory: status reads nothing while it builds); `incomplete`
   * when its tables were left by a build cut short (an engine killed mid-build) and none runs now.
   */
  forStatus(dir: string): Promise<{ ws: Workspace; building: boolean; incomplete?: boolean; progress?: IndexProgress } | null>;
  /**
   * Settles when no background build (nor the made-up searches after one) runs (a resident engine does not stop
   * under one), nor the keeping of an engine's start (warmUp) unless `keeping` is false: the engine's stop after its
   * idle or orphan timeout does not wait for it (close() ends it; it read and counted every prose document first).
   */
  settled(o?: { keeping?: boolean }): Promise<void>;
  /** Runs one tool call of the agent: the made-up searches after a background build wait while any runs. */
  during<T>(call: () => Promise<T>): Promise<T>;
  /**
   * Runs the made-up searches over the index that answers for `dir` when one is built and answers its
   * searches for this model (index-use.ts: complete, compatible, covering `dir`), as after a background
   * build: an engine started over an index made earlier (warm-searches.ts). The index's calls wait for them
   * from now, at most WARM_HOLD_MS. Resolves with the workspace's name and how many ran, or null when none
   * could (no such index, one being built, or a failure: the agent's own search then meets it).
   */
  warmUp(dir: string): Promise<{ workspace: string; ran: number } | null>;
  /** Ends the made-up searches (the one under way finishes): call before the action engine closes. */
  close(): Promise<void>;
  /**
   * Takes the warnings said once (WATCH_OFF, SNAPSHOT_NOT_SAVED) that the made-up searches of `dir` after
   * `ws`'s build or at the engine's start met and dropped with their answers: the agent's next answer from `ws`
   * of the same `dir` says them (warm-searches.ts). WATCH_OFF is of one walk (its paths): an answer of another
   * directory has a walk of its own; SNAPSHOT_NOT_SAVED is of the workspace (OF_WORKSPACE): any directory's says it.
   */
  takeNotes(ws: Workspace, dir: string): SourceWarning[];
  /**
   * Why the last background build of `dir` failed, while searches of it scan instead of retrying it
   * (for RETRY_BUILD_MS; an index call retries at once), or why its index could not be read
   * (`unreadable`: no build ran); null when none failed.
   */
  buildFailure(dir: string): { why: string; unreadable: boolean } | null;
}

/** After a failed background build, searches scan this long before one queues the build again. */
export const RETRY_BUILD_MS = 30_000;

/** `redact`: what a build failure's message may say to the client (error-redaction.ts). */
export function createConfinedWorkspaces(engine: ActionEngine, root: Root, redact: (message: string) => string): ConfinedWorkspaces {
  const building = new Map<string, Promise<Workspace>>();
  /** The background builds' progress, by workspace name (a covering workspace may be among them). */
  const progress = new Map<string, IndexProgress>();
  /** The names of the workspaces being built in the background (a covering one may be among them). */
  const buildingNames = new Set<string>();
  /** Background builds that failed, by directory: why, and when a search may queue the build again. */
  const failed = new Map<string, { why: string; retryAt: number; unreadable?: boolean }>();
  const covering = (dir: string) => engine.covering([dir], { rootsWithin: root.real });
  /** The agent's tool calls, which the made-up searches after a background build wait to be idle (warm-searches.ts). */
  const calls: AgentCalls = { inFlight: 0, scanning: 0, lastEnded: -Infinity };
  const warming = new Set<Promise<void>>();
  /** An engine's start over an index built earlier keeping what a build would leave (warmUp); close() does not wait for it. */
  const keeping = new Set<Promise<void>>();
  /** By workspace name, while the made-up searches right after its build hold the index's calls (warm-searches.ts). */
  const holds = new Map<string, Promise<void>>();
  /**
   * By workspace, then by the directory its made-up searches searched, the warnings said once that they met,
   * until an answer of the agent's of that directory takes them ('' for those of the whole workspace, which any
   * answer of it takes: OF_WORKSPACE). Keyed by the Workspace itself: one removed
   * and made again under the same name is another (engine.ts), and its notes go with the old one.
   */
  const notes = new WeakMap<Workspace, Map<string, SourceWarning[]>>();
  /** A built workspace answers once the made-up searches after its build let it (at most WARM_HOLD_MS). */
  const answer = async <T>(ws: Workspace, search: (ws: Workspace | null) => Promise<T>): Promise<T> => {
    const hold = holds.get(ws.name);
    if (hold) await hold;
    return search(ws);
  };
  /** Keeps a warning said once that the made-up searches of `dir` met (or the engine's start: warmUp), for takeNotes. */
  const keepNote = (ws: Workspace, dir: string, n: SourceWarning) => {
    const key = OF_WORKSPACE.has(n.code) ? '' : dir;
    const byDir = notes.get(ws) ?? new Map<string, SourceWarning[]>();
    const had = byDir.get(key) ?? [];
    if (!had.some((x) => x.code === n.code)) byDir.set(key, [...had, n]);
    notes.set(ws, byDir);
  };
  /** Holds the index's calls of `ws` from now until `release`, at most WARM_HOLD_MS (warm-searches.ts). */
  const holdCalls = (ws: Workspace): { since: number; release: () => void } => {
    let release!: () => void;
    const hold = new Promise<void>((r) => { release = r; });
    holds.set(ws.name, hold);
    const done = () => { clearTimeout(bound); if (holds.get(ws.name) === hold) holds.delete(ws.name); release(); };
    const bound = setTimeout(done, warmHoldMs());
    bound.unref();
    return { since: performance.now(), release: done };
  };
  /** The made-up searches of `dir` in `ws`, holding its calls as `hold` says; ended by close(). */
  const warm = (ws: Workspace, dir: string, hold: { since: number; release: () => void }, freshOnly = false): Promise<number> => {
    const w = warmSearches(ws, dir, calls, { held: hold.release, since: hold.since, onNote: (n) => keepNote(ws, dir, n), freshOnly }).catch(() => { hold.release(); return 0; });
    const done = w.then(() => undefined);
    warming.add(done);
    void done.finally(() => warming.delete(done));
    return w;
  };

  /**
   * The directory's own workspace, and whether a build of it ever finished (its workspace.json is written
   * when one does); refused when its roots reach out. A build cut short (an engine or `simgrep index`
   * killed) leaves tables without workspace.json: searched as it stands, every search would first index
   * the rest of the tree, so it is finished in the background like a cold one.
   */
  async function own(dir: string): Promise<{ ws: Workspace; exists: boolean }> {
    const name = defaultName([dir]);
    const ws = engine.workspace({ name });
    if (!existsSync(workspaceDir(name))) return { ws, exists: false };
    const info = readInfo(workspaceDir(name));
    // Cut short, its roots are the index's own (its meta; status would first rebuild the ranking snapshot
    // of the tables as they stand: seconds the agent waited for a scan's answer, trial34's review).
    const roots = info?.roots ?? await ws.roots();
    if (!rootsInside(roots, root.real)) {
      throw new SimgrepError('BAD_FLAG', `workspace ${name} also indexes directories outside the server's root, so the MCP server does not use it; remove it (simgrep workspace rm ${name}) or give the server a root that holds all of its roots`);
    }
    return { ws, exists: info !== null };
  }

  /** A search of `dir`: its workspace when built, else a scan while it builds in the background. */
  function searchIn<T>(dir: string, search: (ws: Workspace | null) => Promise<T>): Promise<T> {
    // A scan is counted as one while it runs: the made-up searches after a build need not wait for it (warm-searches.ts).
    return pick(dir, async (ws) => {
      if (ws) return search(ws);
      calls.scanning++;
      try { return await search(null); } finally { calls.scanning--; }
    });
  }

  /** Which answers: the workspace, or null for a scan (searchIn's). */
  async function pick<T>(dir: string, search: (ws: Workspace | null) => Promise<T>): Promise<T> {
    let c: Workspace | null;
    try { c = covering(dir); } catch (e) { return scanInstead(dir, e, search); }
    // A workspace this server is still building holds part of the tree: the files are read instead.
    if (c && buildingNames.has(c.name)) return search(null);
    // A built one answers; a failure of a build it outlived (another process held the lock, then finished) is over.
    if (c) { failed.delete(dir); return answer(c, search); }
    if (building.has(dir)) return search(null);
    // Checked before anything starts: a workspace whose roots reach out is refused, not rebuilt.
    let ownWs: { ws: Workspace; exists: boolean };
    try { ownWs = await own(dir); } catch (e) {
      if (isSimgrepError(e) && e.code === 'BAD_FLAG') throw e;
      return scanInstead(dir, e, search);
    }
    const { ws, exists } = ownWs;
    if (exists) { failed.delete(dir); return answer(ws, search); }
    if (building.has(dir)) return search(null);
    // A build that just failed is not retried by every search (each would fail the same way).
    const f = failed.get(dir);
    if (f && Date.now() < f.retryAt) return search(null);
    // Never make the agent wait on a cold index: it builds in the background, searches scan meanwhile.
    let answered!: () => void;
    const p = new Promise<void>((resolve) => { answered = resolve; }).then(() => ws.index([dir], { onProgress: (q) => progress.set(ws.name, q) })).then(() => ws);
    building.set(dir, p);
    buildingNames.add(ws.name);
    const done = () => { building.delete(dir); buildingNames.delete(ws.name); progress.delete(ws.name); };
    p.then(() => {
      done();
      failed.delete(dir);
      // The index answers now, once made-up searches have warmed its code (at most WARM_HOLD_MS; the rest
      // while the agent is idle: warm-searches.ts; one that fails ends them, the index as built).
      void warm(ws, dir, holdCalls(ws));
    }, (e: unknown) => {
      done();
      failed.set(dir, { why: redact(errorText(e)), retryAt: Date.now() + RETRY_BUILD_MS });
    });
    try {
      return await search(null);
    } finally {
      answered();
    }
  }

  /**
   * An index that cannot be read or made (its directory a file, a link to nothing, unreadable: trial36)
   * fails the search no more: it answers from the files, with the failure in its note. No build ran, so
   * none is held back: the first search that can read the index again may queue one.
   */
  function scanInstead<T>(dir: string, e: unknown, search: (ws: Workspace | null) => Promise<T>): Promise<T> {
    failed.set(dir, { why: redact(errorText(e)), retryAt: 0, unreadable: true });
    return search(null);
  }

  return {
    forSearch: searchIn,
    async warmUp(dir) {
      // The workspace a search of `dir` would use, as pick() finds it, but only one already built: nothing is
      // queued, and a failure here is left to the agent's first search to meet and say.
      let ws: Workspace | null;
      try {
        ws = covering(dir);
        if (!ws && !building.has(dir)) { const o = await own(dir); ws = o.exists ? o.ws : null; }
      } catch { return null; }
      if (!ws || buildingNames.has(ws.name) || holds.has(ws.name) || calls.stopped) return null;
      // Held from now, while the model loads and the index's meta is read: a call that comes meanwhile would
      // wait for both anyway (and runs warm after the made-up searches, at most WARM_HOLD_MS from here).
      const hold = holdCalls(ws);
      try {
        // The rule a search follows (index-use.ts): an index of another model, of other roots or that no run
        // completed is not searched (a made-up search would scan); the agent's first search says why.
        if (!(await ws.besideIndexRun([dir])).fromIndex || calls.stopped) { hold.release(); return null; }
      } catch { hold.release(); return null; }
      // What a build would have left in this process (the prose documents kept and counted, the code chunks'
      // sums: workspace/keep-restarted.ts), begun at once beside the made-up searches; it takes the main thread only
      // while the agent is idle (the chunk warm-up's rule), its pooling the workers, idle at start.
      const idleNow = () => calls.inFlight === 0 && performance.now() - calls.lastEnded >= IDLE_MS;
      // Its load of the snapshot, beside the first made-up search's, may be the one that rebuilt it (SNAPSHOT_NOT_SAVED).
      const kept = ws.keepRestarted({ ready: idleNow, stopped: () => calls.stopped === true, onNote: (n) => keepNote(ws!, dir, n) }).then(() => undefined, () => undefined);
      keeping.add(kept);
      void kept.finally(() => keeping.delete(kept));
      // They save nothing (freshOnly): files changed since the index are the agent's first search's to save, so
      // the engine's start neither writes the index nor takes its lock (review of start42).
      return { workspace: ws.name, ran: await warm(ws, dir, hold, true) };
    },
    async close() { calls.stopped = true; await Promise.allSettled([...warming]); },
    takeNotes(ws, dir) {
      const byDir = notes.get(ws);
      if (!byDir) return [];
      const taken = [...byDir.get(dir) ?? [], ...byDir.get('') ?? []];
      byDir.delete(dir);
      byDir.delete('');
      return taken;
    },
    async during(call) {
      calls.inFlight++;
      try {
        return await call();
      } finally {
        calls.inFlight--;
        calls.lastEnded = performance.now();
      }
    },
    async forIndex(dir) {
      // An index run waits for the background build of the same directory (one writer at a time).
      await building.get(dir)?.catch(() => undefined);
      failed.delete(dir);
      const c = covering(dir);
      if (c) {
        // Its recorded roots were checked; the index's own list is checked again (a run cut short after
        // writing it could have added one), and the run then keeps to `dir`.
        const roots = await c.roots();
        return { ws: c, roots: rootsInside(roots, root.real) ? roots : [dir] };
      }
      return { ws: (await own(dir)).ws, roots: [dir] };
    },
    async settled(o = {}) {
      const keep = o.keeping === false ? new Set<Promise<void>>() : keeping;
      while (building.size > 0 || warming.size > 0 || keep.size > 0) await Promise.allSettled([...building.values(), ...warming, ...keep]);
    },
    buildFailure(dir) {
      const f = building.has(dir) ? undefined : failed.get(dir);
      return f ? { why: f.why, unreadable: f.unreadable === true } : null;
    },
    async forStatus(dir) {
      const c = covering(dir);
      if (c && !buildingNames.has(c.name)) failed.delete(dir);
      if (c) return buildingNames.has(c.name) ? { ws: c, building: true, progress: progress.get(c.name) } : { ws: c, building: false };
      const { ws, exists } = await own(dir);
      if (building.has(dir)) return { ws, building: true, progress: progress.get(ws.name) };
      if (exists) failed.delete(dir);
      if (exists) return { ws, building: false };
      // Tables without workspace.json: a build cut short (trial37: "not indexed yet" beside them). The
      // next search rebuilds it in the background, as a cold one; until then status says what is there.
      return existsSync(workspaceDir(ws.name)) ? { ws, building: false, incomplete: true } : null;
    },
  };
}
