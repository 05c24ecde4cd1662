// What lineCosines keeps between calls (mend37b): a model's last query's LineCosines, held weakly by the model
// (one module-wide entry held a closed workspace's ModelData until another query came), and its lines' bounds
// never past LINE_BOUNDS_KEPT (a query asked again and again over documents counted again grew its
// buffer without end).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { LINE_BOUNDS_KEPT, lineCosines, type LineTokens } from '../../../src/embed/line-cosines.js';
import type { ModelData } from '../../../src/types.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const DIM = 8;
const ROWS = 100;
const modelOf = (id: string): ModelData => ({ id, table: Float32Array.from({ length: ROWS * DIM }, (_, i) => Math.sin(i)), dim: DIM, rows: ROWS } as ModelData);
const QUERY = Float32Array.from({ length: DIM }, (_, i) => Math.cos(i));

/** A document of n lines of one token each, of the model `id` (filled in loops: Array.from's callback took seconds for a million lines). */
function doc(id: string, n: number): LineTokens {
  const ids = new Uint16Array(n);
  for (let i = 0; i < n; i++) ids[i] = (i * 7) % ROWS;
  const starts = new Uint32Array(n + 1);
  for (let i = 0; i <= n; i++) starts[i] = i;
  return { model: id, ids, starts, norms: new Float32Array(n).fill(1) };
}

describe('lineCosines keeps', () => {
  it('the same object for a model\'s same query, another model\'s last query beside it', () => {
    const a = modelOf('a');
    const b = modelOf('b');
    const ca = lineCosines(a, QUERY);
    const cb = lineCosines(b, QUERY);
    expect(lineCosines(a, Float32Array.from(QUERY))).toBe(ca);
    expect(lineCosines(b, QUERY)).toBe(cb);
    expect(lineCosines(a, QUERY.map((x) => -x))).not.toBe(ca);
  });

  it('a model no one holds any more is collected, its last query\'s LineCosines with it', async () => {
    let model: ModelData | null = modelOf('closed');
    const ref = new WeakRef(model);
    lineCosines(model, QUERY).documentBest(doc('closed', 10));
    model = null;
    for (let i = 0; i < 10 && ref.deref() !== undefined; i++) {
      await new Promise((r) => setTimeout(r, 10));
      gc();
    }
    expect(ref.deref()).toBeUndefined();
  });

  it('at most LINE_BOUNDS_KEPT lines\' bounds (a query asked again over documents counted again), the same bounds', () => {
    const model = modelOf('big');
    const cosines = lineCosines(model, QUERY);
    const n = (LINE_BOUNDS_KEPT >>> 2) + 1;
    const first = doc('big', n);
    const bound = cosines.documentBest(first);
    const lines = Float64Array.from(cosines.lineBounds(first)!);
    for (let round = 0; round < 12; round++) {
      // Each round the same query, its documents counted again (new LineTokens, as a changed file's).
      expect(lineCosines(model, QUERY)).toBe(cosines);
      const again = doc('big', n);
      expect(cosines.documentBest(again)).toBe(bound);
      expect(cosines.heldLines()).toBeLessThanOrEqual(LINE_BOUNDS_KEPT);
    }
    expect(cosines.documentBest(first)).toBe(bound);
    // Compared in a loop (toEqual on a million elements took seconds), the first difference named.
    const after = cosines.lineBounds(first)!;
    expect(after.length).toBe(lines.length);
    const differ = lines.findIndex((x, i) => !Object.is(x, after[i]));
    expect(differ, `line ${differ}: ${after[differ]} where ${lines[differ]} before`).toBe(-1);
  });

  it('each document\'s lines\' bounds as it alone would have them, across the blocks that hold many documents', () => {
    const model = modelOf('blocks');
    // Documents of 1 to ~9,000 lines (the blocks hold 4,096 lines and more, up to 65,536): many start a block, many share one.
    const docs = Array.from({ length: 60 }, (_, k) => {
      const t = doc('blocks', 1 + ((k * 7_919) % 9_000));
      // Each document's lines its own tokens and norms (doc's are the same for every document).
      for (let i = 0; i < t.ids.length; i++) t.ids[i] = (i * 7 + k * 13) % ROWS;
      for (let i = 0; i < t.norms.length; i++) t.norms[i] = 1 + ((i + k) % 5);
      return t;
    });
    const cosines = lineCosines(model, QUERY);
    const given = docs.map((t) => { cosines.documentBest(t); return cosines.lineBounds(t)!; });
    docs.forEach((t, k) => {
      // Alone: its model's own LineCosines (a model object of its own), the same query.
      const alone = lineCosines(modelOf('blocks'), QUERY).lineBounds(t)!;
      expect(alone.length).toBe(t.norms.length);
      const mine = cosines.lineBounds(t)!;
      expect(mine).toEqual(given[k]);
      const differ = alone.findIndex((x, i) => !Object.is(x, mine[i]));
      expect(differ, `document ${k} line ${differ}`).toBe(-1);
      for (const i of [0, t.norms.length >> 1, t.norms.length - 1]) expect(cosines.lineBest(t, i)).toBe(mine[i]);
    });
  });
});
