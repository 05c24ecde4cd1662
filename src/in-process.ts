// Runs the same LineScorer on the main thread: no worker start-up, used for small inputs and tests; it
// keeps the index candidates' chunks it scored (embed/kept-chunks.ts) for the searcher's next search.
import { createLineScorer } from './embed/line-scorer.js';
import type { Executor } from './pool.js';
import type { EmbedderKind, ModelData } from './types.js';

/** `counts.keptSumsUsed` gains the sums scans' batches brought along that scoring used. */
export async function createInProcessExecutor(model: ModelData, kind: EmbedderKind, counts = { keptSumsUsed: 0 }): Promise<Executor> {
  const scorer = await createLineScorer(model, kind, true);
  return {
    capacity: 1,
    score: (req) => scorer.score(req, counts),
    embedTexts: (texts) => scorer.embedTexts(texts),
    knownTexts: async (texts) => scorer.knownTexts(texts),
    tokenLines: async (texts) => scorer.tokenLines(texts),
    chunkSums: (req) => scorer.chunkSums(req),
    keepSums: async (keys, sums) => scorer.keepSums(keys, sums),
    keptChunks: () => scorer.keptChunks(),
    embedChunks: (req) => scorer.embedChunks(req),
    embedChunkSums: (req) => scorer.embedChunkSums(req),
    prepareBound: async () => scorer.prepareBound(),
    close: () => scorer.close(),
  };
}
