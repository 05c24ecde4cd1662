// The kept documents' grams (rank/prose-doc-grams.ts) are found through per-gram lists of the documents
// that hold them while documents come and go: a file of its own, so this module's lists start empty
// here and letting most documents go makes them again.
import { describe, expect, it } from 'vitest';
import { parseLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan } from '../../../src/rank/plan.js';
import { ProseCounter } from '../../../src/rank/prose-counter.js';
import { proseBest, proseFileBestDistance, proseLineStats, ProseLinesBuilder, proseReach, releaseProseLines } from '../../../src/rank/prose-lines.js';
import { addLineGramBm25, addLinesGramBm25, gramIdsOf, gramIndexIn } from '../../../src/rank/prose-doc-grams.js';
import { gramHolders } from '../../../src/rank/prose-gram-holders.js';
import type { PackedProseLines } from '../../../src/rank/prose-lines-build.js';
import { readFileSync } from 'node:fs';

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

  it('a few lines\' grams found by searching each gram\'s lines (issue 30) add the same floats as the walk over all of them', () => {
    let compared = 0;
    for (const f of ['workspace.md', 'models.md']) {
      const lines = readFileSync(new URL(`../../../docs/${f}`, import.meta.url), 'utf8').split('\n');
      const t = built(lines) as PackedProseLines;
      for (const query of ['prose documents bound their lines', 'retry failed uploads', 'the index answers exactly as a scan would']) {
        const plan = buildRankPlan(query, 'hybrid', lexicon);
        const stats = proseLineStats(t, plan);
        const gids = gramIdsOf(plan)!;
        const at = Int32Array.from(gids, (gid) => (gid < 0 ? -1 : gramIndexIn(t.grams, gid)));
        // Every third line that holds one of the plan's grams, and one that holds none.
        const picked = Int32Array.from(new Set([...t.grams.line].filter((l) => l % 3 === 0)));
        const take = new Float64Array(t.lines);
        for (const l of picked) take[l] = 1;
        const walked = new Float64Array(t.lines);
        const searched = new Float64Array(t.lines);
        addLineGramBm25(t.grams, at, gids.length, t.lengths, stats, take, walked);
        addLinesGramBm25(t.grams, at, gids.length, t.lengths, stats, picked, picked.length, searched);
        expect([...searched]).toEqual([...walked]);
        compared += picked.filter((l) => walked[l] > 0).length;
      }
    }
    expect(compared).toBeGreaterThan(100);
  });

  it('a plan\'s lists of the documents holding its grams carry each one\'s document frequency and most in a line (issue 30), a most past 0xffff too', () => {
    // 'aaaaa' 30,000 times in one line holds the gram 'aaa' 90,000 times there (more than the lists pack).
    const texts = [['aaaaa '.repeat(30_000), 'aaaaa once', 'nothing here'], ['castle aaaaa', 'aaaaa aaaaa castles'], ['the castle keep', 'no grams of the query']];
    const docs = texts.map((t) => built(t) as PackedProseLines);
    const plan = buildRankPlan('aaaaa castle', 'hybrid', lexicon);
    const holders = gramHolders(plan)!;
    let most = 0;
    let checked = 0;
    for (const t of docs) {
      const slot = t.grams.slot;
      expect(slot).toBeGreaterThanOrEqual(0);
      for (let j = holders.start[slot]; j < holders.start[slot + 1]; j++) {
        const i = holders.at[j];
        expect([holders.df[j], holders.most[j]]).toEqual([t.grams.gramDf[i], t.grams.gramMost[i]]);
        // A kept document's gram has an entry per line that holds it (what proseBest counts its walk by).
        expect(t.grams.lineStart[i + 1] - t.grams.lineStart[i]).toBe(t.grams.gramDf[i]);
        most = Math.max(most, holders.most[j]);
        checked++;
      }
    }
    expect(most).toBe(90_000);
    expect(checked).toBeGreaterThan(5);
    for (const t of docs) releaseProseLines(t);
  });
});
