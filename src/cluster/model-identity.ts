// Which model a coordinator and a worker run, as a short name both can compare without loading it:
// a hub id as given; a local directory by its name and the size of its weights (paths differ by machine).
import { statSync } from 'node:fs';
import path from 'node:path';
import { bundledModelDir } from '../model/default-model.js';

export function modelIdentity(spec: string): string {
  const dir = path.resolve(spec);
  let size: number;
  try { size = statSync(path.join(dir, 'model.safetensors')).size; } catch { return spec; }
  const name = dir === path.resolve(bundledModelDir()) ? 'bundled' : path.basename(dir);
  return `${name} (${size} bytes of weights)`;
}
