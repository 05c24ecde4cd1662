// A long query keeps only its most distinctive terms (issue 30: a pasted file, find_related's chunk),
// by count in the query x idf from the shipped lexicon, as Lucene's MoreLikeThis does; a query of at
// most RANK_DEFAULTS.maxQueryTerms terms plans exactly as with no cap at all.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bundledLexicon } from '../../../src/rank/lexical/lexicon.js';
import { identifierParts, identifiers, isStopword, stem } from '../../../src/rank/lexical/terms.js';
import { fold } from '../../../src/rank/lexical/words.js';
import { buildRankPlan, RANK_DEFAULTS } from '../../../src/rank/plan.js';

const N = RANK_DEFAULTS.maxQueryTerms;
const source = (f: string) => readFileSync(new URL(`../../../src/${f}`, import.meta.url), 'utf8');
const uncapped = (q: string, mode: 'hybrid' | 'lexical' = 'hybrid') => buildRankPlan(q, mode, bundledLexicon(), 1, Infinity);

/** Each term's count in the query: the occurrences of the identifiers that give it (the plan's rules, written out). */
function queryCounts(q: string): Map<string, number> {
  const tf = new Map<string, number>();
  for (const ident of identifiers(q)) {
    const parts = identifierParts(ident);
    const keys = new Set<string>();
    if (parts.length > 1) keys.add(fold(ident));
    for (const p of parts) if (!(parts.length === 1 && isStopword(p)) && !(p.length < 2 && parts.length > 1)) keys.add(stem(p));
    for (const k of keys) tf.set(k, (tf.get(k) ?? 0) + 1);
  }
  return tf;
}

describe('query terms', () => {
  it('a query of at most maxQueryTerms terms plans exactly as with no cap (every question ranks as before)', () => {
    const questions = [
      'where do we retry failed uploads', 'SimgrepError', 'parseConfig in a sentence', 'retry_failed_upload',
      'ZodDefault and ZodCatch schema wrappers that supply fallback values on parse failure',
      'tests for retrying failed uploads', 'which tsv lists the github repos', 'Повторная попытка загрузки файла',
      // Exactly maxQueryTerms distinct words: the most a query keeps whole.
      Array.from({ length: N }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}x`).join(' '),
    ];
    for (const q of questions) {
      for (const mode of ['hybrid', 'lexical'] as const) {
        const plan = buildRankPlan(q, mode, bundledLexicon());
        expect(plan.terms.length, q).toBeLessThanOrEqual(N);
        expect(plan, q).toEqual(uncapped(q, mode));
      }
    }
    expect(buildRankPlan(questions.at(-1)!, 'hybrid', bundledLexicon()).terms.length).toBe(N);
  });

  it('a pasted file keeps the maxQueryTerms terms of greatest count x idf, in the order the query has them', () => {
    for (const file of ['rank/topk.ts', 'rank/related.ts', 'searcher.ts']) {
      const text = source(file);
      const all = uncapped(text);
      const plan = buildRankPlan(text, 'hybrid', bundledLexicon());
      expect(all.terms.length, file).toBeGreaterThan(N);
      expect(plan.terms.length, file).toBe(N);
      // A subsequence of every term, in the same order, with the same idf.
      const at = plan.terms.map((t) => all.terms.findIndex((u) => u.key === t.key && u.whole === t.whole));
      expect(at.every((i, j) => i >= 0 && (j === 0 || i > at[j - 1])), file).toBe(true);
      expect(plan.terms).toEqual(at.map((i) => all.terms[i]));
      // None left out weighs more than one kept.
      const tf = queryCounts(text);
      const weight = (t: { key: string; idf: number }) => tf.get(t.key)! * t.idf;
      const least = Math.min(...plan.terms.map(weight));
      const kept = new Set(plan.terms.map((t) => t.key));
      for (const t of all.terms) if (!kept.has(t.key) && t.key.length > 1) expect(weight(t), t.key).toBeLessThanOrEqual(least);
      expect(plan.idfSum).toBeCloseTo(plan.terms.reduce((s, t) => s + t.idf, 0), 12);
    }
  });

  it('the same long query keeps the same terms every time, and a repeated word counts for more', () => {
    const text = source('rank/topk.ts');
    expect(buildRankPlan(`${text} `, 'hybrid', bundledLexicon()).terms).toEqual(buildRankPlan(text, 'hybrid', bundledLexicon()).terms);
    // A common word said many times outweighs a rare one said once, as in MoreLikeThis.
    const filler = Array.from({ length: 40 }, (_, i) => `zzfill${i}q`).join(' ');
    const plan = buildRankPlan(`${filler} ${'upload '.repeat(200)}`, 'hybrid', bundledLexicon());
    expect(plan.terms.map((t) => t.key)).toContain('upload');
  });

  it('a long query leaves one-character names out (a local `w` is in every line), a short one keeps them', () => {
    const text = `${source('rank/topk.ts')}\n${'w.write(x); '.repeat(300)}`;
    const all = uncapped(text).terms.map((t) => t.key);
    expect(all).toEqual(expect.arrayContaining(['w', 'x']));
    const tf = queryCounts(text);
    const weightOf = (key: string) => tf.get(key)! * uncapped(text).terms.find((t) => t.key === key)!.idf;
    const plan = buildRankPlan(text, 'hybrid', bundledLexicon());
    // They would have been kept on count x idf alone.
    expect(weightOf('w')).toBeGreaterThan(Math.min(...plan.terms.map((t) => tf.get(t.key)! * t.idf)));
    expect(plan.terms.map((t) => t.key)).not.toContain('w');
    expect(plan.terms.every((t) => t.key.length > 1)).toBe(true);
    expect(buildRankPlan('draw the x axis', 'hybrid', bundledLexicon()).terms.map((t) => t.key)).toContain('x');
  });

  it('symbols and path words of a long query are those of the identifiers whose terms it kept', () => {
    const text = source('rank/related.ts');
    const all = uncapped(text);
    const plan = buildRankPlan(text, 'hybrid', bundledLexicon());
    const keys = new Set(plan.terms.map((t) => t.key));
    expect(plan.symbols.length).toBeGreaterThan(0);
    expect(plan.symbols.length).toBeLessThan(all.symbols.length);
    for (const s of plan.symbols) expect(keys.has(s.name), s.name).toBe(true);
    expect(plan.pathWords.length).toBeLessThan(all.pathWords.length);
    for (const w of plan.pathWords) expect(keys.has(w) || keys.has(stem(w)), w).toBe(true);
    expect(all.pathWords).toEqual(expect.arrayContaining(plan.pathWords));
  });
});
