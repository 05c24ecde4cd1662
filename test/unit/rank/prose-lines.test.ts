// A prose file's kept line terms (rank/prose-lines.ts) stand in for reading and counting it: the
// statistics they give equal ProseCounter's, and the bound on its best line is never above what any line
// scores (a file skipped on it could not have entered the results) and within a hair of the best; the
// cheaper bound that visits no line (proseReach) is never above that one.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan, RANK_DEFAULTS } from '../../../src/rank/plan.js';
import { ProseCounter } from '../../../src/rank/prose-counter.js';
import { proseBest, proseFileBestDistance, proseLineStats, ProseLinesBuilder, proseReach } from '../../../src/rank/prose-lines.js';
import { PROSE_DF_LINES } from '../../../src/rank/prose.js';
import { forEachGram, forEachWordGram } from '../../../src/rank/lexical/grams.js';
import { identifierParts, isStopword, stem } from '../../../src/rank/lexical/terms.js';
import { KEY_MOST, keyIdOf, type PackedProseLines } from '../../../src/rank/prose-lines-build.js';
import { fold, textNumbers, textWords } from '../../../src/rank/lexical/words.js';

const lexicon = parseLexicon('#docs\t1000\ncastle\t10\nthe\t900\nindex\t100\n');
const root = fileURLToPath(new URL('../../../', import.meta.url));

/** Simgrep's own docs, and small texts for the edges: windows at both ends, blanks, digits, other scripts, case. */
const texts = [
  ...['workspace.md', 'models.md', 'agents.md', 'cli.md'].map((f) => readFileSync(path.join(root, 'docs', f), 'utf8')),
  'Run parseConfig on 2025 and 25px, then retry_failed uploads.\n\nUploadS of RETRIES\ncafé 25 uploads',
  'castle\ncastle king\n\n\nking',
  'Straße STRASSE strasse\n東京の城 castle 城\nΣίσυφος σίσυφος\n8_8 _8 x8 8x',
  '   \n\t\ncastle',
  'retry',
  '药房技术员与药剂师\n药药房 東京タワーの食べ物\n\n药剂 食べる 𠀋𠀌药',
  'والمدينة القاهرة عاصمة مصر\nمدينة القاهرة\nDie Straße führt zum Schloß 1850er\nभारत की राजधानी नई दिल्ली है\n政府间气候变化专门委员会主席\n𠀋𠀌𠀍 a 𝐀𝐁𝐂𝐃 ok İstanbul ǅemal ﬁle',
  // Numbers (prose terms beside the words: rank/prose.ts proseTermCount), alone in a line, inside words, full-width, Arabic-Indic.
  'In 1964 the castle was rebuilt.\n1964\n\nA320 and COVID-19 in 1,964 castles, 3.5 km\n１９６４年城堡\nالقاهرة ١٩٦٤ 1964 castle 1964',
  // Skin tones folded away, Arabic's number separators as . and , (zh36).
  'thumbs 👍 castle\nthumbs 👍🏽 castle 👩🏽\u200d💻\nweighed ١٬٩٦٤٫٥ kg castle\n1,964.5 castle\n964 castle',
];
const queries = [
  'retry failed uploads', 'parseConfig', 'which mode should I use to search a document', '25', 'the index format version',
  'castle king', 'strasse', '城', 'σίσυφος', '_8', 'RETRIES upload', 'x8 8x',
  'مدينة القاهرة', 'schlosses straße', 'दिल्ली राजधानी', '气候变化委员会', '药房的药剂', '食べ物 タワー', '𝐀𝐁𝐂 ok istanbul file', 'uploading retries',
  'which castle was rebuilt in 1964?', 'castle 1,964 3.5 19 320', '1964年的城堡', 'القاهرة ١٩٦٤', 'retry 25 uploads in 2025', 'Schloß 1850',
  '👍 castle', '👍🏿 👩\u200d💻', 'castle ١٬٩٦٤٫٥', '1,964.5 kg',
];
/**
 * A long query (its most distinctive terms, up to RANK_DEFAULTS.maxQueryTerms: rank/query-terms.ts), over fewer
 * texts: a pasted paragraph of ~50 terms, which keeps its kept words' ~100 grams (RANK_DEFAULTS.maxGramTerms).
 */
const long = readFileSync(path.join(root, 'docs/workspace.md'), 'utf8').slice(0, 600);

function built(lines: string[]) {
  const b = new ProseLinesBuilder();
  for (const line of lines) b.add(line);
  return b.done();
}

describe('prose line terms', () => {
  it('give ProseCounter\'s statistics exactly, the grams\' too, and a bound on the best line at most its distance and within 1e-6 of it (its grams\' part counted)', () => {
    let bounded = 0;
    let withGrams = 0;
    let looser = 0;
    const kept = texts.map((text) => built(text.split('\n'))!);
    for (const query of [...queries, long]) {
      for (const mode of query.length < 20 ? ['hybrid', 'lexical'] as const : ['hybrid'] as const) {
        const plan = buildRankPlan(query, mode, lexicon);
        if (query === long) expect(plan.terms.length).toBeGreaterThan(RANK_DEFAULTS.maxQueryTerms / 2);
        texts.forEach((text, f) => {
          if (query === long && f % 4 !== 0) return;
          const lines = text.split('\n');
          const counter = new ProseCounter(plan);
          counter.add(lines);
          const stats = counter.stats();
          const terms = kept[f];
          const where = `${query.slice(0, 40)} / ${mode} / text ${f}`;
          expect({ where, stats: proseLineStats(terms, plan) }).toEqual({ where, stats });
          if (stats.gramIdf.some((idf) => idf < stats.gramNorm / stats.gramIdf.length)) withGrams++;
          const file = `docs/file-${f}.md`;
          const exact = proseFileBestDistance(counter.bestLexical(stats), file, plan);
          const reach = proseReach(terms, plan, file);
          const bound = proseBest(terms, plan, file);
          expect(bound, where).toBeLessThanOrEqual(exact);
          // The bound that visits no line is at most the lines' (a file it skips, they skip too).
          expect(reach, where).toBeLessThanOrEqual(bound);
          if (reach < bound - 1e-6) looser++;
          if (Number.isFinite(exact)) expect(exact - bound, where).toBeLessThan(1e-6);
          else expect(bound, where).toBe(Infinity);
          if (exact < 1) bounded++;
        });
      }
    }
    expect(bounded).toBeGreaterThan(50);
    expect(withGrams).toBeGreaterThan(50);
    expect(looser).toBeGreaterThan(20);
  });

  it('with a floor (issue 30), a bound on the best line: never above what a line scores, nor below proseReach\'s; the exact one wherever it is within the floor', () => {
    let rough = 0;
    let exactPath = 0;
    for (const query of [...queries.slice(0, 8), long]) {
      const plan = buildRankPlan(query, 'hybrid', lexicon);
      texts.forEach((text, f) => {
        const lines = text.split('\n');
        const counter = new ProseCounter(plan);
        counter.add(lines);
        const file = `docs/file-${f}.md`;
        const exact = proseFileBestDistance(counter.bestLexical(counter.stats()), file, plan);
        const unfloored = proseBest(built(lines)!, plan, file);
        if (!Number.isFinite(unfloored)) return;
        for (const floor of [unfloored - 0.2, unfloored - 0.02, unfloored - 1e-4, unfloored, unfloored + 0.05]) {
          const terms = built(lines)!;
          const bound = proseBest(terms, plan, file, undefined, floor);
          const where = `${query.slice(0, 40)} / text ${f} / floor ${floor}`;
          expect(bound, where).toBeLessThanOrEqual(exact);
          expect(bound, where).toBeLessThanOrEqual(unfloored);
          // (Up to the floats' order: both bounds add the same parts in other sums.)
          expect(proseReach(terms, plan, file), where).toBeLessThanOrEqual(bound + 1e-9);
          // Within the floor the file is read: its bound must be the exact one's.
          if (bound <= floor) { expect(bound, where).toBe(unfloored); exactPath++; } else if (bound < unfloored - 1e-9) rough++;
          // Kept for the plan: asked again, the same answer.
          expect(proseBest(terms, plan, file, undefined, floor)).toBe(bound);
        }
      });
    }
    expect(rough).toBeGreaterThan(10);
    expect(exactPath).toBeGreaterThan(10);
  });

  it('find a line\'s grams from its words: the grams of its folded words are forEachGram\'s of its text, over docs/ and other scripts', () => {
    const docs = readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md'));
    const all = [...docs.map((f) => readFileSync(path.join(root, 'docs', f), 'utf8')), ...texts];
    let lines = 0;
    for (const text of all) {
      expect(built(text.split('\n'))).not.toBeNull();
      for (const line of text.split('\n')) {
        const cut: (number | string)[] = [];
        forEachGram(line, (g) => cut.push(g));
        const fromWords: (number | string)[] = [];
        for (const w of textWords(line).map(fold)) if (!isStopword(w)) forEachWordGram(w, (g) => fromWords.push(g));
        expect({ line, fromWords }).toEqual({ line, fromWords: cut });
        lines++;
      }
    }
    expect(lines).toBeGreaterThan(2000);
  });

  it('keep per key, side by side (issue 30), its lines, its best line\'s and best window\'s parts and its shortest line, as its postings give them', () => {
    const lines = readFileSync(path.join(root, 'docs/workspace.md'), 'utf8').split('\n');
    const t = built(lines) as PackedProseLines;
    expect(t.ids.length).toBeGreaterThan(100);
    for (let k = 0; k < t.ids.length; k++) {
      let own = 0;
      let win = 0;
      let least = Infinity;
      for (let j = t.ownStart[k]; j < t.ownStart[k + 1]; j++) { own = Math.max(own, t.ownPart[j]); least = Math.min(least, t.lengths[t.ownLine[j]]); }
      for (let j = t.winStart[k]; j < t.winStart[k + 1]; j++) win = Math.max(win, t.winPart[j]);
      expect([...t.keyMost.subarray(KEY_MOST * k, KEY_MOST * (k + 1))]).toEqual([t.ownStart[k + 1] - t.ownStart[k], own, win, least]);
    }
  });

  it('count each line\'s distinct grams (issue 30), and bound a query\'s many grams in a document of short lines by them: tighter, never above what a line scores', () => {
    // Each line's count is the number of distinct grams forEachGram cuts from it.
    for (const text of texts) {
      const lines = text.split('\n');
      const t = built(lines) as PackedProseLines;
      const counts = lines.map((line) => { const g = new Set<number | string>(); forEachGram(line, (x) => g.add(x)); return g.size; });
      expect([...t.grams.lineGrams!]).toEqual(counts);
      expect(t.grams.mostLineGrams).toBe(Math.max(...counts));
    }
    // A pasted paragraph's ~100 grams against documents of short lines (a list, a table's cells): each line
    // holds a few of them, so the bound with every gram at its most in one line is far too loose.
    const plan = buildRankPlan(long, 'hybrid', lexicon);
    expect(plan.prose!.grams.length).toBeGreaterThan(60);
    const words = [...new Set(textWords(long).map(fold))];
    let tighter = 0;
    let roughTighter = 0;
    for (let d = 0; d < 24; d++) {
      const lines = Array.from({ length: 40 }, (_, i) => (i % 5 === 4 ? '' : `${words[(i * 7 + d * 3) % words.length]} ${words[(i * 11 + d) % words.length]}`));
      const file = `docs/list-${d}.md`;
      const counter = new ProseCounter(plan);
      counter.add(lines);
      const exact = proseFileBestDistance(counter.bestLexical(counter.stats()), file, plan);
      // The same line terms without the counts (as the index's statistics file gives them).
      const counted = built(lines) as PackedProseLines;
      const uncounted = built(lines) as PackedProseLines;
      Object.assign(uncounted.grams, { lineGrams: undefined, mostLineGrams: undefined });
      const reach = proseReach(counted, plan, file);
      expect(reach, file).toBeLessThanOrEqual(exact);
      expect(reach, file).toBeGreaterThanOrEqual(proseReach(uncounted, plan, file));
      if (reach > proseReach(uncounted, plan, file) + 1e-6) tighter++;
      // With a floor just under the best line's bound, the file is out of reach either way; with the counts
      // it is known from the lines' bound with their grams at their most, without them only once its lines'
      // grams are counted (the exact bound).
      const unfloored = proseBest(built(lines)!, plan, file);
      const floor = unfloored - 1e-3;
      const bound = proseBest(counted, plan, file, undefined, floor);
      const without = proseBest(uncounted, plan, file, undefined, floor);
      expect(bound, file).toBeLessThanOrEqual(exact);
      expect(bound, file).toBeGreaterThan(floor);
      expect(without, file).toBeGreaterThan(floor);
      if (bound < unfloored - 1e-9 && without === unfloored) roughTighter++;
    }
    expect(tighter).toBeGreaterThan(18);
    expect(roughTighter).toBeGreaterThan(4);
  });

  it('are not kept for a file longer than its statistics count (no bound: it is read)', () => {
    const b = new ProseLinesBuilder();
    for (let i = 0; i < PROSE_DF_LINES; i++) b.add('castle');
    expect(b.done()).toBeNull();
    expect(built(['castle'])).not.toBeNull();
  });

  it('a plan\'s grams are found in words first seen after it was made (a search builds documents\' line terms as it goes)', () => {
    const plan = buildRankPlan('castle kingdoms', 'hybrid', lexicon);
    const first = built(['castle king', 'the kingdom'])!;
    proseLineStats(first, plan);
    // Words no earlier document held, holding the plan's grams (twice in one word, too).
    const lines = ['castle of the zqcastlezq', 'zqkingdomszqdoms castle castle', '', 'wqastlewq ngdomngdom'];
    const later = built(lines)!;
    // The plan made before those words, and one made after them (its grams found through the words that hold each).
    for (const p of [plan, buildRankPlan('castles kingdoms', 'hybrid', lexicon)]) {
      const counter = new ProseCounter(p);
      counter.add(lines);
      const stats = counter.stats();
      expect(proseLineStats(later, p)).toEqual(stats);
      const exact = proseFileBestDistance(counter.bestLexical(stats), 'b.md', p);
      const bound = proseBest(later, p, 'b.md');
      expect(bound).toBeLessThanOrEqual(exact);
      expect(proseReach(later, p, 'b.md')).toBeLessThanOrEqual(bound);
      expect(exact - bound).toBeLessThan(1e-6);
    }
  });

  it('a plan made again with another weight on the cosine is bounded with that weight (the bound kept for the last plan is not reused)', () => {
    const plan = buildRankPlan('castle king', 'hybrid', lexicon);
    const again = buildRankPlan('castle king', 'hybrid', lexicon, 0.2);
    expect(again.terms).toBe(plan.terms);
    expect(again.prose?.semantic).toBeLessThan(plan.prose!.semantic);
    const lines = ['the old town', 'castle', 'nothing here'];
    const kept = built(lines)!;
    const first = proseBest(kept, plan, 'a.md');
    const counter = new ProseCounter(again);
    counter.add(lines);
    const exact = proseFileBestDistance(counter.bestLexical(counter.stats()), 'a.md', again);
    expect(proseBest(kept, again, 'a.md')).toBeGreaterThan(first);
    expect(exact - proseBest(kept, again, 'a.md')).toBeLessThan(1e-6);
    expect(proseBest(built(lines)!, again, 'a.md')).toBe(proseBest(kept, again, 'a.md'));
    expect(proseReach(kept, again, 'a.md')).toBeGreaterThan(proseReach(kept, plan, 'a.md'));
  });

  it('one file\'s kept terms asked under two names (a root given as `.` and as an absolute path) are bounded with each name\'s path signals, not the last name\'s', () => {
    const plan = buildRankPlan('castle index docs', 'hybrid', lexicon);
    const lines = ['the castle index', 'nothing here'];
    const kept = built(lines)!;
    for (const [first, second] of [['a.md', 'docs/castle/index.md'], ['docs/castle/index.md', 'a.md']]) {
      const k = built(lines)!;
      proseReach(k, plan, first);
      proseBest(k, plan, first);
      expect(proseReach(k, plan, second)).toBe(proseReach(built(lines)!, plan, second));
      expect(proseBest(k, plan, second)).toBe(proseBest(built(lines)!, plan, second));
    }
    // The two names do bound differently (the path's words are signals), so the test can tell.
    expect(proseReach(kept, plan, 'a.md')).not.toBe(proseReach(built(lines)!, plan, 'docs/castle/index.md'));
  });

  it('a word\'s keys worked out once (the word table started again when full, words of 13 characters and more not kept) give each line\'s counts as working them out at every line does', () => {
    // More distinct words than the table keeps, long camelCase ones among them, the first ones said again after it started again.
    const word = (i: number) => (i % 7 === 0 ? `retryFailedUpload${i.toString(36)}` : `w${i.toString(36)}`);
    const lines = (from: number, to: number) => Array.from({ length: (to - from) / 20 }, (_, l) => Array.from({ length: 20 }, (_, k) => word(from + l * 20 + k)).join(' ') + ' castle Castle');
    for (const doc of [lines(0, 40_000), lines(0, 2_000)]) {
      const b = new ProseLinesBuilder();
      for (const line of doc) b.add(line);
      // What add() counted before its table: each word's folded whole and its parts' stems, line by line.
      const expected = new Map<number, number[]>();
      doc.forEach((line, at) => {
        const counts = new Map<number, number>();
        for (const w of textWords(line)) for (const key of ['w' + fold(w), ...identifierParts(w).map((p) => 's' + stem(p))]) counts.set(keyIdOf(key)!, (counts.get(keyIdOf(key)!) ?? 0) + 1);
        for (const n of textNumbers(line)) counts.set(keyIdOf('n' + n)!, (counts.get(keyIdOf('n' + n)!) ?? 0) + 1);
        for (const [id, n] of counts) { const list = expected.get(id); if (list) list.push(at, n); else expected.set(id, [at, n]); }
      });
      expect(new Map(b.postings()!.byKey)).toEqual(expected);
    }
  });
});

