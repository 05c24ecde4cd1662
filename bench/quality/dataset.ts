// The semble dev set as data: locates ../shared/eval/semble-dev, loads repos.json and the annotations,
// and turns targets into upstream-repo-relative paths (line spans are ignored, as the README says).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, sharedDir } from '../bench-model.js';

export { REPO_ROOT };

export type Category = 'semantic' | 'architecture' | 'symbol';
export const CATEGORIES: readonly Category[] = ['semantic', 'architecture', 'symbol'];

export interface RepoSpec {
  name: string;
  language: string;
  url: string;
  revision: string;
  /** The upstream folder semble indexed, relative to the upstream repo (e.g. "src/flask"). */
  benchmark_root: string;
}

export interface Query {
  repo: string;
  /** Position in the repo's annotation file: with the repo, a stable id for diffs. */
  index: number;
  query: string;
  category: Category;
  /** Upstream-repo-relative paths, relevant then secondary (all gain 1). */
  targets: string[];
}

export interface Dataset { dir: string; repos: RepoSpec[]; queries: Query[] }

export function devSetDir(): string {
  const dir = path.join(sharedDir(), 'eval', 'semble-dev');
  if (!existsSync(path.join(dir, 'repos.json'))) {
    throw new Error(`the semble dev set is missing: no ${path.join(dir, 'repos.json')}. `
      + 'Put the shared folder beside the repo (../shared) or set SIMGREP_SHARED_DIR to it.');
  }
  return dir;
}

type RawTarget = string | { path: string; start_line?: number; end_line?: number };
interface RawQuery { query: string; relevant?: RawTarget[]; secondary?: RawTarget[]; category?: string }

const targetPath = (t: RawTarget): string => (typeof t === 'string' ? t : t.path);

export function loadDataset(only?: string[]): Dataset {
  const dir = devSetDir();
  const all = JSON.parse(readFileSync(path.join(dir, 'repos.json'), 'utf8')) as RepoSpec[];
  const unknown = (only ?? []).filter((n) => !all.some((r) => r.name === n));
  if (unknown.length) throw new Error(`unknown repo(s): ${unknown.join(', ')}; known: ${all.map((r) => r.name).join(', ')}`);
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
  return { dir, repos, queries };
}

/** A search-root-relative path (posix) as an upstream-repo-relative one: benchmark_root + "/" + rel. */
export function toUpstreamPath(repo: RepoSpec, rel: string): string {
  return `${repo.benchmark_root.replace(/\/+$/, '')}/${rel.split(path.sep).join('/')}`;
}

/** An upstream-repo-relative target as a search-root-relative path, or null when outside the root. */
export function toRootPath(repo: RepoSpec, upstream: string): string | null {
  const prefix = `${repo.benchmark_root.replace(/\/+$/, '')}/`;
  return upstream.startsWith(prefix) ? upstream.slice(prefix.length) : null;
}
