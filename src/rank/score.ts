// One `score` for every ranking mode, for answers read by agents: higher is better, 0..1, and about
// equally strong at a given value in every mode, so one threshold (say 0.3) means much the same.
import type { SearchMode } from '../types.js';

/**
 * The chunk modes rank by distance = 1 / (1 + relevance), where relevance is the fused signal (the
 * chunk's cosine in semantic mode; in hybrid and lexical, ~0.5 when every query term occurs once, more
 * with a defining line): the score is that relevance, capped at 1. The line mode ranks by cosine
 * distance (0..2): the score is the cosine similarity, floored at 0. Either way a score is a cosine or
 * sits on the cosine's scale.
 */
export function scoreOf(distance: number, mode: SearchMode = 'hybrid'): number {
  const raw = mode === 'line' ? 1 - distance : distance > 0 ? 1 / distance - 1 : 1;
  return Math.round(Math.min(1, Math.max(0, raw)) * 1e4) / 1e4;
}
