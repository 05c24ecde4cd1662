// A pool started before its model is loaded (embed/model-channel.ts, issue 30: the threads load their
// code while the searcher reads the model): each thread gets the very model, shared tables and all,
// once loaded, and scores as a pool given the loaded model; a model that fails to load fails the
// pool's tasks with its own typed error, not a hang.
import { describe, expect, it } from 'vitest';
import { isSimgrepError, SimgrepError } from '../../../src/errors.js';
import { withPoolMemory } from '../../../src/embed/pool-memory.js';
import { withSharedDirections } from '../../../src/embed/static.js';
import { bundledModelDir } from '../../../src/model/default-model.js';
import { loadModel } from '../../../src/model/load.js';
import { createPool } from '../../../src/pool.js';
import type { ModelData } from '../../../src/types.js';
import path from 'node:path';
import { hasShared, model2vecFixtures } from '../../helpers/shared.js';

const TEXTS = ['retry failed uploads', 'function that merges two sorted lists', 'the model is loaded once', 'ünïcödé wörds too'];

async function embedEach(pool: ReturnType<typeof createPool>): Promise<number[][]> {
  // More tasks than threads, at once: every thread answers some.
  return Promise.all(TEXTS.flatMap((t) => [t, t]).map(async (t) => [...await pool.embedTexts([t])]));
}

describe('a pool whose threads start before the model is loaded', () => {
  for (const [name, dir] of [['the bundled model (int8)', bundledModelDir()], ['a float32 model in shared memory', path.join(model2vecFixtures, 'test-model-float32')]] as const) {
    it.skipIf(dir !== bundledModelDir() && !hasShared)(`gives the vectors a pool given the loaded model gives: ${name}`, async () => {
      const model = withPoolMemory(withSharedDirections(await loadModel(dir)));
      const given = createPool({ model, kind: 'static', threads: 2 });
      let resolve!: (m: ModelData) => void;
      const later = createPool({ model: new Promise<ModelData>((r) => { resolve = r; }), kind: 'static', threads: 2 });
      try {
        const asked = embedEach(later);
        // The threads are up and waiting; the model comes afterwards.
        await new Promise((r) => setTimeout(r, 300));
        resolve(model);
        expect(await asked).toEqual(await embedEach(given));
      } finally {
        await Promise.all([given.close(), later.close()]);
      }
    });
  }

  it('fails its tasks with the model\'s own error when it cannot load', async () => {
    const pool = createPool({ model: Promise.reject(new SimgrepError('MODEL_NOT_FOUND', 'no such model here')), kind: 'static', threads: 1 });
    try {
      const e = await pool.embedTexts(['x']).then(() => null, (err: unknown) => err);
      expect(isSimgrepError(e) && e.code).toBe('MODEL_NOT_FOUND');
      expect((e as Error).message).toContain('no such model here');
    } finally {
      await pool.close();
    }
  });
});
