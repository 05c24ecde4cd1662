// Local files: explicit files, directory walks (.gitignore/.ignore, hidden, extensions, types, globs, size cap),
// and quoted globs. Named files are always searched; filters apply to what a walk finds.
import { closeSync, existsSync, fstatSync, openSync, read, readSync, realpathSync, statSync } from 'node:fs';
import { lstat, readFile, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import path from 'node:path';
import { nameFilterOf, tooLargeMessage, type WalkFilters } from './filters.js';
import { listDir, type DirItem, type IoPath } from './dir-listing.js';
import { IgnoreStack } from './ignore-rules.js';
import { readPipe } from './read-pipe.js';
import { SimgrepError } from '../errors.js';
import { compileGlob, globBase } from './wildcard.js';
import { STREAM_CHUNK_BYTES, WHOLE_READ_BYTES, type Entry, type Source, type SourceWarning } from './source.js';

export interface FsSourceOptions extends WalkFilters {
  paths: string[];
  noIgnore?: boolean;
  followSymlinks?: boolean;
  /**
   * Told each directory a walk lists (its absolute path), the ignore rules of its entries (none with noIgnore)
   * and how many entries it holds, after listing it; a throw ends the walk (list() rejects with it).
   */
  onListed?: (dir: string, rules: IgnoreStack | undefined, entries: number) => void;
  /**
   * A file that two of the paths reach (a file and its directory, a directory and its parent, a link to a
   * root and the root) is listed once, the first time (after the filters), judged by this key of its path
   * (sources/real-paths.ts fileKeys of the paths, as an index keys it): a scan's. A workspace's walk lists
   * every path's files and its coverage keeps the first that its name filters keep (coverage.ts).
   */
  unique?: (p: string) => string;
}

const GLOB_CHARS = /[*?[\]{}]/;

/** A walk's entry whose name is not valid UTF-8 carries the raw path to open. */
interface FsEntry extends Entry { io?: Buffer }
const ioOf = (e: Entry): IoPath => (e as FsEntry).io ?? e.path;

/** A path that names files by pattern (expanded when no file has that exact name). */
export const isGlob = (p: string): boolean => GLOB_CHARS.test(p);
const readAsync = promisify(read);

/** A local walk's source, which can also tell a listed file's size (a walk lists names only). */
export interface FsSource extends Source {
  /** The entry's size in bytes (its listed size, else a stat of it); undefined for a pipe or a file that cannot be stat'ed. */
  sizeOf(entry: Entry): number | undefined;
  /** Up to `maxBytes` of the entry's first bytes (undefined for a pipe or a file that cannot be read). */
  headOf(entry: Entry, maxBytes: number): Uint8Array | undefined;
}

export function createFsSource(opts: FsSourceOptions): FsSource {
  const warnings: SourceWarning[] = [];
  const recursive = opts.recursive ?? true;
  const names = nameFilterOf(opts);
  const warn = (p: string, code: string, message: string) => warnings.push({ path: p, code, message });
  /** Rule files are named as the walk shows paths (relative when the user gave a relative root). */
  const ruleProblem = (rootAbs: string, rootDisplay: string) => (file: string, problem: string) => {
    const rel = path.relative(rootAbs, file);
    const shown = rel.startsWith('..') || path.isAbsolute(rel) ? file : joinDisplay(rootDisplay, rel.split(path.sep).join('/'));
    warn(shown, 'IGNORE_FILE_UNUSABLE', `${shown} ${problem}; its ignore rules were not applied`);
  };

  const wantedByFilters = (rel: string, size: number | undefined, display: string): boolean => {
    if (!names.file(rel)) return false;
    if (opts.maxFileBytes !== undefined && size !== undefined && size > opts.maxFileBytes) {
      warn(display, 'TOO_LARGE', tooLargeMessage(display, size, opts.maxFileBytes));
      return false;
    }
    return true;
  };

  /**
   * Where a walk is: the directory (lossy string for rules, IoPath for reads), and how it is shown. Every
   * At is made with the same fields in the same order (`ancestors` undefined where none): a root made
   * without it was an object of another shape to V8, whose optimized walk dropped its code at the
   * first child and compiled it again (`--trace-deopt`: "wrong map", branch jit35).
   */
  interface At { abs: string; io: IoPath; display: string; rules: IgnoreStack; ancestors: ReadonlySet<string> | undefined; rel: string }
  /** The walk's root: relative paths for a glob's matcher, how rule files are named, and its rank prefix (rankPrefixes). */
  interface Root { abs: string; display: string; match?: (rel: string) => boolean; rank?: string }
  const prefixes = rankPrefixes(opts.paths);

  /**
   * `at.ancestors` (only when following links): the device:inode of every directory above, so a link
   * back to one of them is a loop, reported once and not followed.
   */
  async function* walk(at: At, root: Root): AsyncGenerator<Entry> {
    // Listed synchronously, like small files are read: the promise API costs more than the listing.
    let items: DirItem[];
    try { items = listDir(at.abs, at.io); } catch (e) {
      warn(at.display, 'PATH_UNREADABLE', `cannot read directory ${at.display}: ${(e as NodeJS.ErrnoException).code ?? e}; check its permissions`);
      return;
    }
    const rulesHere = opts.noIgnore ? at.rules : await at.rules.enter(at.abs, new Set(items.map((d) => d.name)), ruleProblem(root.abs, root.display), at.io);
    opts.onListed?.(at.abs, opts.noIgnore ? undefined : rulesHere, items.length);
    let ancestors = at.ancestors;
    for (const d of items) {
      if (d.name === '.git') continue;
      if (!opts.hidden && d.name.startsWith('.')) continue;
      const abs = path.join(at.abs, d.name);
      const shown = joinDisplay(at.display, d.shownName);
      const rel = at.rel === '' ? d.shownName : `${at.rel}/${d.shownName}`;
      let isDir = d.isDir;
      let isFile = d.isFile;
      if (d.isLink) {
        if (!opts.followSymlinks) continue;
        try { const s = await stat(d.io); isDir = s.isDirectory(); isFile = s.isFile(); } catch (e) {
          const code = (e as NodeJS.ErrnoException).code;
          if (code === 'ELOOP') warn(shown, 'SYMLINK_LOOP', `${shown}: symbolic link loop (the link resolves to itself); not followed`);
          continue; // a dangling link is skipped quietly, as ripgrep does
        }
      }
      if (!opts.noIgnore && rulesHere.ignores(abs, isDir)) continue;
      if (isDir) {
        if (!recursive || !names.dir(rel)) continue;
        let below = ancestors;
        if (opts.followSymlinks) {
          const id = await dirId(d.io);
          const seen = (ancestors ??= new Set([(await dirId(at.io)) ?? at.abs]));
          if (id && seen.has(id)) {
            warn(shown, 'SYMLINK_LOOP', `${shown}: symbolic link loop (it leads back to a directory above it); not followed`);
            continue;
          }
          below = new Set(seen).add(id ?? abs);
        }
        yield* walk({ abs, io: d.io, display: shown, rules: rulesHere, ancestors: below, rel }, root);
      } else if (isFile) {
        if (root.match && !root.match(path.relative(root.abs, abs).split(path.sep).join('/'))) continue;
        // A stat per file costs more than it saves: only --max-filesize needs the size up front.
        let size: number | undefined;
        if (opts.maxFileBytes !== undefined) {
          try { size = (await stat(d.io)).size; } catch { continue; }
        }
        const rank = root.rank ? `${root.rank}/${rel}` : rel;
        if (wantedByFilters(rel, size, shown)) yield typeof d.io === 'string' ? { path: shown, rank, size } : { path: shown, rank, size, io: d.io } as FsEntry;
      }
    }
  }

  async function* listOne(p: string): AsyncGenerator<Entry> {
    let s;
    try { s = await stat(p); } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && isGlob(p)) { yield* expandGlob(p); return; }
      if (code === 'ENOENT' && p.includes('\uFFFD')) warn(p, 'PATH_NOT_FOUND', `${p}: no such file or directory; if its name is not valid UTF-8, Node.js cannot take it as an argument: name the directory that holds it instead`);
      else if (code === 'ENOENT') warn(p, 'PATH_NOT_FOUND', `${p}: no such file or directory (relative paths start at ${process.cwd()})`);
      else if (code === 'ELOOP') warn(p, 'SYMLINK_LOOP', `${p}: symbolic link loop (following its links never reaches a file); fix or remove the link`);
      else warn(p, 'PATH_UNREADABLE', `${p}: cannot be read (${code ?? e}); check its permissions`);
      return;
    }
    if (s.isDirectory()) {
      // --no-recursive: the directory's own files (its subdirectories are not entered: walk), as for a prefix.
      const abs = path.resolve(p);
      const rules = opts.noIgnore ? IgnoreStack.empty() : await IgnoreStack.forRoot(abs, ruleProblem(abs, p));
      yield* walk({ abs, io: abs, display: p, rules, ancestors: undefined, rel: '' }, { abs, display: p, rank: prefixes.get(p) ?? '' });
    } else if (s.isFile()) {
      if (opts.maxFileBytes !== undefined && s.size > opts.maxFileBytes) {
        warn(p, 'TOO_LARGE', tooLargeMessage(p, s.size, opts.maxFileBytes));
        return;
      }
      yield { path: p, rank: prefixes.get(p) || path.basename(p), size: s.size, named: true };
    } else if (s.isFIFO() || s.isCharacterDevice()) {
      // A named pipe, <(process substitution) or /dev/stdin given explicitly is read, as grep does.
      yield { path: p, named: true, pipe: true };
    } else {
      warn(p, 'PATH_UNREADABLE', `${p} is not a regular file, pipe or directory (a socket or block device); it was not searched`);
    }
  }

  async function* expandGlob(pattern: string): AsyncGenerator<Entry> {
    const { base, glob } = globBase(pattern);
    const root = base || '.';
    let isMatch: (rel: string) => boolean;
    // A glob root refused (braces past their bounds) is this root's warning, as a missing path is: the other paths are still searched.
    try { isMatch = compileGlob(glob, { dot: !!opts.hidden }); } catch (e) {
      if (!(e instanceof SimgrepError)) throw e;
      warn(pattern, e.code, `${e.message}; this path was not searched`);
      return;
    }
    try { await lstat(root); } catch {
      warn(pattern, 'PATH_NOT_FOUND', `${pattern}: no file matches (the glob's base ${root} does not exist)`);
      return;
    }
    const abs = path.resolve(root);
    let found = false;
    const saved = recursiveWalk(abs, root, isMatch, prefixes.get(pattern) ?? '');
    for await (const e of saved) { found = true; yield e; }
    if (!found) warn(pattern, 'PATH_NOT_FOUND', `${pattern}: no file matches this glob`);
  }

  /** `rank`: the glob's rank prefix (rankPrefixes: its base's), so its files rank as a walk of the base would rank them. */
  async function* recursiveWalk(abs: string, display: string, isMatch: (rel: string) => boolean, rank: string): AsyncGenerator<Entry> {
    const rules = opts.noIgnore ? IgnoreStack.empty() : await IgnoreStack.forRoot(abs, ruleProblem(abs, display));
    const shown = display === '.' ? '' : display;
    yield* walk({ abs, io: abs, display: shown, rules, ancestors: undefined, rel: '' }, { abs, display: shown, match: isMatch, rank });
  }

  return {
    async *list(signal) {
      const seen = opts.unique && opts.paths.length > 1 ? new Set<string>() : null;
      for (const p of opts.paths) {
        for await (const e of listOne(p)) {
          if (signal?.aborted) return;
          if (seen) {
            const key = opts.unique!(e.path);
            if (seen.has(key)) continue;
            seen.add(key);
          }
          yield e;
        }
      }
    },
    read: (entry) => readFile(ioOf(entry)),
    sizeOf(entry) {
      if (entry.pipe) return undefined;
      if (entry.size !== undefined) return entry.size;
      try { return statSync(ioOf(entry)).size; } catch { return undefined; }
    },
    headOf(entry, maxBytes) {
      if (entry.pipe) return undefined;
      let fd: number;
      try { fd = openSync(ioOf(entry), 'r'); } catch { return undefined; }
      try {
        const buf = Buffer.allocUnsafe(maxBytes);
        return buf.subarray(0, readSync(fd, buf, 0, maxBytes, 0));
      } catch {
        return undefined;
      } finally {
        closeSync(fd);
      }
    },
    /**
     * One open: small files come back whole in one chunk, big ones in 1 MiB chunks. Small files are
     * read synchronously: for a tree of 5 KB files the promise API's open/stat/read/close round trips
     * cost ~10x the CPU of the reads themselves on the thread that feeds the workers (bench/RESULTS.md).
     */
    async *stream(entry, signal) {
      if (entry.pipe) { yield* readPipe(entry.path, signal); return; }
      const fd = openSync(ioOf(entry), 'r');
      try {
        // A size of 0 is what /proc and sysfs files report whatever they hold: those are streamed too,
        // so that only the bytes actually read count, never what stat claims.
        const size = fstatSync(fd).size;
        if (size > 0 && size <= WHOLE_READ_BYTES) { yield readWhole(fd, size); return; }
        for (;;) {
          if (signal?.aborted) return;
          const chunk = Buffer.allocUnsafe(STREAM_CHUNK_BYTES);
          const { bytesRead } = await readAsync(fd, chunk, 0, chunk.length, null);
          if (bytesRead === 0) return;
          yield chunk.subarray(0, bytesRead);
        }
      } finally {
        closeSync(fd);
      }
    },
    drainWarnings() { return warnings.splice(0); },
  };
}

/**
 * What readFileSync(fd) reads (up to `size` bytes from the current position, fewer if the file shrank),
 * without its second fstat: a scan of the 9,037-file bench tree makes 9,037 fewer system calls.
 */
function readWhole(fd: number, size: number): Buffer {
  const buf = Buffer.allocUnsafe(size);
  let at = 0;
  while (at < size) {
    const n = readSync(fd, buf, at, size - at, null);
    if (n === 0) break;
    at += n;
  }
  return at < size ? buf.subarray(0, at) : buf;
}

/** device:inode of a directory, the identity a loop check needs (null if it cannot be stat'ed). */
async function dirId(p: IoPath): Promise<string | null> {
  try { const s = await stat(p); return `${s.dev}:${s.ino}`; } catch { return null; }
}

/**
 * Where each of a search's paths (as given) lies below the outermost other one that holds it: the rank
 * path (Entry.rank) of a file is relative to that outermost searched directory, so a file that two paths
 * reach (`src` and `.`, `src` and `'src/x/*.ts'`, a link to the tree and `tree/src`) ranks as by the wider
 * alone, and however a root is spelled (`tree`, `/abs/tree`, `.`, `src/../docs`) its files rank alike. A
 * glob stands for its base (the directory before its first wildcard: its walk's root); paths are compared
 * real (symbolic links resolved), as given where they cannot be. '' for a path no other holds.
 */
export function rankPrefixes(roots: readonly string[], cwd = process.cwd()): Map<string, string> {
  // (A path that exists is itself, wildcards or not: listOne takes it as a glob only when it does not.)
  const anchor = (r: string) => (isGlob(r) && !existsSync(path.resolve(cwd, r)) ? globBase(r).base || '.' : r);
  const abs = roots.map((r) => realOrResolved(path.resolve(cwd, anchor(r))));
  const out = new Map<string, string>();
  roots.forEach((r, i) => {
    let outer = '';
    for (const b of abs) {
      if (b !== abs[i] && abs[i].startsWith(b.endsWith(path.sep) ? b : b + path.sep) && (outer === '' || b.length < outer.length)) outer = b;
    }
    if (!out.has(r)) out.set(r, outer === '' ? '' : path.relative(outer, abs[i]).split(path.sep).join('/'));
  });
  return out;
}

function realOrResolved(p: string): string {
  try { return realpathSync(p); } catch { return p; }
}

function joinDisplay(dir: string, name: string): string {
  if (dir === '') return name;
  return dir.endsWith('/') || dir.endsWith(path.sep) ? dir + name : `${dir}/${name}`;
}
