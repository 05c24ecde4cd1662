// A long query (a pasted file) costs what a short one does (issue 30): a query planned again shares its
// first plan's terms and equals a plan made afresh, and the lexicon's map answers as its text.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bundledLexicon, parseLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan } from '../../../src/rank/plan.js';
import { bundledLexiconPath } from '../../../src/model/default-model.js';

const source = readFileSync(new URL('../../../src/rank/chunk-scorer.ts', import.meta.url), 'utf8');

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

  it('with the share of a plan copied for it is that very plan (a prose source knows its plan by identity)', () => {
    const query = 'retry uploads planned at two shares';
    const whole = buildRankPlan(query, 'hybrid', bundledLexicon(), 1);
    const part = buildRankPlan(query, 'hybrid', bundledLexicon(), 0.5);
    expect(part.terms).toBe(whole.terms);
    expect(buildRankPlan(query, 'hybrid', bundledLexicon(), 0.5)).toBe(part);
    expect(buildRankPlan(query, 'hybrid', bundledLexicon(), 1)).toBe(whole);
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
