// Which files are prose, and what their lines' BM25 takes from the file: document frequencies over
// its non-blank lines (Lucene's idf), the mean line length, and a bounded count for long files.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan, RANK_DEFAULTS } from '../../../src/rank/plan.js';
import {
  proseTermCount, gramBm25, isProsePath, lineGrams, lineLexical, lineTerms, proseBm25, PROSE_CONTEXT, PROSE_DF_CHARS, PROSE_DF_LINES, PROSE_GRAMS, proseLexical,
  proseRelevance, proseTermlessBound, proseWindowBm25,
} from '../../../src/rank/prose.js';
import { queryGrams } from '../../../src/rank/lexical/grams.js';
import { ProseCounter, proseStatsOf } from '../../../src/rank/prose-counter.js';
import { bundledLexicon } from '../../../src/rank/lexical/lexicon.js';
import { identifierRuns, RUN_LIMIT } from '../../../src/rank/run-table.js';
import type { RankPlan } from '../../../src/rank/plan.js';
import { countTerms } from '../../../src/rank/chunk-scorer.js';
import { knownByEmbedding, knownShareOf } from '../../../src/rank/query-mode.js';

const lexicon = parseLexicon('#docs\t1000\ncastle\t10\n');

describe('isProsePath', () => {
  it('tells prose by extension or a conventional document name, and leaves code and other names as code', () => {
    const table: [string, boolean][] = [
      ['notes.txt', true], ['docs/guide.md', true], ['a/b/README.rst', true], ['paper.tex', true], ['todo.org', true],
      ['manual.adoc', true], ['C:\\docs\\Notes.MD', true], ['README', true], ['LICENSE', true], ['src/ChangeLog', true],
      ['main.ts', false], ['lib/util.py', false], ['Makefile', false], ['Dockerfile', false], ['run', false],
      ['data.csv', false], ['.md', false], ['README.md.ts', false], ['<stdin>', false], ['md/file.rs', false],
    ];
    expect(table.map(([p]) => [p, isProsePath(p)])).toEqual(table);
  });
});

describe('ProseCounter', () => {
  it('counts each term once per non-blank line that holds it, and gives Lucene idf over those lines', () => {
    const plan = buildRankPlan('castle king', 'hybrid', lexicon);
    const c = new ProseCounter(plan);
    c.add(['The castle of the castle king.', '', 'A castle.', 'Nothing here.']);
    const s = c.stats();
    const idf = (n: number, df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));
    // Three documents (the blank line is none): castle in 2, king in 1; not the lexicon's counts.
    expect(plan.terms.map((t) => t.key)).toEqual(['castl', 'king']);
    expect(s.idf).toEqual([idf(3, 2), idf(3, 1)]);
    // BM25 is mapped against the idf of terms found in one line only (here: ln 8), one scale for every file.
    expect(s.norm).toBe(2 * Math.log(1 + 3.5 / 0.5));
    expect(s.avgChars).toBe(('The castle of the castle king.'.length + 'A castle.'.length + 'Nothing here.'.length) / 3);
  });

  it(`counts only the first ${PROSE_DF_LINES} lines, so a long file's statistics are final early`, () => {
    const plan = buildRankPlan('castle', 'hybrid', lexicon);
    const c = new ProseCounter(plan);
    c.add(Array.from({ length: PROSE_DF_LINES - 1 }, () => 'grass'));
    expect(c.full).toBe(false);
    c.add(['castle', 'castle', 'castle']);
    expect(c.full).toBe(true);
    expect(c.stats().idf[0]).toBe(Math.log(1 + (PROSE_DF_LINES - 1 + 0.5) / 1.5));
  });

  it(`stops at ${PROSE_DF_CHARS} characters too, so few wide lines are not all held back`, () => {
    const plan = buildRankPlan('castle', 'hybrid', lexicon);
    const c = new ProseCounter(plan);
    const wide = `castle ${'x'.repeat(16 << 10)}`;
    c.add(Array.from({ length: 6000 }, () => wide));
    expect(c.full).toBe(true);
    expect(c.lines).toBe(Math.ceil(PROSE_DF_CHARS / wide.length));
  });

  it('a line that holds more of the rarer terms scores more, and a longer line with the same terms less', () => {
    const plan = buildRankPlan('castle king', 'hybrid', lexicon);
    const c = new ProseCounter(plan);
    const lines = ['castle', 'castle', 'castle king', 'castle king and a long tail of other words', 'king'];
    c.add(lines);
    const s = c.stats();
    const bm = (line: string) => {
      const tf = new Float64Array(plan.terms.length);
      const touched: number[] = [];
      countTerms(line, plan, tf, touched);
      return proseBm25(tf, touched, line.length, s);
    };
    expect(bm('castle king')).toBeGreaterThan(bm('castle'));
    expect(bm('king')).toBeGreaterThan(bm('castle'));
    expect(bm('castle king')).toBeGreaterThan(bm(lines[3]));
  });
});

describe('a prose line with its window and its grams', () => {
  const s = { idf: [1, 2], norm: 4, avgChars: 30, gramIdf: [], gramNorm: 0 };
  const sat = (x: number) => x / (x + 1);
  it('adds the line\'s own BM25 and its window\'s, each over the norm, then saturates once; a line with no term of its own scores 0 whatever its neighbours hold', () => {
    expect(proseLexical(0, 0, 0, s)).toBe(0);
    expect(proseLexical(4, 4, 0, s)).toBeCloseTo(0.5);
    expect(proseLexical(0, 4, 0, s)).toBe(0);
    expect(proseLexical(4, 12, 0, s)).toBeCloseTo(sat((1 - PROSE_CONTEXT) * 1 + PROSE_CONTEXT * 3));
    expect(proseLexical(4, 0, 0, s)).toBeCloseTo(sat(1 - PROSE_CONTEXT));
    expect(proseLexical(4, 4, 0, { ...s, norm: 0 })).toBe(0);
  });

  it('adds in the grams\' BM25 over their norm at PROSE_GRAMS when the query has grams; a line with no term scores 0 whatever its grams hold', () => {
    const g = { ...s, gramIdf: [1, 1, 1], gramNorm: 6 };
    expect(proseLexical(4, 4, 6, g)).toBeCloseTo(0.5);
    expect(proseLexical(4, 4, 0, g)).toBeCloseTo(sat(1 - PROSE_GRAMS));
    // A line strong in one field is not capped at that field's weight (each field saturated alone would cap the grams at PROSE_GRAMS).
    expect(proseLexical(4, 4, 600, g)).toBeGreaterThan(PROSE_GRAMS + (1 - PROSE_GRAMS) * 0.5);
    expect(proseLexical(0, 4, 6, g)).toBe(0);
  });

  it('grams read another form of a query word: of two lines holding the same term, the one with the other word\'s attached form ranks first', () => {
    // Arabic attaches the article and "and" to a word: "والمدينة" (and the city) is no word of "مدينة" (city).
    const plan = buildRankPlan('مدينة القاهرة', 'hybrid', lexicon);
    expect(queryGrams('مدينة القاهرة')).toEqual(['مدي', 'دين', 'ينة', 'الق', 'لقا', 'قاه', 'اهر', 'هرة']);
    const lines = ['القاهرة والمدينة', 'القاهرة والبحر', 'نص آخر', 'نص آخر'];
    const counter = new ProseCounter(plan);
    counter.add(lines);
    const st = counter.stats();
    const rows = lines.map((line) => lineTerms(line, plan, new Float64Array(plan.terms.length), []));
    const lexical = (i: number) => lineLexical([rows[i]], (j) => lines[i + j].length, 0, st, new Float64Array(plan.terms.length), []);
    expect(rows[0]!.terms).toEqual(rows[1]!.terms);
    expect(lexical(0)).toBeGreaterThan(lexical(1));
  });

  it('proseTermlessBound is the most a line without a query term can score (cosine at most 1), whatever its neighbours hold', () => {
    const plan = buildRankPlan('castle king', 'hybrid', lexicon);
    for (const [pathMatch, prior] of [[0, 1], [1, 0.3], [0.5, 1]]) {
      const bound = proseTermlessBound(plan, pathMatch, prior);
      for (const cos of [-1, 0, 0.4, 1]) expect(proseRelevance(cos, 0, pathMatch, prior, plan)).toBeLessThanOrEqual(bound);
      expect(proseRelevance(1, 0, pathMatch, prior, plan)).toBe(bound);
      expect(proseRelevance(1, proseLexical(0, 4, 4, s), pathMatch, prior, plan)).toBe(bound);
    }
    expect(proseTermlessBound(buildRankPlan('castle', 'lexical', lexicon), 0, 1)).toBe(0);
  });
});

describe('ProseCounter over many lines at once', () => {
  it('gives the statistics and best line of counting each line alone (lines without a probe are not counted one by one)', () => {
    const docs = path.join(fileURLToPath(new URL('../../../', import.meta.url)), 'docs');
    const files = readdirSync(docs).filter((f) => f.endsWith('.md')).map((f) => readFileSync(path.join(docs, f), 'utf8'));
    files.push('Run parseConfig on 2025 and 25px, then retry_failed uploads.\n\nUploadS of RETRIES\ncafé 25 uploads');
    for (const query of ['retry failed uploads', 'parseConfig', 'which mode should I use to search a document', '25', 'the index format version']) {
      const plan = buildRankPlan(query, 'hybrid', lexicon);
      for (const text of files) {
        const lines = text.split('\n');
        const whole = new ProseCounter(plan);
        whole.add(lines);
        const one = new ProseCounter(plan);
        for (const line of lines) one.add([line]);
        const s = one.stats();
        expect({ query, stats: whole.stats(), best: whole.bestLexical(s) }).toEqual({ query, stats: s, best: one.bestLexical(s) });
      }
    }
  });

  it('counts ASCII lines by their identifier runs as lineTerms and lineGrams count each line, for a pasted file\'s 24 terms too (one pass whatever the query: issue 30)', () => {
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    const texts = ['agents.md', 'models.md'].map((f) => readFileSync(path.join(root, 'docs', f), 'utf8'));
    texts.push('Run parseConfig on 2025 and 25px, then retry_failed uploads.\n\nUploadS of RETRIES\ncafé 25 uploads\n\t \u00a0\n8_8 x86_64 __init__ HTTPServer the of\n2025\n1,5 and 3.5. 1.5, 64 25 25');
    const pasted = readFileSync(path.join(root, 'src/rank/chunk-scorer.ts'), 'utf8');
    const queries = ['retry failed uploads', 'parseConfig', 'the index format version', '25', pasted, pasted.slice(2000, 4000), 'retry 2025 uploads in 25 or 64 days', 'x86 1,5 3.5'];
    const plans = queries.map((q) => buildRankPlan(q, 'hybrid', bundledLexicon()));
    expect(plans[4].terms.length).toBe(24);
    for (const [k, plan] of plans.entries()) {
      for (const text of texts) {
        const lines = text.split('\n');
        const counter = new ProseCounter(plan);
        counter.add(lines);
        const want = countedLineByLine(lines, plan);
        expect({ query: k, stats: counter.stats(), best: counter.bestLexical(want.stats) }).toEqual({ query: k, stats: want.stats, best: want.best });
      }
    }
    // The process's run dictionary starts again in the middle of a document: its runs are worked out again.
    const before = identifierRuns.generation;
    const lines = [...texts[2].split('\n'), Array.from({ length: RUN_LIMIT + 10 }, (_, i) => `zq${i.toString(36)}`).join(' '), ...texts[1].split('\n')];
    for (const plan of [plans[0], plans[4]]) {
      const counter = new ProseCounter(plan);
      counter.add(lines);
      const want = countedLineByLine(lines, plan);
      expect({ stats: counter.stats(), best: counter.bestLexical(want.stats) }).toEqual({ stats: want.stats, best: want.best });
    }
    expect(identifierRuns.generation).toBeGreaterThan(before);
  });

  it('bestLexical is the best line\'s lexical score with its window, as the workers compute it (it took the line\'s own BM25 alone: a bound too tight)', () => {
    const plan = buildRankPlan('castle king river', 'hybrid', lexicon);
    // The best line on its own ("castle") gains from its neighbours' other terms.
    const lines = ['the old town', 'king of the river lands', 'castle', 'the river king built it', '', 'castle king', 'nothing here'];
    const counter = new ProseCounter(plan);
    counter.add(lines);
    const s = counter.stats();
    const counts = lines.map((line) => { const tf = new Float64Array(plan.terms.length); countTerms(line, plan, tf); return tf; });
    const bm25 = (rows: number[], chars: number, window: boolean) => {
      const tf = new Float64Array(plan.terms.length);
      for (const r of rows) counts[r].forEach((c, t) => { tf[t] += c; });
      const touched = [...tf.keys()].filter((t) => tf[t] > 0);
      return window ? proseWindowBm25(tf, touched, chars, s) : proseBm25(tf, touched, chars, s);
    };
    let best = 0;
    let ownOnly = 0;
    lines.forEach((line, i) => {
      const own = bm25([i], line.length, false);
      const rows = [i - 1, i, i + 1].filter((r) => r >= 0 && r < lines.length);
      const grams = gramBm25(lineGrams(line, plan), line.length, s);
      best = Math.max(best, proseLexical(own, bm25(rows, rows.reduce((n, r) => n + lines[r].length, 0), true), grams, s));
      ownOnly = Math.max(ownOnly, proseLexical(own, own, grams, s));
    });
    expect(best).not.toBe(ownOnly);
    expect(counter.bestLexical(s)).toBe(best);
  });
});

describe('the prose weight of the embedding', () => {
  it('scales with the share of the query the model knows; lexical and semantic plans give it none or no prose ranking', () => {
    const grams = ['cas', 'ast', 'stl', 'tle', 'kin', 'ing'];
    expect(buildRankPlan('castle king', 'hybrid', lexicon, 0.5).prose).toEqual({ semantic: 0.025, grams, numbers: [] });
    expect(buildRankPlan('castle king', 'hybrid', lexicon).prose).toEqual({ semantic: 0.05, grams, numbers: [] });
    expect(buildRankPlan('castle king', 'lexical', lexicon).prose).toEqual({ semantic: 0, grams, numbers: [] });
    expect(buildRankPlan('castle king', 'semantic', lexicon).prose).toBeNull();
  });
});

describe('the grams of a long query', () => {
  it('come from the words whose terms it kept (a pasted text costs what a short query costs), and from every word of a short one', () => {
    const words = Array.from({ length: 60 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}x`);
    const long = buildRankPlan(words.join(' '), 'hybrid', lexicon);
    const kept = new Set(long.terms.map((t) => t.key));
    expect(kept.size).toBeLessThan(words.length);
    expect(long.prose!.grams).toEqual(queryGrams(words.filter((w) => kept.has(w)).join(' ')));
    expect(buildRankPlan('castle king', 'hybrid', lexicon).prose!.grams).toEqual(queryGrams('castle king'));
  });

  it('are none for a pasted block of more than maxGramTerms terms (find_related\'s chunk), and every kept word\'s up to it', () => {
    const words = Array.from({ length: RANK_DEFAULTS.maxGramTerms + 1 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}x`);
    const most = buildRankPlan(words.slice(0, -1).join(' '), 'hybrid', lexicon);
    const kept = new Set(most.terms.map((t) => t.key));
    expect(most.terms.length).toBe(RANK_DEFAULTS.maxQueryTerms);
    expect(most.prose!.grams).toEqual(queryGrams(words.filter((w) => kept.has(w)).join(' ')));
    expect(most.prose!.grams.length).toBeGreaterThan(0);
    const pasted = buildRankPlan(words.join(' '), 'hybrid', lexicon);
    expect(pasted.terms.length).toBe(RANK_DEFAULTS.maxQueryTerms);
    expect(pasted.prose!.grams).toEqual([]);
    // A 48-line chunk of this repository's code, as find_related asks with it.
    const chunk = readFileSync(new URL('../../../src/rank/plan.ts', import.meta.url), 'utf8').split('\n').slice(0, 48).join('\n');
    expect(buildRankPlan(chunk, 'hybrid', lexicon).prose).toEqual({ semantic: RANK_DEFAULTS.proseSemantic, grams: [], numbers: [] });
  });
});

describe('knownShareOf', () => {
  it('is the share of distinct words whose vector is not all zeros (a word the model has no token for)', async () => {
    const known = new Set(['castle', 'king']);
    const embed = async (texts: string[]) => Float32Array.from(texts.flatMap((t) => (known.has(t) ? [1, 0] : [0, 0])));
    expect(await knownShareOf('castle king 城堡 castle', knownByEmbedding(embed))).toBe(2 / 3);
    expect(await knownShareOf('?!', knownByEmbedding(embed))).toBe(0);
  });

  it('asks only about the words it has not seen, with a memo, and gives the same share (a pasted file\'s thousands of words were embedded for every long query: issue 30)', async () => {
    const known = new Set(['castle', 'king', 'river']);
    const asked: string[][] = [];
    const embed = async (texts: string[]) => { asked.push(texts); return Float32Array.from(texts.flatMap((t) => (known.has(t) ? [0, 1] : [0, 0]))); };
    const memo = new Map<string, boolean>();
    expect(await knownShareOf('castle king 城堡 castle', knownByEmbedding(embed), memo)).toBe(2 / 3);
    expect(await knownShareOf('river 城堡 king moat', knownByEmbedding(embed), memo)).toBe(await knownShareOf('river 城堡 king moat', knownByEmbedding(embed)));
    expect(await knownShareOf('castle 城堡 king', knownByEmbedding(embed), memo)).toBe(2 / 3);
    expect(asked).toEqual([['castle', 'king', '城堡'], ['river', 'moat'], ['river', '城堡', 'king', 'moat']]);
  });
});

/** A prose file's statistics and best line counted line by line with lineTerms and lineGrams (the reference). */
function countedLineByLine(lines: string[], plan: RankPlan): { stats: ReturnType<typeof proseStatsOf>; best: number } {
  const tf = new Float64Array(proseTermCount(plan));
  const touched: number[] = [];
  const df = new Float64Array(proseTermCount(plan));
  const gramDf = new Float64Array(plan.prose?.grams.length ?? 0);
  const rows: ReturnType<typeof lineTerms>[] = [];
  let docs = 0;
  let chars = 0;
  for (const line of lines) {
    if (line.trim() === '') { rows.push(null); continue; }
    const row = lineTerms(line, plan, tf, touched);
    rows.push(row);
    docs++;
    chars += line.length;
    for (const t of row?.terms ?? []) df[t]++;
    for (const g of (row ?? lineGrams(line, plan)).grams) gramDf[g]++;
  }
  const stats = proseStatsOf(df, gramDf, docs, chars);
  let best = 0;
  rows.forEach((row, i) => { if (row) best = Math.max(best, lineLexical(rows, (j) => lines[j].length, i, stats, tf, touched)); });
  return { stats, best };
}
