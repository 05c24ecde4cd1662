// One `score` for every ranking mode, for answers read by agents: higher is better, 0..1, and about
// equally strong at a given value in every mode, so one threshold (say 0.3) means much the same.
import type { SearchMode } from '../types.js';

/** Up to here a score is the relevance itself; past it the scale bends towards 1 without reaching it. */
export const SCORE_KNEE = 0.75;
/** The highest score printed: 1 would read as "nothing can be better", and no match is that. */
export const SCORE_TOP = 0.9999;

/**
 * The chunk modes rank by distance = 1 / (1 + relevance), where relevance is the fused signal (the
 * chunk's cosine in semantic mode; in hybrid and lexical, ~0.5 when every query term occurs once, more
 * with a defining line: a named identifier's definition reaches 1.5-2). The line mode ranks by cosine
 * distance (0..2), its relevance the cosine. The score is that relevance up to SCORE_KNEE (0 below 0),
 * and past it `1 - (1 - k)^2 / (r - (2k - 1))`: the same value and slope at the knee, rising with the
 * relevance and never reaching 1 (relevance 1 scores 0.875, 2 scores 0.958, 10 scores 0.993). A cap at
 * 1 gave every strong hit of an identifier's question the same 1.000, so no threshold or order could be
 * read among them.
 */
export function scoreOf(distance: number, mode: SearchMode = 'hybrid'): number {
  const relevance = mode === 'line' ? 1 - distance : distance > 0 ? 1 / distance - 1 : Infinity;
  const k = SCORE_KNEE;
  const bent = relevance <= k ? Math.max(0, relevance) : 1 - (1 - k) ** 2 / (relevance - (2 * k - 1));
  return Math.min(SCORE_TOP, Math.round(bent * 1e4) / 1e4);
}
