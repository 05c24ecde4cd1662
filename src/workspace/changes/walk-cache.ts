// In a long-lived process (the library, the MCP server), repeated searches of the same paths skip the
// freshness walk while nothing under them changed: after a walk, every directory that holds a
// searched file (and each of its parents up to the root), and every other directory the walk listed,
// gets a watcher, set up synchronously so no event is missed, and any event marks the cached walk stale. A file written in place (a 'change'
// event) keeps the walk's file list: only its directory's files need a look. A file created, removed
// or renamed (a 'rename' event) means walking again. Where watching is not possible (no
// inotify watches left, a network mount) every search walks, as a one-shot process does, and the first
// such walk comes with a note (WATCH_OFF) for the caller to say. A directory gone before its watcher is
// set is only dropped; one newly watched after a walk and changed since the walk began makes the next
// search walk; watchers of directories a walk no longer lists are closed; an event on an entry the
// walk's ignore rules exclude is dropped (mend37c). (Before
// trial37 only directories holding a searched file were watched: a file created in an empty or
// all-ignored directory stayed unseen while the answers said fresh.) A repository's .git/info/exclude lies outside the watched
// directories (creating it changes none of them), and so do the ignore files above the roots up to their
// repository: those (probed as walk-record.ts does) and each repository's exclude (the roots' enclosing one
// and those of watched directories holding .git; excludeFileOf follows a .git file) are stat'ed before a cached walk is handed out, one
// stat a file.
import { statSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { fileKeys } from '../../sources/real-paths.js';
import type { Entry, SourceWarning } from '../../sources/source.js';
import { excludeFileOf, type IgnoreStack } from '../../sources/ignore-rules.js';

/**
 * A walk's files, their keys in the index (keys[i] is entries[i]'s: sources/real-paths.ts), its
 * warnings, and the directories it listed (local walks): those are watched too, so a file created in
 * one that held no searched file (empty, or only ignored files) is seen.
 */
export interface Walk {
  entries: Entry[]; keys: string[]; warnings: SourceWarning[]; dirs?: string[];
  /** The ignore rules of each listed directory's entries (a walk that listed the tree, rules on): an event on an entry they ignore is dropped. */
  rules?: Map<string, IgnoreStack>;
}

interface Cached {
  walk: Walk | null;
  dirty: boolean;
  /** Directories with files written in place since the walk was last handed out, and whether anything else happened. */
  changed: Set<string>;
  structural: boolean;
  watchers: Map<string, FSWatcher>;
  /**
   * Watched directories that saw an entry created, removed or renamed since their watcher was set:
   * their watchers are set again after the next walk, since one of those events may have been the
   * directory's own removal (rm -rf, a checkout), after which its watcher sees nothing in the
   * directory made again under that name (often on the same inode number).
   */
  renamed: Set<string>;
  uses: number;
  broken: boolean;
  /**
   * The repositories' exclude files, and the ignore files above the roots up to their repository
   * (no watcher sees those), with their stamps when the walk was made ('' when absent).
   */
  excludes: Map<string, string>;
  /** Whether the note that watching is off was handed out. */
  noted: boolean;
  /** The last walk's ignore rules by directory (none when it was read back from a record). */
  rules: Map<string, IgnoreStack>;
  /** What was handed out to be checked and saved (`hold`) and is not saved yet. */
  held: Set<Held>;
  /**
   * Directories (as the walk's keys name them) holding files a search found changed and gave back unsaved,
   * having checked the whole walk (WalkState.settle's `left`): the next search checks only these (and what
   * the watchers saw since), not the whole walk again. Cleared by a walk.
   */
  unsaved: Set<string>;
  /**
   * A walk under way: another search of the key waits for it, then takes what it found as every file that may
   * have changed (review of session 41: the cache is marked clean as the walk starts, so a search beside it was
   * told nothing changed and given the walk before it, without the new files).
   */
  walking: Promise<unknown> | null;
}

/** A hand-out of what may have changed: the directories it names (their real paths), or every file (null). */
interface Held { dirs: Set<string> | null }

/**
 * A walk, and what may have changed since the last one handed out for the same key: nothing
 * (cached), only files in `changedDirs` (written in place, same list of files), or anything.
 */
export interface WalkState {
  walk: Walk; cached: boolean; changedDirs?: Set<string>; note?: SourceWarning;
  /**
   * With `hold`, a state not cached: the caller says once what came of it. `true`: what changed is in the
   * index now (saved, or nothing was stale); `false` (not saved: aborted, failed, read for one answer only):
   * the next search walks again, unless `left` names the directories (as the walk's keys name them) of every
   * file the caller found changed, having checked every file of the walk it was handed: the walk is kept, and
   * the next search checks only those (trust43: the MCP engine's made-up searches stop at changed files,
   * NOT_FRESH, and the agent's first search walked the whole tree again). Until then every other search of
   * the key checks the same files again instead of being told nothing changed (mend41b: a search run beside
   * another's save answered from the index before it, saying fresh).
   */
  settle?: (saved: boolean, left?: ReadonlySet<string>) => void;
}

/** Ignore files: editing one in place changes which files a walk finds. */
const RULE_FILES = new Set(['.gitignore', '.ignore']);
/** How far a directory's change time may trail the clock read before a walk (file times come from the kernel's coarse clock, a tick behind). */
const CLOCK_SLACK_MS = 10;
/** The note handed out once when a key's watching is turned off. */
export const WATCH_OFF = 'watching is off: fs.inotify.max_user_watches reached; every search walks the tree';

export class WalkCache {
  private readonly cached = new Map<string, Cached>();

  /** @param watchFrom the search of the same paths from which their directories are watched. */
  constructor(private readonly watchFrom = 2) {}

  /**
   * The walk for `key` (the paths and walk options), re-run only when something may have changed.
   * `hold`: the caller saves what it finds changed, and settles the state (WalkState.settle).
   */
  async get(key: string, roots: string[], run: () => Promise<Walk>, hold = false): Promise<WalkState> {
    let c = this.cached.get(key);
    // Events of writes made before this call must be in before the cache is trusted.
    // Two turns: the first may run before the loop polls again; the second always comes after a poll.
    if (c && c.watchers.size > 0) for (let i = 0; i < 2; i++) await new Promise((r) => setImmediate(r));
    // Checked after the last wait above: nothing between here and a walk's start gives way.
    while (c?.walking) await c.walking.then(() => undefined, () => undefined);
    if (c && c.walk && [...c.excludes].some(([f, stamp]) => excludeStamp(f) !== stamp)) { c.dirty = true; c.structural = true; }
    if (c && c.walk && !c.dirty && c.held.size === 0) return { walk: c.walk, cached: true };
    if (c && c.walk && !c.structural && c.watchers.size > 0) {
      // Named as the walk's keys are (real paths), which the check of what changed compares them with.
      const keyOf = c.changed.size > 0 ? fileKeys(roots) : null;
      let changedDirs: Set<string> | undefined = keyOf ? new Set([...c.changed].map(keyOf)) : c.changed;
      for (const d of c.unsaved) changedDirs.add(d);
      c.changed = new Set();
      c.unsaved = new Set();
      c.dirty = false;
      // What another search took to save and has not saved yet is checked again.
      for (const h of c.held) changedDirs = h.dirs && changedDirs ? new Set([...changedDirs, ...h.dirs]) : undefined;
      return this.handOut(c, { walk: c.walk, cached: false, changedDirs }, hold);
    }
    if (!c) {
      c = { walk: null, dirty: true, changed: new Set(), structural: true, watchers: new Map(), renamed: new Set(), uses: 0, broken: false, excludes: new Map(), noted: false, rules: new Map(), held: new Set(), unsaved: new Set(), walking: null };
      this.cached.set(key, c);
    }
    // Held from before the walk (every file: a search waiting for this walk then checks them all again, until saved).
    const h = hold ? this.hold(c, null) : null;
    const walking = this.walkAgain(c, roots, run);
    c.walking = walking;
    let walked: WalkState;
    try {
      walked = await walking;
    } catch (e) {
      h?.settle(false);
      throw e;
    } finally {
      if (c.walking === walking) c.walking = null;
    }
    const state = h ? { ...walked, settle: h.settle } : walked;
    if (!c.broken || c.noted) return state;
    // Once per key and process: the caller turns it into a warning (the core writes nothing itself).
    c.noted = true;
    return { ...state, note: { path: roots.map((r) => path.resolve(r)).join(', '), code: 'WATCH_OFF', message: WATCH_OFF } };
  }

  private async walkAgain(c: Cached, roots: string[], run: () => Promise<Walk>): Promise<WalkState> {
    // Watching starts with the second search of the same paths (by default): a one-search process never pays for it.
    const watching = ++c.uses >= this.watchFrom && !c.broken;
    // Marked clean before walking: an event during the walk makes the next search walk again.
    c.dirty = !watching;
    c.structural = !watching;
    c.changed = new Set();
    c.unsaved = new Set();
    const resolved = roots.map((r) => path.resolve(r));
    // Read before any watcher is set: a directory changed from here on may have been listed before its change.
    const startedMs = Date.now();
    if (watching) {
      this.watchDirs(c, resolved);
      // Stamped before the walk: an exclude or ignore file above a root written during it makes the next search walk again.
      c.excludes = new Map(unwatchedRuleFiles(resolved).map((f) => [f, excludeStamp(f)]));
    }
    // A walk that fails (cut by a deadline or an abort) leaves the next search to walk again.
    const walk = await run().catch((e: unknown) => { c.dirty = true; c.structural = true; throw e; });
    if (watching && !c.broken) {
      const dirs = dirsOf(walk.entries, resolved);
      for (const d of walk.dirs ?? []) dirs.add(d);
      for (const r of resolved) dirs.add(r);
      // A directory the walk no longer lists (deleted for good, or now ignored) is no longer watched (mend37c: before, a
      // process that saw many temporary directories come and go kept a watcher, and an inotify watch, for each).
      for (const [d, w] of c.watchers) if (!dirs.has(d)) { w.close(); c.watchers.delete(d); c.renamed.delete(d); }
      c.rules = walk.rules ?? new Map();
      this.watchDirs(c, dirs, startedMs);
      for (const d of dirs) {
        if (!statQuiet(path.join(d, '.git'))) continue;
        const f = excludeFileOf(d);
        if (!c.excludes.has(f)) c.excludes.set(f, excludeStamp(f));
      }
    }
    c.walk = walk;
    return { walk, cached: false };
  }

  /** `state`, held until its caller settles it (`hold`). */
  private handOut(c: Cached, state: WalkState, hold: boolean): WalkState {
    return hold ? { ...state, settle: this.hold(c, state.changedDirs ?? null).settle } : state;
  }

  /**
   * A hand-out of `dirs` (null: every file) held until settled: not saved, the next search walks again, or
   * checks only the directories `left` names (WalkState.settle).
   */
  private hold(c: Cached, dirs: Set<string> | null): { settle: (saved: boolean, left?: ReadonlySet<string>) => void } {
    const h: Held = { dirs };
    c.held.add(h);
    return {
      settle: (saved, left) => {
        if (!c.held.delete(h) || saved) return;
        c.dirty = true;
        if (!left) { c.structural = true; return; }
        for (const d of left) c.unsaved.add(d);
      },
    };
  }

  /** Forget a cached walk (after the index changed files it had seen as stale). */
  invalidate(key: string): void {
    const c = this.cached.get(key);
    if (c) { c.dirty = true; c.structural = true; }
  }

  close(): void {
    for (const c of this.cached.values()) for (const w of c.watchers.values()) w.close();
    this.cached.clear();
  }

  /**
   * Watches `dirs` not yet watched (and those that saw an entry created, removed or renamed). With
   * `sinceMs` (the walk's start: the walk listed them before), a directory changed since then may hold
   * an entry the walk did not list and no watcher saw: the next search walks again.
   */
  private watchDirs(c: Cached, dirs: Iterable<string>, sinceMs?: number): void {
    for (const dir of dirs) {
      const had = c.watchers.get(dir);
      if (had && !c.renamed.has(dir)) continue;
      c.renamed.delete(dir);
      try {
        const w = watch(dir, { persistent: false }, (event, name) => {
          if (name !== null && ignoredEntry(c.rules.get(dir), dir, String(name))) return;
          // An ignore file edited in place changes which files a walk finds: walked again.
          if (event === 'change' && !(name !== null && RULE_FILES.has(String(name)))) c.changed.add(dir);
          else if (event === 'change') c.structural = true;
          else { c.structural = true; c.renamed.add(dir); }
          c.dirty = true;
        });
        w.on('error', () => { c.dirty = true; c.structural = true; });
        c.watchers.set(dir, w);
        // Closed after the new one is set, so no event in between is lost (trial37: before, a
        // directory removed and made again kept its dead watcher, and files created there later
        // were never searched).
        had?.close();
        if (sinceMs !== undefined) {
          const st = statQuiet(dir);
          if (!st || st.ctimeMs >= sinceMs - CLOCK_SLACK_MS) { c.dirty = true; c.structural = true; }
        }
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') {
          // Gone (or replaced by a file) since the walk listed it: only this directory is dropped (mend37c: before,
          // any error turned watching off for the life of the process), and the next search walks again.
          had?.close();
          c.watchers.delete(dir);
          c.dirty = true;
          c.structural = true;
          continue;
        }
        // Out of watches (ENOSPC, EMFILE), or not a watchable directory: this key walks every time from now on.
        for (const w of c.watchers.values()) w.close();
        c.watchers.clear();
        c.renamed.clear();
        c.broken = true;
        c.dirty = true;
        c.structural = true;
        return;
      }
    }
  }
}

/**
 * Whether an event on `name` in `dir` cannot change the walk: the walk's rules there ignore it (as a
 * file and as a directory when it is gone, else as what it is). Never an ignore file, .git, or a name
 * that may be the directory's own (its removal).
 */
function ignoredEntry(rules: IgnoreStack | undefined, dir: string, name: string): boolean {
  if (!rules || name === '' || name.includes('/') || RULE_FILES.has(name) || name === '.git' || name === path.basename(dir)) return false;
  const abs = path.join(dir, name);
  if (!rules.ignores(abs, false) && !rules.ignores(abs, true)) return false;
  const st = statQuiet(abs);
  return st ? rules.ignores(abs, st.isDirectory()) : rules.ignores(abs, false) && rules.ignores(abs, true);
}

/** Directories of the entries and their parents up to the roots. */
function dirsOf(entries: Entry[], roots: string[]): Set<string> {
  const dirs = new Set<string>();
  for (const e of entries) {
    let d = path.dirname(path.resolve(e.path));
    while (!dirs.has(d)) {
      dirs.add(d);
      if (roots.includes(d)) break;
      const up = path.dirname(d);
      if (up === d) break;
      d = up;
    }
  }
  return dirs;
}

/**
 * Files no watcher sees that shape the walk: the exclude file of the repository at or above each root
 * (the nearest), and the ignore files in the directories above each root up to that repository (or
 * to the filesystem's root when there is none), as walk-record.ts probes them.
 */
function unwatchedRuleFiles(roots: string[]): string[] {
  const files = new Set<string>();
  for (const r of roots) {
    for (let d = r; ; d = path.dirname(d)) {
      if (d !== r) for (const name of RULE_FILES) files.add(path.join(d, name));
      if (statQuiet(path.join(d, '.git'))) { files.add(excludeFileOf(d)); break; }
      if (path.dirname(d) === d) break;
    }
  }
  return [...files];
}

/** An exclude file's change time, inode and size; '' when it is absent or cannot be had. */
function excludeStamp(file: string): string {
  const st = statQuiet(file);
  return st ? `${st.ctimeMs}:${st.ino}:${st.size}` : '';
}

function statQuiet(p: string) {
  try { return statSync(p, { throwIfNoEntry: false }); } catch { return undefined; }
}
