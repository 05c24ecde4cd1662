// Keeps an answer within a token budget: matches go compact (lowest-ranked first) before any is dropped,
// and the caller is told what was cut. Tokens are estimated cheaply as characters / 4 (about right for
// code and English under the common BPE tokenizers; an estimate, not a count).
export const CHARS_PER_TOKEN = 4;

export const estimateTokens = (chars: number): number => Math.ceil(chars / CHARS_PER_TOKEN);

export interface BudgetItem<T> {
  full: T;
  compact: T;
}

export interface BudgetCut {
  /** The budget asked for, in estimated tokens. */
  max_tokens: number;
  /** Estimated tokens of what comes back (never above max_tokens when anything fits). */
  used_tokens: number;
  /** Matches shown compact (the match line and its definition's signature) to fit. */
  compacted: number;
  /** Matches left out to fit. */
  dropped: number;
}

/**
 * The items that fit `maxTokens` once wrapped in the answer's envelope. `size` gives an item's
 * characters as it will be written (separators included); `envelopeChars` the characters of
 * everything else (the largest the cut report can make them).
 */
export function fitBudget<T>(items: BudgetItem<T>[], maxTokens: number, size: (item: T) => number, envelopeChars: number): { kept: T[]; cut: BudgetCut } {
  const limit = maxTokens * CHARS_PER_TOKEN - envelopeChars;
  const full = items.map((i) => size(i.full));
  // An item's size once compact, worked out only for the items the budget turns compact (the lowest-ranked,
  // and none when everything fits): a compact form that is no smaller (a one-line hunk) is not worth the change.
  const compactSizes: number[] = [];
  const compact = (k: number): number => (compactSizes[k] ??= Math.min(size(items[k].compact), full[k]));
  const smaller = (k: number): boolean => compact(k) < full[k];
  let total = full.reduce((s, n) => s + n, 0);
  let n = items.length;
  let c = n; // items [c, n) are compact
  while (total > limit && n > 0) {
    if (c > 0) { c--; total += compact(c) - full[c]; continue; }
    n--;
    total -= compact(n);
  }
  const kept = items.slice(0, n).map((it, i) => (i >= c && smaller(i) ? it.compact : it.full));
  let compacted = 0;
  for (let i = c; i < n; i++) if (smaller(i)) compacted++;
  return {
    kept,
    cut: { max_tokens: maxTokens, used_tokens: estimateTokens(Math.max(0, total) + envelopeChars), compacted, dropped: items.length - n },
  };
}

/**
 * The answer as `print` writes it, its `used_tokens` its own size: fitBudget counted the envelope at its largest
 * (the budget's figures, or a cut note, at their longest), which over-stated a small answer's use (audit44).
 * Measured again once the figure's own digits are in. The MCP tools' answers and the CLI's --max-tokens alike.
 */
export function measured(cut: BudgetCut, print: () => string): string {
  let text = print();
  for (let i = 0; i < 2; i++) {
    cut.used_tokens = estimateTokens(text.length);
    text = print();
  }
  return text;
}
