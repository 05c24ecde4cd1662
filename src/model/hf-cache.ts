// The huggingface_hub cache layout, shared with Python (model2vec, semtools, transformers):
// <cache>/models--{org}--{name}/refs/{revision} holds a commit hash; files live in snapshots/{hash}/.
import { mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { detectLayout, type ModelLayout } from './layout.js';

export const DEFAULT_REVISION = 'main';

const COMMIT_RE = /^[0-9a-f]{40}$/;

export function isCommitHash(revision: string): boolean {
  return COMMIT_RE.test(revision);
}

/** "org/name" -> "<cache>/models--org--name" */
export function repoCacheDir(cacheDir: string, repoId: string): string {
  return path.join(cacheDir, `models--${repoId.split('/').join('--')}`);
}

export function snapshotDir(repoDir: string, commit: string): string {
  return path.join(repoDir, 'snapshots', commit);
}

function refPath(repoDir: string, revision: string): string {
  // Branch names may contain "/" (refs/pr/1); huggingface_hub nests them the same way.
  return path.join(repoDir, 'refs', ...revision.split('/'));
}

/** The commit a revision points at in the cache, or null. */
export async function readRef(repoDir: string, revision: string): Promise<string | null> {
  if (isCommitHash(revision)) return revision;
  try {
    const commit = (await readFile(refPath(repoDir, revision), 'utf8')).trim();
    return commit === '' ? null : commit;
  } catch {
    return null;
  }
}

/** Atomically points refs/{revision} at `commit` (no trailing newline: Python reads the file raw). */
export async function writeRef(repoDir: string, revision: string, commit: string): Promise<void> {
  if (isCommitHash(revision)) return;
  const file = refPath(repoDir, revision);
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await writeFile(tmp, commit);
  await rename(tmp, file);
}

async function latestSnapshot(repoDir: string): Promise<ModelLayout | null> {
  const root = path.join(repoDir, 'snapshots');
  let names: string[];
  try {
    names = await readdir(root);
  } catch {
    return null;
  }
  const dated = await Promise.all(
    names.map(async (name) => {
      const dir = path.join(root, name);
      try {
        const s = await stat(dir);
        return s.isDirectory() ? { dir, mtimeMs: s.mtimeMs } : null;
      } catch {
        return null;
      }
    }),
  );
  const dirs = dated.filter((d): d is { dir: string; mtimeMs: number } => d !== null).sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const { dir } of dirs) {
    const layout = await detectLayout(dir);
    if (layout) return layout;
  }
  return null;
}

export interface CacheLookup {
  repoDir: string;
  /** The complete cached model, or null when it must be downloaded. */
  layout: ModelLayout | null;
  /** The commit the revision resolved to in the cache (even if that snapshot is incomplete). */
  commit: string | null;
}

/**
 * refs/{revision} (or the revision itself when it is a commit hash) -> a complete snapshot. When the
 * caller did not pin a revision and refs/main is absent, falls back to the newest complete snapshot,
 * as model2vec's Python loader does.
 */
export async function lookupCache(cacheDir: string, repoId: string, revision: string | undefined): Promise<CacheLookup> {
  const repoDir = repoCacheDir(cacheDir, repoId);
  const commit = await readRef(repoDir, revision ?? DEFAULT_REVISION);
  if (commit) {
    const layout = await detectLayout(snapshotDir(repoDir, commit));
    if (layout) return { repoDir, layout, commit };
  }
  if (revision === undefined && !commit) return { repoDir, layout: await latestSnapshot(repoDir), commit };
  return { repoDir, layout: null, commit };
}
