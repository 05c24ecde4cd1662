// Kept prose documents bounded all at once (rank/prose-sweep.ts): the sweep's best lexical score of each
// document is at least what its best line scores (a document skipped on it could not have entered the
// results) and within a hair of it, for every query; a document dropped is no longer swept, and one
// changed after keeping (dropped, then kept again) is bounded by its new lines, never by its old ones;
// past its bound (SWEEP_BYTES) the oldest documents that fit are swept, the rest bounded on their own.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan } from '../../../src/rank/plan.js';
import { ProseCounter } from '../../../src/rank/prose-counter.js';
import { proseBest, proseFileBestDistance, ProseLinesBuilder, proseReach, releaseProseLines, sweepProseLines } from '../../../src/rank/prose-lines.js';
import { prepareSweep, setSweepLimitBytes, sweepHeld, sweptLexical } from '../../../src/rank/prose-sweep.js';
import { setSweepBlockLines } from '../../../src/rank/prose-sweep-walk.js';
import { BLOCK_LINES, GRAM_PAGE_BITS, setGramPageBits, shareOf, SWEEP_BYTES, sweepBytesOf } from '../../../src/rank/prose-sweep-bound.js';
import type { PackedProseLines } from '../../../src/rank/prose-lines-build.js';

const lexicon = parseLexicon('#docs\t1000\ncastle\t10\nthe\t900\nindex\t100\n');
const root = fileURLToPath(new URL('../../../', import.meta.url));

const texts = [
  ...['workspace.md', 'models.md', 'agents.md'].map((f) => readFileSync(path.join(root, 'docs', f), 'utf8')),
  'Run parseConfig on 2025 and 25px, then retry_failed uploads.\n\nUploadS of RETRIES\ncafé 25 uploads',
  'castle\ncastle king\n\n\nking',
  'Straße STRASSE strasse\n東京の城 castle 城\nΣίσυφος σίσυφος\n8_8 _8 x8 8x',
  'In 1964 the castle was rebuilt.\n1964\n\nA320 and COVID-19 in 1,964 castles, 3.5 km\n１９６４年城堡\nالقاهرة ١٩٦٤ 1964 castle 1964',
  'والمدينة القاهرة عاصمة مصر\nمدينة القاهرة\nDie Straße führt zum Schloß 1850er\nभारत की राजधानी नई दिल्ली है',
];
const queries = [
  'retry failed uploads', 'parseConfig', 'which mode should I use to search a document', '25', 'the index format version',
  'castle king', 'strasse', '城', 'which castle was rebuilt in 1964?', 'مدينة القاهرة', 'schlosses straße', 'uploading retries',
  // A pasted paragraph: its 24 most distinctive terms of ~50, ~80 grams; a pasted block (find_related's
  // chunk, over RANK_DEFAULTS.maxGramTerms terms): its 24 terms and no grams.
  readFileSync(path.join(root, 'docs/workspace.md'), 'utf8').slice(2000, 2600),
  readFileSync(path.join(root, 'docs/workspace.md'), 'utf8').slice(2000, 3500),
];

function built(text: string): PackedProseLines {
  const b = new ProseLinesBuilder();
  for (const line of text.split('\n')) b.add(line);
  return b.done() as PackedProseLines;
}

/** Counted once per text and plan terms (the block and page sizes' runs ask the same). */
const counted = new Map<string, Map<string, number>>();

/** The best lexical score of any of the text's lines for the plan: what reading and counting it gives. */
function bestLexical(text: string, plan: ReturnType<typeof buildRankPlan>): number {
  const key = [plan.mode, plan.terms.map((t) => `${t.whole ? 'w' : 's'}${t.key}`).join(' '), plan.prose?.grams.join(' '), plan.prose?.numbers.join(' ')].join('\u0000');
  let byPlan = counted.get(text);
  if (!byPlan) counted.set(text, (byPlan = new Map()));
  const known = byPlan.get(key);
  if (known !== undefined) return known;
  const counter = new ProseCounter(plan);
  counter.add(text.split('\n'));
  const best = counter.bestLexical(counter.stats());
  byPlan.set(key, best);
  return best;
}

/** The sweep's score of each document is at least its best line's and within 1e-6 of it, for every query; how many scored above 0. */
function expectSwept(docs: PackedProseLines[], of: string[]): number {
  let scored = 0;
  for (const query of queries) {
    for (const mode of ['hybrid', 'lexical'] as const) {
      const plan = buildRankPlan(query, mode, lexicon);
      docs.forEach((t, i) => {
        const where = `${query.slice(0, 30)} / ${mode} / text ${i}`;
        const swept = sweptLexical(t, plan);
        expect(swept, where).toBeDefined();
        const exact = bestLexical(of[i], plan);
        // A margin for the order of the additions, as the bounds take (prose-lines.ts).
        expect(swept! * (1 + 1e-9), where).toBeGreaterThanOrEqual(exact);
        expect(swept! - exact, where).toBeLessThan(1e-6);
        if (exact > 0) scored++;
        // The pipeline's bounds of a swept document are that score's.
        const file = `docs/file-${i}.md`;
        const d = proseFileBestDistance(swept! * (1 + 1e-9), file, plan);
        expect(proseReach(t, plan, file)).toBe(d);
        expect(proseBest(t, plan, file, undefined, 0)).toBe(d);
      });
    }
  }
  return scored;
}

describe('prose sweep', () => {
  it('bounds every kept document\'s best line at once: at least what it scores, within 1e-6, for short queries and a pasted block', async () => {
    const docs = texts.map(built);
    for (const t of docs) sweepProseLines(t);
    // Made by the keeper once a batch is counted, never by a search: until then each is bounded on its own.
    expect(sweptLexical(docs[0], buildRankPlan('castle', 'lexical', lexicon))).toBeUndefined();
    await prepareSweep();
    expect(expectSwept(docs, texts)).toBeGreaterThan(60);
    for (const t of docs) releaseProseLines(t);
  });

  it('sums the lines a block at a time, the keys\', windows\' and grams\' lines a page at a time: blocks and pages of a few lines, their edges within documents and within a line\'s window, bound every document as one of each does', async () => {
    for (const [lines, bits] of [[1, 16], [64, 16], [7, 3], [5, 6]]) {
      setSweepBlockLines(lines);
      setGramPageBits(bits);
      const docs = texts.map(built);
      try {
        for (const t of docs) sweepProseLines(t);
        await prepareSweep();
        expect(expectSwept(docs, texts), `blocks of ${lines}, pages of ${2 ** bits}`).toBeGreaterThan(60);
        // The bytes held are those worked out before (a key's and a gram's starts per page).
        const shares = docs.map(shareOf);
        const sum = (k: 'lines' | 'entries' | 'gramEntries') => shares.reduce((a, s) => a + s[k], 0);
        expect(sweepHeld().bytes).toBe(sweepBytesOf(docs.length, sum('lines'), sum('entries'), sum('gramEntries'), Math.max(...shares.map((s) => s.maxGram)), false, lines));
      } finally {
        setSweepBlockLines(BLOCK_LINES);
        setGramPageBits(GRAM_PAGE_BITS);
        for (const t of docs) releaseProseLines(t);
      }
    }
  });

  it('a document dropped is no longer swept; one changed after keeping is bounded by its new lines, before and after the lists are made again', async () => {
    const docs = texts.map(built);
    for (const t of docs) sweepProseLines(t);
    await prepareSweep();
    const plan = buildRankPlan('castle king', 'lexical', lexicon);
    expect(sweptLexical(docs[4], plan)).toBeGreaterThan(0);
    // The castle document changes: its keeper drops it and keeps its new text (which holds neither word).
    const changed = [...texts];
    changed[4] = 'no such words here\n\nnor here';
    releaseProseLines(docs[4]);
    expect(sweptLexical(docs[4], plan)).toBeUndefined();
    const again = built(changed[4]);
    sweepProseLines(again);
    docs[4] = again;
    // Its new lines, not its old ones: bounded on its own until the lists are made again, then swept.
    expect(sweptLexical(again, plan)).toBeUndefined();
    expect(proseBest(again, plan, 'docs/changed.md', undefined, 0)).toBe(Infinity);
    await prepareSweep();
    expect(sweptLexical(again, plan)).toBe(0);
    expect(expectSwept(docs.filter((_, i) => i !== 4), changed.filter((_, i) => i !== 4))).toBeGreaterThan(40);
    // Another changed the other way: its new lines hold the words, its old ones did not.
    changed[3] = 'castle king\n' + texts[3];
    releaseProseLines(docs[3]);
    docs[3] = built(changed[3]);
    sweepProseLines(docs[3]);
    // Past half the documents dropped, or new ones enough, the lists are made again from the kept ones.
    for (let i = 0; i < 5; i++) { releaseProseLines(docs[i]); docs[i] = built(changed[i]); sweepProseLines(docs[i]); }
    // A few changed among many are bounded on their own (exact, as before the sweep); here enough changed to make it again.
    await prepareSweep();
    expect(expectSwept(docs, changed)).toBeGreaterThan(60);
    expect(sweptLexical(docs[3], plan)).toBeCloseTo(bestLexical(changed[3], plan), 5);
    expect(sweptLexical(docs[4], plan)).toBe(0);
    for (const t of docs) releaseProseLines(t);
  });

  it('holds no more than its bound, while made too: the oldest documents that fit are swept (exactly), the rest bounded on their own (within their best line\'s distance)', async () => {
    const docs = texts.map(built);
    for (const t of docs) sweepProseLines(t);
    await prepareSweep();
    // The bytes worked out before making it are the bytes it holds.
    const shares = docs.map(shareOf);
    const sum = (n: number, k: 'lines' | 'entries' | 'gramEntries') => shares.slice(0, n).reduce((a, s) => a + s[k], 0);
    const maxGram = (n: number) => Math.max(-1, ...shares.slice(0, n).map((s) => s.maxGram));
    const bytesOf = (n: number, making: boolean) => sweepBytesOf(n, sum(n, 'lines'), sum(n, 'entries'), sum(n, 'gramEntries'), maxGram(n), making);
    expect(sweepHeld()).toMatchObject({ bytes: bytesOf(docs.length, false), documents: docs.length });
    const plans = queries.flatMap((q) => (['hybrid', 'lexical'] as const).map((mode) => buildRankPlan(q, mode, lexicon)));
    const reach = plans.map((plan) => docs.map((t, i) => proseReach(t, plan, `docs/file-${i}.md`)));
    try {
      // Room for the first 5 documents while made: they are swept, the other 3 are not. The sweep of all 8
      // is let go first: it and the one being made would pass the bound together.
      const limit = bytesOf(5, true);
      setSweepLimitBytes(limit);
      const made = prepareSweep();
      expect(sweepHeld()).toMatchObject({ bytes: limit, documents: 0 });
      await made;
      expect(sweepHeld()).toMatchObject({ bytes: bytesOf(5, false), documents: 5 });
      plans.forEach((plan, p) => docs.forEach((t, i) => {
        const where = `plan ${p} / text ${i}`;
        expect(sweptLexical(t, plan) === undefined, where).toBe(i >= 5);
        // A swept document's bound is the unbounded sweep's; one bounded on its own is at most its best line's distance.
        const file = `docs/file-${i}.md`;
        if (i < 5) expect(proseReach(t, plan, file), where).toBe(reach[p][i]);
        else expect(proseReach(t, plan, file), where).toBeLessThanOrEqual(proseFileBestDistance(bestLexical(texts[i], plan), file, plan));
      }));
      // Three of the five change (dropped, kept again): the lists are made again, the old ones let go first
      // (both would pass the bound), the documents bounded on their own meanwhile.
      for (const i of [0, 1, 2]) { releaseProseLines(docs[i]); docs[i] = built(texts[i]); sweepProseLines(docs[i]); }
      const again = prepareSweep();
      const meanwhile = sweepHeld();
      await again;
      expect(meanwhile.documents).toBe(0);
      expect(meanwhile.bytes).toBeGreaterThan(0);
      expect(meanwhile.bytes).toBeLessThanOrEqual(limit);
      expect(sweepHeld().bytes).toBeLessThanOrEqual(limit);
      expect(sweepHeld().documents).toBeGreaterThan(0);
      // Nothing fits: nothing is held, every document is bounded on its own.
      setSweepLimitBytes(1);
      await prepareSweep();
      expect(sweepHeld()).toMatchObject({ bytes: 0, documents: 0 });
      expect(docs.every((t) => sweptLexical(t, plans[0]) === undefined)).toBe(true);
      // Back to the default: all swept again (the bench tree's 1,387 documents fit with room).
      setSweepLimitBytes(SWEEP_BYTES);
      await prepareSweep();
      expect(sweepHeld().documents).toBe(docs.length);
      expect(expectSwept(docs, texts)).toBeGreaterThan(60);
    } finally {
      setSweepLimitBytes(SWEEP_BYTES);
      for (const t of docs) releaseProseLines(t);
    }
  });
});
