// Points SIMGREP_HOME and SIMGREP_CACHE_DIR of this test process at a temp dir, so no test reads or
// writes the user's workspaces, collections or caches. Returns the dir and a restore function.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export function isolatedHome(prefix = 'simgrep-home-'): { dir: string; env: Record<string, string>; restore: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const env = { SIMGREP_HOME: path.join(dir, 'home'), SIMGREP_CACHE_DIR: path.join(dir, 'cache') };
  const saved = { SIMGREP_HOME: process.env.SIMGREP_HOME, SIMGREP_CACHE_DIR: process.env.SIMGREP_CACHE_DIR };
  Object.assign(process.env, env);
  return {
    dir,
    env,
    restore() {
      for (const [k, v] of Object.entries(saved)) { if (v === undefined) delete process.env[k]; else process.env[k] = v; }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Cosine similarity of two texts under a searcher's model (what `score` fields must equal). */
export async function cosineOf(searcher: { embed(texts: string[]): Promise<Float32Array> }, a: string, b: string): Promise<number> {
  const v = await searcher.embed([a, b]);
  const dim = v.length / 2;
  let s = 0;
  for (let i = 0; i < dim; i++) s += v[i] * v[dim + i];
  return s;
}
