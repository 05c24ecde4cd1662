// A prose file bounded line by line (rank/prose-lines.ts proseLineReach, issue 30): each line's lexical bound
// with its own cosine bound is never above what any of its lines scores (a file skipped on it could not have
// entered the results), and tighter than proseBest's, which pairs the best lexical line with the best cosine.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan } from '../../../src/rank/plan.js';
import { ProseCounter } from '../../../src/rank/prose-counter.js';
import { proseBest, proseLineReach, ProseLinesBuilder } from '../../../src/rank/prose-lines.js';
import { lineLexical, lineTerms, proseRelevance, type LineTerms } from '../../../src/rank/prose.js';
import { pathSignals } from '../../../src/rank/path-signals.js';
import { toDistance } from '../../../src/rank/relevance.js';

const lexicon = parseLexicon('#docs\t1000\ncastle\t10\nthe\t900\nindex\t100\n');
const root = fileURLToPath(new URL('../../../', import.meta.url));
const texts = [
  ...['workspace.md', 'cli.md'].map((f) => readFileSync(path.join(root, 'docs', f), 'utf8').split('\n').slice(0, 200).join('\n')),
  'Run parseConfig on 2025 and 25px, then retry_failed uploads.\n\nUploadS of RETRIES\ncafé 25 uploads',
  'castle\ncastle king\n\n\nking\nthe king of the castle was rebuilt in 1964',
  'In 1964 the castle was rebuilt.\n1964\n\nA320 and COVID-19 in 1,964 castles, 3.5 km\nretry the index',
];
const queries = [
  'retry failed uploads', 'parseConfig', 'which mode should I use to search a document', 'the index format version',
  'castle king', 'which castle was rebuilt in 1964?', 'uploading retries', 'how does find_related pick its chunks',
  // A pasted block, as find_related asks (a chunk's terms, no grams past 64 terms).
  readFileSync(path.join(root, 'docs/workspace.md'), 'utf8').slice(0, 600),
];

function built(lines: string[]) {
  const b = new ProseLinesBuilder();
  for (const line of lines) b.add(line);
  return b.done()!;
}

/** Seeded cosines in [0, 1) per line. */
function cosinesOf(n: number, seed: number): Float64Array {
  let s = seed;
  return Float64Array.from({ length: n }, () => { s = (s * 1103515245 + 12345) % 2 ** 31; return s / 2 ** 31; });
}

describe('a prose file bounded line by line', () => {
  it('is never above what a line scores at its cosine, never below proseBest\'s at the file\'s best cosine, and above it for many files', () => {
    let tighter = 0;
    let cases = 0;
    for (const query of queries) {
      const plan = buildRankPlan(query, 'hybrid', lexicon);
      expect(plan.prose?.semantic ?? 0).toBeGreaterThan(0);
      texts.forEach((text, f) => {
        const lines = text.split('\n');
        const counter = new ProseCounter(plan);
        counter.add(lines);
        const stats = counter.stats();
        const tf = new Float64Array(plan.terms.length + (plan.prose?.numbers.length ?? 0) + 1);
        const touched: number[] = [];
        const rows: LineTerms[] = lines.map((line) => lineTerms(line, plan, tf, touched));
        const file = `docs/file-${f}.md`;
        const signals = pathSignals(file, plan);
        for (const seed of [1, 42]) {
          const cosines = cosinesOf(lines.length, seed + f);
          const most = Math.max(...cosines);
          // Each line as the scorer scores it (embed/prose-scoring.ts: a blank line scores nothing).
          let least = Infinity;
          lines.forEach((line, i) => {
            if (line.trim() === '') return;
            const lexical = lineLexical(rows, (j) => lines[j].length, i, stats, tf, touched);
            least = Math.min(least, toDistance(proseRelevance(cosines[i], lexical, signals.pathMatch, signals.prior, plan)));
          });
          const where = `${query.slice(0, 40)} / text ${f} / seed ${seed}`;
          const bound = proseLineReach(built(lines), plan, file, (i) => cosines[i], most);
          expect(bound, where).toBeLessThanOrEqual(least);
          const best = proseBest(built(lines), plan, file, undefined, -Infinity, most);
          expect(bound, where).toBeGreaterThanOrEqual(best);
          cases++;
          if (bound > best + 1e-6) tighter++;
        }
        // A line whose cosine it cannot tell is taken at the file's: then the best lexical line is the bound, proseBest's.
        const most = 0.6;
        expect(proseLineReach(built(lines), plan, file, () => Infinity, most)).toBeCloseTo(proseBest(built(lines), plan, file, undefined, -Infinity, most), 12);
      });
    }
    expect(tighter, `${tighter} of ${cases}`).toBeGreaterThan(cases / 3);
  });
});
