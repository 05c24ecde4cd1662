// A cold search's walk without listing the tree again, as git's untracked cache does: the last walk of
// the same paths (same filters, same working directory) is kept in simgrep's cache with the change
// time (ctime) of every directory it listed and of every ignore file that could shape it. A
// directory's ctime changes whenever an entry is created, removed or renamed in it (and on a chmod),
// and an ignore file's when it is edited (above the roots, only the ignore files and .git are
// checked), so while none changed the walk finds the same files (whether those files changed is
// found by the search's stat of each, as always). Not kept: walks with warnings, a size cap, globs or
// named files among the paths, names that are not UTF-8, more than 1,000,000 files, and walks that
// listed a directory changed in the 2 s before they started (a change within the filesystem's
// timestamp granularity could then go unseen).
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync, type Stats } from 'node:fs';
import path from 'node:path';
import { simgrepCacheDir } from '../../model/tokenizer-file.js';
import { pathBasics, seedPathInfo, type PathBasics } from '../snapshot/path-info.js';
import type { Walk } from './walk-cache.js';
import { simgrepVersion } from '../../version.js';
import { excludeFileOf } from '../../sources/ignore-rules.js';

/** Bump when what a record holds changes, pathFacts and pathTerms (rank/) included. */
const FORMAT = 13; // 13: ignore verdicts from wildcard.ts, not the ignore package (git's [!a], POSIX classes, ranges, extglobs read anew), so a record of the old rules is not trusted; 12: each file's rank path (Entry.rank) is kept as the walk gave it, and the facts kept are its; 11: git's rules stop at a nested repository, a .git file leads to its exclude; 10: a repository's .git/info/exclude is probed; 9: keys under a root reached through a symlink are real paths (sources/real-paths.ts)
/** A directory or ignore file changed this recently is not trusted to show its next change. */
const RACY_MS = 2000;
/** Records kept; the least recently written go first. */
const KEEP = 64;
/**
 * Walks of more files are not kept. A record takes ~170 bytes a file (its path and key; ~90 when the
 * key is the path; its rank path too, tens of bytes, unless every root is `.`), ~100 more with the path facts a search's walk keeps, which are kept up to
 * FACTS_UP_TO files only (20 MB there);
 * above, a cold search works the facts out again but still skips the walk (150,000 files: walked in
 * 1.3 s, their record loaded and its directories checked in 0.13 s; bench/walk-record.ts).
 */
const MAX_FILES = 1_000_000;
const FACTS_UP_TO = 100_000;
const RULE_FILES = ['.gitignore', '.ignore'];

/** [path, ctimeMs, inode] of a directory; [path, ctimeMs, inode, size] of an ignore file. */
type DirStamp = [string, number, number];
type FileStamp = [string, number, number, number];

interface Record {
  format: number;
  /** simgrep's version: the path facts are its ranker's. */
  version: string;
  dirs: DirStamp[];
  rules: FileStamp[];
  /** Files above the roots: [path, its stamp (mtime and size 0 for .git), or null when absent]. */
  probes: [string, FileStamp | null][];
  paths: string[];
  /** Each file's rank path (Entry.rank) as the walk gave it, never worked out again from the roots (a `..` in one, a glob); absent when every one is its path. */
  ranks?: string[];
  /** Absent when every key is its path. */
  keys?: string[];
  /** Each path's facts as the ranker reads them (pathBasics), so a cold search need not work them out (a search's walk only). */
  basics?: PackedBasics;
}

/**
 * The paths' facts in columns, about a third of the JSON (and of its parse) of one object per path:
 * the file stems, the names joined by spaces (identifier parts hold none), the path texts, and the
 * flags as one character per path.
 */
export interface PackedBasics { stems: string[]; names: string[]; texts: string[]; flags: string }

const TEST = 1;
const SIDE = 2;
const INIT = 4;
const DTS = 8;
const DATA = 16;

export function packBasics(basics: PathBasics[]): PackedBasics {
  return {
    stems: basics.map((b) => b.facts.fileStem),
    names: basics.map((b) => b.facts.names.join(' ')),
    texts: basics.map((b) => b.pathText),
    flags: basics.map(({ facts: f }) => String.fromCharCode(48 + (f.test ? TEST : 0) + (f.side ? SIDE : 0) + (f.init ? INIT : 0) + (f.dts ? DTS : 0) + (f.data ? DATA : 0))).join(''),
  };
}

export function unpackBasics(p: PackedBasics, i: number): PathBasics {
  const bits = p.flags.charCodeAt(i) - 48;
  const names = p.names[i] === '' ? [] : p.names[i].split(' ');
  const facts = { fileStem: p.stems[i], names, test: (bits & TEST) !== 0, side: (bits & SIDE) !== 0, init: (bits & INIT) !== 0, dts: (bits & DTS) !== 0, data: (bits & DATA) !== 0 };
  return { facts, pathText: p.texts[i] };
}

/** Where the walk of `key` (the working directory, paths and filters) is kept; null when caching is off. */
export function walkRecordFile(key: string): string | null {
  const cache = simgrepCacheDir();
  return cache ? path.join(cache, 'walks', `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.json`) : null;
}

/** The recorded walk, if nothing it depends on changed since. */
export function loadWalkRecord(file: string): Walk | null {
  let r: Record;
  try { r = JSON.parse(readFileSync(file, 'utf8')) as Record; } catch { return null; }
  if (r.format !== FORMAT || r.version !== simgrepVersion()) return null;
  for (const [dir, mtime, ino] of r.dirs) {
    const st = statQuiet(dir);
    if (!st || !st.isDirectory() || st.ctimeMs !== mtime || st.ino !== ino) return null;
  }
  for (const [file, mtime, ino, size] of r.rules) {
    const st = statQuiet(file);
    if (!st || st.ctimeMs !== mtime || st.ino !== ino || st.size !== size) return null;
  }
  for (const [file, stamp] of r.probes) {
    const st = statQuiet(file);
    if (!st !== !stamp) return null;
    if (st && stamp && (st.ino !== stamp[2] || (stamp[1] !== 0 && (st.ctimeMs !== stamp[1] || st.size !== stamp[3])))) return null;
  }
  const basics = r.basics;
  const ranks = r.ranks;
  if (ranks && ranks.length !== r.paths.length) return null;
  if (basics) (ranks ?? r.paths).forEach((p, i) => seedPathInfo(p, unpackBasics(basics, i)));
  // No rank paths kept: each is its path (Entry.rank absent reads as the path).
  return { entries: r.paths.map((p, i) => (ranks ? { path: p, rank: ranks[i] } : { path: p })), keys: r.keys ?? r.paths, warnings: [], dirs: r.dirs.map(([d]) => d) };
}

/**
 * Keeps `walk` (of the directories `roots`, which listed `listed`, started at `startedMs`) when it can
 * be trusted later; `rules`: whether ignore files shaped it; `racyMs`: how recent a change is not
 * trusted (tests pass less); `pathFacts`: keep the paths' ranking facts too (a search's walk).
 */
export function saveWalkRecord(file: string, walk: Walk, o: { roots: string[]; listed: string[]; rules: boolean; startedMs: number; racyMs?: number; pathFacts?: boolean }): void {
  const trustedBefore = o.startedMs - (o.racyMs ?? RACY_MS);
  if (walk.warnings.length > 0 || walk.entries.length > MAX_FILES || walk.entries.some((e) => e.named || e.pipe || (e as { io?: unknown }).io !== undefined)) return;
  const roots = o.roots.map((r) => path.resolve(r));
  const listed = new Set(o.listed);
  if (!roots.every((r) => listed.has(r))) return; // a root that is a file or a glob
  const dirs: DirStamp[] = [];
  const rules: FileStamp[] = [];
  const stampDir = (d: string): boolean => {
    const st = statQuiet(d);
    if (!st || st.ctimeMs > trustedBefore) return false;
    dirs.push([d, st.ctimeMs, st.ino]);
    if (o.rules) {
      for (const name of RULE_FILES) {
        const f = statQuiet(path.join(d, name));
        if (!f) continue;
        if (f.ctimeMs > trustedBefore) return false;
        rules.push([path.join(d, name), f.ctimeMs, f.ino, f.size]);
      }
    }
    return true;
  };
  for (const d of listed) if (!stampDir(d)) return;
  // Above the roots (up to the enclosing repository) only their ignore files and .git matter: each is
  // recorded as present (with its stamp) or absent, so unrelated changes there (a busy home or /tmp)
  // do not matter.
  const probes: [string, FileStamp | null][] = [];
  // A repository's exclude file, present or absent (creating it changes no listed directory): its
  // .git/info/exclude, or the one a .git file leads to (a linked worktree's common directory's).
  const probeExclude = (d: string): boolean => {
    const f = excludeFileOf(d);
    const st = statQuiet(f);
    if (st && st.ctimeMs > trustedBefore) return false;
    probes.push([f, st ? [f, st.ctimeMs, st.ino, st.size] : null]);
    return true;
  };
  if (o.rules) {
    for (const d of listed) if (statQuiet(path.join(d, '.git')) && !probeExclude(d)) return;
  }
  if (o.rules) {
    const above = new Set<string>();
    for (const r of roots) {
      for (let d = path.dirname(r); !above.has(d) && !listed.has(d); d = path.dirname(d)) {
        above.add(d);
        let git = false;
        for (const name of [...RULE_FILES, '.git']) {
          const f = path.join(d, name);
          const st = statQuiet(f);
          if (st && name !== '.git' && st.ctimeMs > trustedBefore) return;
          if (st && name === '.git') git = true;
          probes.push([f, st ? [f, name === '.git' ? 0 : st.ctimeMs, st.ino, name === '.git' ? 0 : st.size] : null]);
        }
        if (git && !probeExclude(d)) return;
        if (git || path.dirname(d) === d) break;
      }
    }
  }
  const paths = walk.entries.map((e) => e.path);
  const keys = walk.keys.length === paths.length && walk.keys.every((k, i) => k === paths[i]) ? undefined : walk.keys;
  const rankList = walk.entries.map((e) => e.rank ?? e.path);
  const ranks = rankList.every((r, i) => r === paths[i]) ? undefined : rankList;
  const basics = o.pathFacts && paths.length <= FACTS_UP_TO ? packBasics(rankList.map((r) => pathBasics(r))) : undefined;
  const record: Record = { format: FORMAT, version: simgrepVersion(), dirs, rules, probes, paths, ranks, keys, basics };
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(record));
    renameSync(tmp, file);
    prune(path.dirname(file));
  } catch { /* a read-only cache: the next search walks */ }
}

/** A path's stat, or undefined when it cannot be had: absent, or under a file (ENOTDIR: `.git` a file), a loop, no access. */
function statQuiet(p: string): Stats | undefined {
  try { return statSync(p, { throwIfNoEntry: false }); } catch { return undefined; }
}

function prune(dir: string): void {
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  if (files.length <= KEEP) return;
  const aged = files.map((f) => ({ f, t: statSync(path.join(dir, f), { throwIfNoEntry: false })?.mtimeMs ?? 0 })).sort((a, b) => a.t - b.t);
  for (const { f } of aged.slice(0, files.length - KEEP)) { try { unlinkSync(path.join(dir, f)); } catch { /* taken by another process */ } }
}
