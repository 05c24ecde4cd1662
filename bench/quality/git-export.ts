// Exports a pinned git revision's benchmark_root from a bare git directory (brought in by the search
// tool's `fetch github:owner/name`) with `git archive`, never running anything from it, and lists the
// files the snapshot names but cannot give (snapshots may leave their largest blobs out).
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './dataset.js';
import type { GitPin } from './pins.js';

type Run = (cmd: string, args: string[], what: string) => string;

/** Where fetched bare git directories live: $SIMGREP_GIT_MIRRORS, else ../.mirror beside the repo. */
export function gitMirrorsDir(): string {
  return process.env.SIMGREP_GIT_MIRRORS ?? path.resolve(REPO_ROOT, '..', '.mirror');
}

/** The bare git directory of owner/name under the mirrors folder (fetch's layout: owner+name/repo), or null. */
export function findGitDir(pkg: string, mirrors = gitMirrorsDir()): string | null {
  const [owner, name] = pkg.split('/');
  const candidates = [path.join(mirrors, `${owner}+${name}`, 'repo'), path.join(mirrors, `${owner}+${name}`), path.join(mirrors, owner, `${name}.git`)];
  return candidates.find((d) => existsSync(path.join(d, 'HEAD')) && existsSync(path.join(d, 'objects'))) ?? null;
}

const hidden = (rel: string): boolean => rel.split('/').some((part) => part.startsWith('.'));

/**
 * Regular files `git ls-tree -r -z` lists under prefix (NUL-separated "mode type sha\tpath" records),
 * prefix-relative; symlinks, submodules and hidden entries (which simgrep's walker skips) left out.
 */
export function parseLsTree(out: string, prefix: string): string[] {
  const files: string[] = [];
  for (const rec of out.split('\0')) {
    const tab = rec.indexOf('\t');
    if (tab < 0) continue;
    const [mode, type] = rec.slice(0, tab).split(' ');
    const p = rec.slice(tab + 1);
    if (type !== 'blob' || (mode !== '100644' && mode !== '100755')) continue;
    const rel = prefix ? p.slice(prefix.length + 1) : p;
    if (!hidden(rel)) files.push(rel);
  }
  return files;
}

/** Extracts pin.version's benchmark root into dest/tree/...; returns the root-relative files that are absent. */
export function exportGitTree(pin: GitPin, dest: string, run: Run): string[] {
  const gitDir = findGitDir(pin.pkg);
  if (!gitDir) {
    throw new Error(`no bare git directory for ${pin.pkg} under ${gitMirrorsDir()}: bring it in with the search tool's `
      + `\`fetch github:${pin.pkg}\` (or point SIMGREP_GIT_MIRRORS at the folder holding owner+name/repo)`);
  }
  const git = (args: string[], what: string): string => run('git', ['--git-dir', gitDir, ...args], what);
  git(['cat-file', '-e', `${pin.version}^{commit}`], `looking for ${pin.version} in ${gitDir} (fetch a newer snapshot?)`);
  const benchmarkRoot = pin.root === 'tree' ? '' : pin.root.slice('tree/'.length);
  const tree = path.join(dest, 'tree');
  mkdirSync(tree, { recursive: true });
  const tar = path.join(dest, 'archive.tar');
  git(['archive', '--format=tar', '-o', tar, pin.version, ...(benchmarkRoot ? [benchmarkRoot] : [])], `git archive ${pin.pkg} ${pin.version}`);
  run('tar', ['-xf', tar, '-C', tree], `untarring the ${pin.pkg} archive`);
  rmSync(tar);
  const listed = parseLsTree(git(['ls-tree', '-r', '-z', pin.version, ...(benchmarkRoot ? ['--', benchmarkRoot] : [])], `listing ${pin.pkg}`), benchmarkRoot);
  const root = path.join(dest, pin.root);
  return listed.filter((rel) => !existsSync(path.join(root, rel)));
}
