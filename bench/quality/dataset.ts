// The semble dev sets as data: locates ../shared/eval/<set>, loads repos.json and the annotations,
// and turns targets into upstream-repo-relative paths (line spans are ignored, as the README says).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, sharedDir } from '../bench-model.js';

export { REPO_ROOT };

export type Category = 'semantic' | 'architecture' | 'symbol';
export const CATEGORIES: readonly Category[] = ['semantic', 'architecture', 'symbol'];

/** semble-dev: 13 Python/JS/TS repos; semble-dev2: 24 repos in 14 other languages. */
export type DevSetId = 'semble-dev' | 'semble-dev2';
export const DEV_SETS: readonly DevSetId[] = ['semble-dev', 'semble-dev2'];

export interface RepoSpec {
  name: string;
  language: string;
  url: string;
  revision: string;
  /** The upstream folder semble indexed, relative to the upstream repo (e.g. "src/flask"); null = the whole repo. */
  benchmark_root: string | null;
}

export interface Query {
  repo: string;
  /** Position in the repo's annotation file: with the repo, a stable id for diffs. */
  index: number;
  query: string;
  category: Category;
  /** Targets as labelled (upstream-repo-relative, or search-root-relative in a few files), relevant then secondary (all gain 1). */
  targets: string[];
}

export interface Dataset { id: DevSetId; dir: string; repos: RepoSpec[]; queries: Query[] }

export function devSetDir(id: DevSetId): string {
  const dir = path.join(sharedDir(), 'eval', id);
  if (!existsSync(path.join(dir, 'repos.json'))) {
    throw new Error(`the ${id} dev set is missing: no ${path.join(dir, 'repos.json')}. `
      + 'Put the shared folder beside the repo (../shared) or set SIMGREP_SHARED_DIR to it.');
  }
  return dir;
}

type RawTarget = string | { path: string; start_line?: number; end_line?: number };
interface RawQuery { query: string; relevant?: RawTarget[]; secondary?: RawTarget[]; category?: string }

const targetPath = (t: RawTarget): string => (typeof t === 'string' ? t : t.path);

/** One dev set's repos (sorted by name) and queries; `only` keeps the named repos that belong to it. */
export function loadDataset(id: DevSetId, only?: string[]): Dataset {
  const dir = devSetDir(id);
  const all = JSON.parse(readFileSync(path.join(dir, 'repos.json'), 'utf8')) as RepoSpec[];
  const repos = all.filter((r) => !only || only.includes(r.name)).sort((a, b) => a.name.localeCompare(b.name));
  const queries: Query[] = [];
  for (const repo of repos) {
    const raw = JSON.parse(readFileSync(path.join(dir, 'annotations', `${repo.name}.json`), 'utf8')) as RawQuery[];
    raw.forEach((q, index) => {
      if (!q.category || !(CATEGORIES as readonly string[]).includes(q.category)) {
        throw new Error(`${repo.name} query ${index} ("${q.query}") has category ${String(q.category)}; expected ${CATEGORIES.join(', ')}`);
      }
      queries.push({
        repo: repo.name, index, query: q.query, category: q.category as Category,
        targets: [...(q.relevant ?? []), ...(q.secondary ?? [])].map(targetPath),
      });
    });
  }
  return { id, dir, repos, queries };
}

/** Every repo name of the given sets; throws on a name none of them has. */
export function checkRepoNames(sets: DevSetId[], only: string[]): void {
  const known = sets.flatMap((id) => (JSON.parse(readFileSync(path.join(devSetDir(id), 'repos.json'), 'utf8')) as RepoSpec[]).map((r) => r.name));
  const unknown = only.filter((n) => !known.includes(n));
  if (unknown.length) throw new Error(`unknown repo(s): ${unknown.join(', ')}; known: ${known.join(', ')}`);
}

const rootPrefix = (repo: RepoSpec): string => (repo.benchmark_root ? `${repo.benchmark_root.replace(/\/+$/, '')}/` : '');

/** A search-root-relative path (posix) as an upstream-repo-relative one: benchmark_root + "/" + rel. */
export function toUpstreamPath(repo: RepoSpec, rel: string): string {
  return `${rootPrefix(repo)}${rel.split(path.sep).join('/')}`;
}

/**
 * A labelled target as a search-root-relative path. Targets are upstream-repo-relative, so the
 * benchmark_root prefix is stripped; a target without it is already root-relative (semble labelled
 * a few repos, e.g. pandoc and zls, that way, and its suffix match scores them the same).
 */
export function toRootPath(repo: RepoSpec, target: string): string {
  const prefix = rootPrefix(repo);
  return prefix && target.startsWith(prefix) ? target.slice(prefix.length) : target;
}
