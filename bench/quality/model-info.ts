// Describes the model a quality run used (where it lives, its size and shape, its card's title),
// so QUALITY.md says exactly which model produced the figures.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ModelData } from '../../src/index.js';
import { REPO_ROOT } from './dataset.js';

export interface ModelInfo { spec: string; id: string; dir: string; bytes: number; rows: number; dim: number; card: string }

export function describeModel(spec: string | undefined, m: ModelData): ModelInfo {
  const files = existsSync(m.dir) ? readdirSync(m.dir).map((f) => path.join(m.dir, f)).filter((f) => statSync(f).isFile()) : [];
  const readme = files.find((f) => path.basename(f).toLowerCase() === 'readme.md');
  const title = readme ? readFileSync(readme, 'utf8').split('\n').find((l) => l.startsWith('# '))?.slice(2).trim() : undefined;
  const rel = path.relative(REPO_ROOT, m.dir);
  return {
    spec: spec ?? (process.env.SIMGREP_MODEL ? `$SIMGREP_MODEL=${process.env.SIMGREP_MODEL}` : 'bundled default'),
    id: m.id,
    dir: rel.startsWith('..') ? m.dir : rel,
    bytes: files.reduce((s, f) => s + statSync(f).size, 0),
    rows: m.rows,
    dim: m.dim,
    card: title ?? '(no model card)',
  };
}
