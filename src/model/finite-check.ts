// A model whose numbers are not finite (NaN or Infinity rows, from a broken conversion or a damaged
// download) scores every line as nothing; it is refused with the first bad place named, not used.
// A float table that passed is remembered by its file's identity in the cache, so a big model is not
// scanned again by every process that loads it.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { EmbeddingTable } from '../types.js';
import { simgrepCacheDir } from './tokenizer-file.js';

/** Where the first non-finite value is: "table row 12" or "weights[3]"; null when all are finite. Int8 tables cannot hold one. */
export function firstNonFinite(table: EmbeddingTable, dim: number, weights?: Float32Array): string | null {
  if (table instanceof Float32Array) {
    for (let i = 0; i < table.length; i++) {
      const v = table[i];
      if (v - v !== 0) return `table row ${Math.floor(i / dim)} (${v})`;
    }
  }
  if (weights) {
    for (let i = 0; i < weights.length; i++) {
      const v = weights[i];
      if (v - v !== 0) return `weights[${i}] (${v})`;
    }
  }
  return null;
}

/** firstNonFinite, skipped for a model file that passed before (same path, inode, size and mtime). */
export function firstNonFiniteOf(modelFile: string, table: EmbeddingTable, dim: number, weights?: Float32Array): string | null {
  const marker = passedMarker(modelFile);
  if (marker && existsSync(marker)) return null;
  const bad = firstNonFinite(table, dim, weights);
  if (!bad && marker) {
    try {
      mkdirSync(path.dirname(marker), { recursive: true });
      const tmp = `${marker}.${process.pid}.tmp`;
      writeFileSync(tmp, `${modelFile}\n`);
      renameSync(tmp, marker);
    } catch { /* a read-only cache: checked again next time */ }
  }
  return bad;
}

function passedMarker(modelFile: string): string | null {
  const cache = simgrepCacheDir();
  if (!cache) return null;
  try {
    const st = statSync(modelFile);
    const id = createHash('sha256').update(`${path.resolve(modelFile)}\0${st.ino}\0${st.size}\0${st.mtimeMs}`).digest('hex');
    return path.join(cache, 'models-checked', id);
  } catch {
    return null;
  }
}
