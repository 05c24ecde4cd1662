// What the prose probes (context-probe.ts, margin-probe.ts) share: MRR@10 of a line ranking, and the
// table of each variant's mean per split with its smallest margin over the ICU BM25 baseline.
import { DEV_LANGUAGES } from './dataset.js';

/** MRR@10 of the labelled lines among those scored > 0, best first (ties by line). */
export function mrrAt10(scores: Float64Array, labels: number[]): number {
  const order = [...scores.keys()].filter((i) => scores[i] > 0).sort((a, b) => scores[b] - scores[a] || a - b).slice(0, 10);
  const r = order.findIndex((i) => labels.includes(i));
  return r < 0 ? 0 : 1 / (r + 1);
}

/** results[variant][split][lang] = mean MRR@10; the baseline variant is 'icu-bm25'. */
export class ProbeResults {
  readonly cells: Record<string, Record<string, Record<string, number>>> = {};

  /** Adds one question's score `x` of `n` to a variant's mean. */
  add(variant: string, split: string, lang: string, x: number, n: number): void {
    const cell = ((this.cells[variant] ??= {})[split] ??= {});
    cell[lang] = (cell[lang] ?? 0) + x / n;
  }

  /** One line per variant, best on the first split first: mean, smallest margin over BM25, per language. */
  print(splits: string[], keyWidth: number): void {
    const mean = (cells: Record<string, number>) => DEV_LANGUAGES.reduce((s, l) => s + (cells[l] ?? 0), 0) / DEV_LANGUAGES.length;
    const icu = this.cells['icu-bm25'];
    const rows = Object.entries(this.cells).map(([key, bySplit]) => {
      const cols = splits.map((split) => {
        const cells = bySplit[split];
        const minMargin = Math.min(...DEV_LANGUAGES.map((l) => cells[l] - icu[split][l]));
        return `${split} ${mean(cells).toFixed(3)} (min ${minMargin >= 0 ? '+' : ''}${minMargin.toFixed(3)}) ${DEV_LANGUAGES.map((l) => `${l} ${cells[l].toFixed(2)}`).join(' ')}`;
      });
      return { first: mean(bySplit[splits[0]]), line: `${key.padEnd(keyWidth)} ${cols.join(' | ')}` };
    });
    rows.sort((a, b) => b.first - a.first);
    for (const r of rows) process.stdout.write(`${r.line}\n`);
  }
}
