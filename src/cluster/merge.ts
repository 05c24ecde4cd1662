// Merging shard answers on the coordinator: candidates into the one bounded heap (ties broken by path
// and line, so arrival order never matters), counts summed, warnings kept once.
import type { SearchStats } from '../pipeline/types.js';
import { compareRanked, type TopK } from '../rank/topk.js';
import type { Hit } from '../rank/windows.js';
import type { SourceWarning } from '../sources/source.js';
import type { ShardEntry, ShardResult } from './protocol.js';
import { shownWorkerText } from './result-check.js';

export interface ShardState {
  topk: TopK<Hit>;
  closest: Hit | null;
  warnings: SourceWarning[];
  /** Messages already kept: every shard of a root a worker cannot see says the same thing. */
  seenWarnings: Set<string>;
  stats: SearchStats;
}

const COUNTS = ['files', 'lines', 'bytes', 'skipped', 'binary', 'errors'] as const;

export function mergeShardResult(state: ShardState, r: Extract<ShardResult, { hits: Hit[] }>): void {
  for (const h of r.hits) if (state.topk.accepts(h.distance, h.path, h.line)) state.topk.offer(h);
  if (r.closestMiss && (!state.closest || compareRanked(r.closestMiss, state.closest) < 0)) state.closest = r.closestMiss;
  for (const k of COUNTS) state.stats[k] += r.stats[k];
  for (const raw of r.warnings) {
    const w = { ...raw, message: shownWorkerText(raw.message) }; // a worker's text, from Redis
    if (state.seenWarnings.has(w.message)) continue;
    state.seenWarnings.add(w.message);
    state.warnings.push(w);
  }
}

/** A shard no worker could search: one error naming its files; every other shard's results stand. */
export function shardFailure(state: ShardState, entries: ShardEntry[], reason: string): void {
  const names = entries.slice(0, 3).map((e) => e.path).join(', ') + (entries.length > 3 ? ` and ${entries.length - 3} more` : '');
  state.stats.errors++;
  state.warnings.push({ path: entries[0]?.path ?? '', code: 'WORKER_FAILED', message: `${names}: not searched: ${reason}` });
}
