// What crosses the worker boundary: plain, structured-clone-safe messages only. Errors travel as
// { code, message } and pool.ts rebuilds the typed SimgrepError.
import type { SerializedError } from '../errors.js';
import type { ChunkEmbedRequest, ScoreRequest } from './requests.js';
import type { HandedWalk } from '../rank/prose-sweep-walk.js';

export type WorkerTask =
  | ({ op: 'score' } & ScoreRequest)
  | { op: 'embed'; texts: string[] }
  | ({ op: 'embedChunks' } & ChunkEmbedRequest)
  | { op: 'prepareBound' }
  | ({ op: 'chunkSums' } & ChunkEmbedRequest)
  | ({ op: 'embedChunkSums' } & ChunkEmbedRequest)
  | ({ op: 'walkSweep' } & HandedWalk);

export type WorkerResult =
  | { ok: true; values: Float32Array; keptSumsUsed?: number }
  | { ok: true; sums: Float64Array }
  | { ok: true; values: Float32Array; sums: Float64Array }
  | { ok: false; error: SerializedError };
