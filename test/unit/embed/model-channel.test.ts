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
import { builtWorkerFile } from '../../../src/worker-file.js';
import { createRequire } from 'node:module';
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

  // piscina blocks an idle thread in Atomics.wait, where no promise runs: a thread whose code was still
  // loading when it said ready loaded it, and asked for the model, only once its first task woke it (the
  // MCP engine's first answer from nothing waited for that). Its own pool, over the real worker file, with
  // this test answering on the model channel: both threads ask with no task sent, then score.
  it('its threads load their code and ask for the model before any task is sent', async () => {
    const { Piscina } = createRequire(import.meta.url)('piscina') as typeof import('piscina');
    const name = `simgrep-model-test-${process.pid}-${Math.random().toString(36).slice(2)}`;
    const channel = new BroadcastChannel(name);
    let asks = 0;
    channel.onmessage = (e: MessageEvent) => { if (e.data === 'model') asks++; };
    const pool = new Piscina({ filename: builtWorkerFile('embed-entry.cjs')!, minThreads: 2, maxThreads: 2, workerData: { modelChannel: name, kind: 'static' } });
    try {
      const deadline = Date.now() + 20_000;
      while (asks < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(asks).toBe(2);
      const model = withPoolMemory(withSharedDirections(await loadModel(bundledModelDir())));
      channel.postMessage({ model });
      const res = await pool.run({ op: 'embed', texts: ['retry failed uploads'] }) as { ok: boolean; values: Float32Array };
      expect(res.ok).toBe(true);
      expect(res.values.length).toBe(model.dim);
    } finally {
      channel.close();
      await pool.destroy();
    }
  }, 30_000);

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
