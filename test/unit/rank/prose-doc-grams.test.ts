// The kept documents' grams (rank/prose-doc-grams.ts) are found through per-gram lists of the documents
// that hold them while documents come and go: a file of its own, so this module's lists start empty
// here and letting most documents go makes them again.
import { describe, expect, it } from 'vitest';
import { parseLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan } from '../../../src/rank/plan.js';
import { ProseCounter } from '../../../src/rank/prose-counter.js';
import { proseBest, proseFileBestDistance, proseLineStats, ProseLinesBuilder, proseReach, releaseProseLines } from '../../../src/rank/prose-lines.js';

const lexicon = parseLexicon('#docs\t1000\ncastle\t10\nthe\t900\nindex\t100\n');

function built(lines: string[]) {
  const b = new ProseLinesBuilder();
  for (const line of lines) b.add(line);
  return b.done()!;
}

describe('kept documents\' grams', () => {
  it('a document\'s grams are found while it is kept and after others are let go (the lists made again past half released), and without the lists once it is let go', () => {
    const textOf = (i: number) => [`castle ${'x'.repeat(i % 7)}king${i}doms`, '', `the kingdom retries ${i}`, `zz${i}castlezz retry`];
    const docs = Array.from({ length: 80 }, (_, i) => built(textOf(i))!);
    const check = (i: number, query: string) => {
      const plan = buildRankPlan(query, 'hybrid', lexicon);
      const counter = new ProseCounter(plan);
      counter.add(textOf(i));
      const stats = counter.stats();
      const fresh = buildRankPlan(query, 'hybrid', lexicon, 0.99);
      expect({ i, stats: proseLineStats(docs[i], fresh) }).toEqual({ i, stats });
      const exact = proseFileBestDistance(counter.bestLexical(stats), 'a.md', fresh);
      expect(exact - proseBest(docs[i], fresh, 'a.md')).toBeLessThan(1e-6);
      expect(proseReach(docs[i], fresh, 'a.md')).toBeLessThanOrEqual(proseBest(docs[i], fresh, 'a.md'));
    };
    for (let i = 0; i < 80; i += 9) check(i, 'castle kingdoms retrying');
    // Let 49 go: past half of the slots, the lists are made again from the others (the first one kept).
    for (let i = 1; i < 50; i++) releaseProseLines(docs[i]);
    for (let i = 0; i < 80; i++) check(i, 'castles kingdom retry');
  });

});
