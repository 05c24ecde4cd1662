// Which build produced a quality run: the git commit, and whether dist/ changed while it ran (other
// work in a shared tree can rebuild it mid-run, and then the figures mix two builds).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './dataset.js';

export function gitCommit(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${head} + uncommitted changes` : head;
  } catch {
    return 'unknown (not a git checkout)';
  }
}

function newestMtime(dir: string): number {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** A stamp of the built product (dist/src, dist/workers): compare one taken at the start with one at the end. */
export function distStamp(): number {
  return Math.max(newestMtime(path.join(REPO_ROOT, 'dist', 'src')), newestMtime(path.join(REPO_ROOT, 'dist', 'workers')));
}
