// A long query (a pasted file) is ranked as a short one would rank it, only at a cost that grows with
// its length, not with length x text (issue 30): terms counted by identifiers give the per-term
// search's counts, chunk statistics are the same floats, and the lexicon's map answers as its text.
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chunkStats, countTerms, nameCoverage } from '../../../src/rank/chunk-scorer.js';
import { bundledLexicon, parseLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan, type RankPlan } from '../../../src/rank/plan.js';
import { identifierParts, stem } from '../../../src/rank/lexical/terms.js';
import { MANY_TERMS } from '../../../src/rank/term-index.js';
import { identifierRuns, RUN_LIMIT } from '../../../src/rank/run-table.js';
import { bundledLexiconPath } from '../../../src/model/default-model.js';

const source = readFileSync(new URL('../../../src/rank/chunk-scorer.ts', import.meta.url), 'utf8');
const lines = source.split('\n');

/** The plan's terms one at a time: each small plan is counted by the per-term search. */
function perTermCounts(text: string, plan: RankPlan): number[] {
  return plan.terms.map((term) => {
    const tf = new Float64Array(1);
    countTerms(text, { ...plan, terms: [term] }, tf);
    return tf[0];
  });
}

// A query keeps at most RANK_DEFAULTS.maxQueryTerms terms (query-terms.ts), no more than MANY_TERMS:
// these plans keep every term (maxTerms Infinity), so lines are counted by identifiers.
describe('a query with many terms', () => {
  const plan = buildRankPlan(readFileSync(new URL('../../../src/rank/plan.ts', import.meta.url), 'utf8'), 'hybrid', bundledLexicon(), 1, Infinity);

  it('has more terms than the per-term search is used for', () => {
    expect(plan.terms.length).toBeGreaterThan(MANY_TERMS * 4);
  });

  it('counts every line of text in other scripts as the per-term search does (and says which terms it touched)', () => {
    const prose = [
      'Die Dateigröße wird überprüft, bevor der Upload erneut versucht wird (retryUpload).',
      'تتم إعادة محاولة التحميل الفاشل بعد مهلة قصيرة uploadRetry',
      '失败的上传会在短暂等待后重试 retry_failed_upload',
      'असफल अपलोड को थोड़ी देर बाद फिर से आज़माया जाता है',
      'Повторная попытка загрузки файла: retryCount и backoffMs',
    ];
    const many = buildRankPlan(`${prose.join('\n')}\n${readFileSync(new URL('../../../src/rank/plan.ts', import.meta.url), 'utf8')}`, 'hybrid', bundledLexicon(), 1, Infinity);
    expect(many.terms.length).toBeGreaterThan(MANY_TERMS);
    let counted = 0;
    for (const line of prose) {
      const tf = new Float64Array(many.terms.length);
      const touched: number[] = [];
      countTerms(line, many, tf, touched);
      const expected = perTermCounts(line, many);
      expect([...tf], line).toEqual(expected);
      expect(touched.sort((a, b) => a - b)).toEqual(expected.flatMap((n, t) => (n > 0 ? [t] : [])));
      counted += expected.filter((n) => n > 0).length;
    }
    expect(counted).toBeGreaterThan(10);
  });

  it('counts every line as the per-term search does', () => {
    for (const line of lines) {
      const tf = new Float64Array(plan.terms.length);
      countTerms(line, plan, tf);
      expect([...tf], line).toEqual(perTermCounts(line, plan));
    }
  });

  it('counts as the per-term search does after the process\'s run dictionary started again (full)', () => {
    const tf = new Float64Array(plan.terms.length);
    for (const line of lines.slice(0, 40)) countTerms(line, plan, tf);
    const before = identifierRuns.generation;
    // More distinct identifiers than the dictionary keeps: it starts again in the middle of this text.
    countTerms(Array.from({ length: RUN_LIMIT + 10 }, (_, i) => `zq${i.toString(36)}`).join(' '), plan, tf);
    expect(identifierRuns.generation).toBeGreaterThan(before);
    for (const line of lines.slice(0, 40)) {
      const again = new Float64Array(plan.terms.length);
      countTerms(line, plan, again);
      expect([...again], line).toEqual(perTermCounts(line, plan));
    }
  });

  it('counts a number as the per-term search does (a numeric query term was never counted in a long query: CI counterexample "25")', () => {
    for (const text of ['25', 'x 25 y', '0.25', '2025', 'v25', '25px', '1_25']) {
      const tf = new Float64Array(plan.terms.length);
      countTerms(text, plan, tf);
      expect([...tf], text).toEqual(perTermCounts(text, plan));
    }
  });

  it('counts any text as the per-term search does (property)', () => {
    const words = ['retry', 'Upload', 'parse_config', 'HTTPServer', 'x2', '9lives', 'chunk', 'terms', 'plan', '__init__', 'ßtraße', 'K'];
    fc.assert(fc.property(fc.array(fc.oneof(fc.constantFrom(...words), fc.string({ maxLength: 6 })), { maxLength: 30 }), fc.constantFrom(' ', '.', '_', '', '(', '\t'), (parts, sep) => {
      const text = parts.join(sep);
      const tf = new Float64Array(plan.terms.length);
      countTerms(text, plan, tf);
      expect([...tf]).toEqual(perTermCounts(text, plan));
    }));
  });

  it('gives the chunk statistics and name coverage of the per-term search, to the last bit', () => {
    // The reference: the same plan with each line counted per term (a plan of at most MANY_TERMS
    // terms takes that path), rebuilt from its counts.
    const got = chunkStats(lines, 0, 'src/rank/chunk-scorer.ts', plan);
    const reference = referenceChunkStats(lines, 'src/rank/chunk-scorer.ts', plan);
    expect(got.map((c) => c.bm25)).toEqual(reference);
    for (const name of ['chunkStats', 'countTerms', 'buildRankPlan', 'RankPlan', 'relevance']) {
      const stems = identifierParts(name).map(stem);
      let covered = 0;
      for (const t of plan.terms) if (t.whole ? name.toLowerCase() === t.key : stems.includes(t.key)) covered += t.idf;
      expect(nameCoverage(name, plan)).toBe(covered / plan.idfSum);
    }
  });
});

/** BM25 per chunk as chunkStats computed it before (dense, every term in plan order). */
function referenceChunkStats(ls: string[], path: string, plan: RankPlan): number[] {
  const { k1, b, avgdl, tokensPerChar } = plan.bm25;
  const pathText = `${'chunk-scorer'} ${'chunk-scorer'} src rank`;
  const pathTf = perTermCounts(pathText, plan);
  const out: number[] = [];
  for (let from = 0; from < ls.length; from += plan.chunkLines) {
    const tf = [...pathTf];
    let chars = pathText.length;
    for (const line of ls.slice(from, from + plan.chunkLines)) {
      chars += line.length;
      perTermCounts(line, plan).forEach((n, t) => { tf[t] += n; });
    }
    const dl = chars * tokensPerChar;
    let bm25 = 0;
    for (let t = 0; t < tf.length; t++) if (tf[t] > 0) bm25 += plan.terms[t].idf * (tf[t] * (k1 + 1)) / (tf[t] + k1 * (1 - b + (b * dl) / avgdl));
    out.push(bm25);
  }
  return out;
}

describe('a query planned again', () => {
  it('shares the first plan\'s terms and equals a plan made afresh, for any known-word share', () => {
    const text = readFileSync(new URL('../../../src/rank/prose.ts', import.meta.url), 'utf8');
    const first = buildRankPlan(text, 'hybrid', bundledLexicon(), 0.5);
    const again = buildRankPlan(text, 'hybrid', bundledLexicon(), 1);
    expect(again.terms).toBe(first.terms);
    // Another lexicon object (the same counts) is never answered from the recent plans.
    const fresh = (mode: 'hybrid' | 'lexical', share: number) => buildRankPlan(text, mode, parseLexicon(readFileSync(bundledLexiconPath(), 'utf8')), share);
    expect(again).toEqual(fresh('hybrid', 1));
    expect(buildRankPlan(text, 'hybrid', bundledLexicon(), 0.5)).toEqual(fresh('hybrid', 0.5));
    expect(buildRankPlan(text, 'lexical', bundledLexicon(), 0.5)).toEqual(fresh('lexical', 0.5));
  });
});

describe('the lexicon', () => {
  it('answers for the terms of a long query, looked up in one pass, as when each is found in its text', () => {
    const text = readFileSync(bundledLexiconPath(), 'utf8');
    const probe = parseLexicon(text);
    const terms = [...new Set(source.match(/[a-z]+/g)!)].slice(0, 300);
    const many = parseLexicon(text);
    many.prefetch!([...terms, 'zzzz-not-a-term']);
    const viaMap = terms.map((t) => many.df(t));
    expect(many.df('zzzz-not-a-term')).toBe(0);
    // A fresh lexicon per term never reaches the map: each answer is a search of the text.
    const viaText = terms.map((t) => parseLexicon(text).df(t));
    expect(viaMap).toEqual(viaText);
    expect(probe.df('#docs')).toBe(0);
  });
});
