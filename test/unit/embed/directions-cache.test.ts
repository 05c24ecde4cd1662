// The kernel's pruning directions kept on disk (src/embed/directions-cache.ts, issue 30: ~40-95 ms of a
// worker's CPU on every engine's first answer, the other worker waiting): a kernel writes them beside the
// tokenizer cache, a later one reads the very same Float64 bits back instead of working them out; an
// entry that is damaged, another model's, or for other sizes is a miss, computed again and written whole.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachedPrincipalDirections, directionsCacheDir, entryName } from '../../../src/embed/directions-cache.js';
import { principalDirections, sampledRows } from '../../../src/embed/prune-basis.js';
import { createStaticKernel } from '../../../src/embed/static.js';
import { bundledModelDir } from '../../../src/model/default-model.js';
import { loadModel } from '../../../src/model/load.js';
import type { ModelData } from '../../../src/types.js';
import { prunedProbe } from '../../helpers/pruned-probe.js';

const M = 24;
const bits = (dirs: Float64Array[]) => dirs.map((d) => [...new BigUint64Array(d.buffer, d.byteOffset, d.length)]);
let model: ModelData;
let expected: Float64Array[];
let scratch = '';
const entries = (dir: string) => readdirSync(dir).filter((n) => n.endsWith('.bin'));
/** A table of `rows` rows of 8 seeded floats: more rows than the computation samples. */
function synthetic(rows: number): ModelData {
  let s = 7;
  const table = Float32Array.from({ length: rows * 8 }, () => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return s / 4294967296 - 0.5; });
  return { ...model, table, rows, dim: 8, mapping: undefined, weights: undefined, tokenizer: undefined, poolMemory: undefined, file: undefined };
}
/** A well-formed entry (checksum and all) holding `dirs` under `name`: what the cache would take as its own. */
function forge(file: string, name: Buffer, dirs: Float64Array[], dim: number): void {
  const out = Buffer.alloc(72 + dirs.length * dim * 8);
  name.copy(out, 32);
  out.writeUInt32LE(dirs.length, 64);
  out.writeUInt32LE(dim, 68);
  dirs.forEach((v, j) => v.forEach((x, d) => out.writeDoubleLE(x, 72 + (j * dim + d) * 8)));
  createHash('sha256').update(out.subarray(32)).digest().copy(out, 0);
  writeFileSync(file, out);
}

beforeAll(async () => {
  model = await loadModel(bundledModelDir());
  expected = principalDirections(model, M);
  scratch = mkdtempSync(path.join(tmpdir(), 'simgrep-directions-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the pruning directions on disk', () => {
  it('are written on a miss and read back as the very same bits', () => {
    const dir = path.join(scratch, 'a');
    expect(bits(cachedPrincipalDirections(model, M, dir))).toEqual(bits(expected));
    const [file] = entries(dir);
    expect(file).toMatch(new RegExp(`^${entryName(model, M).toString('hex')}-v\\d+\\.bin$`));
    expect(bits(cachedPrincipalDirections(model, M, dir))).toEqual(bits(expected));
    // Read, not worked out again: a well-formed entry under the same name is what comes back.
    const other = expected.map((v) => v.map((x) => -x));
    forge(path.join(dir, file), entryName(model, M), other, model.dim);
    expect(bits(cachedPrincipalDirections(model, M, dir))).toEqual(bits(other));
  });

  it('a damaged, foreign or mis-sized entry is a miss: computed again and written whole', () => {
    const dir = path.join(scratch, 'b');
    cachedPrincipalDirections(model, M, dir);
    const [name] = entries(dir);
    const file = path.join(dir, name);
    const good = readFileSync(file);
    const damaged = Buffer.from(good);
    damaged[200] ^= 1;
    const otherModel = synthetic(5000);
    forge(file, entryName(otherModel, M), expected.map((v) => v.map((x) => -x)), model.dim);
    const renamed = readFileSync(file);
    for (const bad of [damaged, renamed, good.subarray(0, good.length - 8), Buffer.alloc(0)]) {
      writeFileSync(file, bad);
      expect(bits(cachedPrincipalDirections(model, M, dir))).toEqual(bits(expected));
      expect(readFileSync(file).equals(good)).toBe(true);
    }
    // Non-finite floats under the right name and checksum are not trusted either.
    forge(file, entryName(model, M), [Float64Array.from(expected[0], () => Number.NaN)], model.dim);
    expect(bits(cachedPrincipalDirections(model, M, dir))).toEqual(bits(expected));
    // Another count asked is another entry.
    expect(bits(cachedPrincipalDirections(model, M - 4, dir))).toEqual(bits(principalDirections(model, M - 4)));
    expect(entries(dir).length).toBe(2);
  });

  it("a model loaded from a file is named by the file's identity, not its rows: a table not yet read has the same name; a file written again another", async () => {
    const dir = path.join(scratch, 'model-copy');
    cpSync(bundledModelDir(), dir, { recursive: true });
    const file = path.join(dir, 'model.safetensors');
    const whole = await loadModel(dir);
    const lazy = await loadModel(dir, { lazyRows: true });
    expect(entryName(lazy, M).equals(entryName(whole, M))).toBe(true);
    const cache = path.join(scratch, 'c');
    // The lazy table's sampled rows are read in to compute them: the same bits as from the whole table.
    expect(bits(cachedPrincipalDirections(lazy, M, cache))).toEqual(bits(expected));
    expect(entries(cache).length).toBe(1);
    // The file written again, one sampled row changed (the same size): another name, the directions computed from the new rows.
    const bytes = readFileSync(file);
    const header = 8 + Number(bytes.readBigUInt64LE(0));
    const table = header + JSON.parse(bytes.toString('utf8', 8, header)).embeddings.data_offsets[0];
    const row = [...sampledRows(whole.rows)][3];
    for (let d = 0; d < whole.dim; d++) bytes[table + row * whole.dim + d] = 127 - d;
    writeFileSync(file, bytes);
    const changed = await loadModel(dir, { lazyRows: true });
    expect(entryName(changed, M).equals(entryName(whole, M))).toBe(false);
    const fresh = principalDirections(await loadModel(dir), M);
    expect(bits(fresh)).not.toEqual(bits(expected));
    expect(bits(cachedPrincipalDirections(changed, M, cache))).toEqual(bits(fresh));
    expect(entries(cache).length).toBe(2);
  });

  it('an entry of a model made in memory is named by exactly the rows the computation reads', () => {
    const base = synthetic(10_000);
    const rows = [...sampledRows(base.rows)];
    const unsampled = rows[1] - 1;
    expect(rows.includes(unsampled)).toBe(false);
    const want = principalDirections(base, 6);
    const changedElsewhere = { ...base, table: Float32Array.from(base.table as Float32Array) };
    changedElsewhere.table[unsampled * base.dim] += 1;
    expect(entryName(changedElsewhere, 6).equals(entryName(base, 6))).toBe(true);
    expect(bits(principalDirections(changedElsewhere, 6))).toEqual(bits(want));
    const changedSampled = { ...base, table: Float32Array.from(base.table as Float32Array) };
    changedSampled.table[rows[1] * base.dim] += 1;
    expect(entryName(changedSampled, 6).equals(entryName(base, 6))).toBe(false);
    expect(bits(principalDirections(changedSampled, 6))).not.toEqual(bits(want));
  });

  it("a kernel keeps its directions in simgrep's cache and a later kernel scores the same from them", async () => {
    const saved = process.env.SIMGREP_CACHE_DIR;
    process.env.SIMGREP_CACHE_DIR = path.join(scratch, 'cache');
    try {
      const dir = directionsCacheDir()!;
      const { query, batch } = prunedProbe(model);
      const first = await createStaticKernel(model).score(batch, query, 0.5);
      expect(entries(dir).length).toBe(1);
      const second = await createStaticKernel(model).score(batch, query, 0.5);
      expect([...second]).toEqual([...first]);
      process.env.SIMGREP_CACHE_DIR = 'off';
      expect(directionsCacheDir()).toBeNull();
      expect([...await createStaticKernel(model).score(batch, query, 0.5)]).toEqual([...first]);
    } finally {
      if (saved === undefined) delete process.env.SIMGREP_CACHE_DIR; else process.env.SIMGREP_CACHE_DIR = saved;
    }
  });
});
