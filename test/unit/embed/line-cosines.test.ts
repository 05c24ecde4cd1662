// The bound on a document's best cosine from its kept line tokens (issue 30: find_related with a weak floor
// read and scored every prose document): never below the cosine the kernels give any of its lines (the
// static kernel and, where onnxruntime runs, the ONNX one), and close to it, on real models.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLineScorer, type LineScorer } from '../../../src/embed/line-scorer.js';
import { LINE_COSINE_SLACK, lineCosines } from '../../../src/embed/line-cosines.js';
import { loadModel } from '../../../src/model/load.js';
import { bundledModelDir } from '../../../src/model/default-model.js';
import { normalizeInPlace } from '../../../src/embed/unit.js';
import type { ModelData } from '../../../src/types.js';
import { hasShared, model2vecFixtures } from '../../helpers/shared.js';

const WORDS = ['retry', 'failed', 'uploads', 'the', 'server', 'graceful', 'shutdown', 'parse', 'config', 'cache', 'invalidation', 'écrire', '城堡', '🙂', 'x_y', 'getUserName', '{', '}', ';', '--', 'http://a.b/c'];

/** A seeded generator (mulberry32). */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seeded document: lines of 0 to 40 words (blank lines too), some repeated. */
function document(seed: number): string[] {
  const rand = seeded(seed);
  const lines = Array.from({ length: 5 + Math.floor(rand() * 30) }, () => Array.from({ length: Math.floor(rand() * 40) }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' '));
  return [...lines, lines[0], '   ', ''];
}

/** The kernel's own cosine of every non-blank line to the query (score with no pruning: 1 - distance). */
async function kernelCosines(scorer: LineScorer, lines: string[], query: Float32Array): Promise<number[]> {
  const enc = new TextEncoder();
  const parts = lines.map((l) => enc.encode(`${l}\n`));
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  const offsets = new Uint32Array(lines.length + 1);
  parts.forEach((p, i) => { bytes.set(p, offsets[i]); offsets[i + 1] = offsets[i] + p.length; });
  const d = await scorer.score({ bytes, offsets, scoreRanges: Uint32Array.of(0, lines.length), query, queryKey: `q${Math.random()}`, ignoreCase: false } as never);
  return [...d].map((x) => (x === x ? 1 - x : 0));
}

async function expectBound(model: ModelData): Promise<void> {
  const scorer = await createLineScorer(model, 'static');
  try {
    for (let seed = 1; seed <= 12; seed++) {
      const lines = document(seed);
      const tokens = scorer.tokenLines(lines);
      expect(tokens.norms.length).toBe(lines.length);
      for (const q of [lines[1] ?? 'retry', 'graceful shutdown of the server', lines.slice(0, 4).join('\n')]) {
        const query = await scorer.embedTexts([q || 'cache']);
        normalizeInPlace(query);
        const each = await kernelCosines(scorer, lines, query);
        const best = Math.max(0, ...each);
        const cosines = lineCosines(model, query);
        // Each line's bound (branch tokens30: a kept prose line pruned on it) is at least its own cosine, and tight.
        each.forEach((cos, i) => {
          const line = cosines.lineBest(tokens, i);
          if (tokens.norms[i] > 0) expect(line - cos).toBeGreaterThanOrEqual(0); else expect(line).toBe(Infinity);
          if (tokens.norms[i] > 0) expect(line - cos).toBeLessThanOrEqual(2 * LINE_COSINE_SLACK);
        });
        const bound = cosines.documentBest(tokens);
        // Never below the kernel's best line, and no looser than the floats' slack.
        expect(bound).toBeGreaterThanOrEqual(best);
        expect(bound - best).toBeLessThanOrEqual(2 * LINE_COSINE_SLACK);
        // Every line's bound as documentBest summed it (branch warm37), and lineBest's from then on, are as tight.
        const bounds = cosines.lineBounds(tokens)!;
        expect(bounds.length).toBe(lines.length);
        each.forEach((cos, i) => {
          if (!(tokens.norms[i] > 0)) { expect(bounds[i]).toBe(Infinity); return; }
          expect(bounds[i] - cos).toBeGreaterThanOrEqual(0);
          expect(bounds[i] - cos).toBeLessThanOrEqual(2 * LINE_COSINE_SLACK);
          expect(cosines.lineBest(tokens, i)).toBe(bounds[i]);
        });
        // One LineCosines for the same model and query floats (a search's prose source and its scorer share its sums).
        expect(lineCosines(model, Float32Array.from(query))).toBe(cosines);
      }
    }
    // Tokens of another model are no bound.
    expect(lineCosines({ ...model, id: 'another' }, new Float32Array(model.dim)).documentBest(scorer.tokenLines(['retry']))).toBe(1);
    expect(lineCosines({ ...model, id: 'another' }, new Float32Array(model.dim)).lineBest(scorer.tokenLines(['retry']), 0)).toBe(Infinity);
    expect(lineCosines({ ...model, id: 'another' }, new Float32Array(model.dim)).lineBounds(scorer.tokenLines(['retry']))).toBe(null);
  } finally {
    await scorer.close();
  }
}

describe('lineCosines: a document\'s best cosine from its kept line tokens (issue 30)', () => {
  it('is at least the kernel\'s cosine of every line, and tight, on the bundled model', async () => {
    await expectBound(await loadModel(bundledModelDir(), { offline: true }));
  });

  it.skipIf(!hasShared)('the same on a vocab-quantized model (mapping and weights)', async () => {
    const model = await loadModel(path.join(model2vecFixtures, 'test-model-vocab-quantized'));
    expect(model.mapping ?? model.weights).toBeDefined();
    await expectBound(model);
  });
});
