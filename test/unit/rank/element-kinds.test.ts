// The hot loops' lists are of one kind to V8 (branch jit35): V8 compiles a loop for the shapes
// ("maps": an array's elements kind among them) it has seen, and drops the code and compiles it again at
// the first value of another (`node --trace-deopt`: "wrong map"), in every thread that runs it. The
// first answer from nothing paid ~0.3-0.5 s of its compiler threads' CPU for these. V8's own checks
// (%HaveSameMap, %IsSmi) read the shapes here.
import { setFlagsFromString } from 'node:v8';
import { afterAll, describe, expect, it } from 'vitest';
import { queryGrams } from '../../../src/rank/lexical/grams.js';
import { bundledLexicon } from '../../../src/rank/lexical/lexicon.js';
import { partStems } from '../../../src/rank/lexical/terms.js';
import { buildRankPlan } from '../../../src/rank/plan.js';
import { queryTerms } from '../../../src/rank/query-terms.js';
import { gramIndexOf, linesTerms, proseTermCount } from '../../../src/rank/prose.js';
import { ProseCounter } from '../../../src/rank/prose-counter.js';

setFlagsFromString('--allow-natives-syntax');
// Parsed after the flag is set: natives syntax is read when a function is compiled.
const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
const isSmi = new Function('x', 'return %IsSmi(x)') as (x: unknown) => boolean;
const optimizeNext = new Function('f', '%PrepareFunctionForOptimization(f); %OptimizeFunctionOnNextCall(f)') as (f: unknown) => void;
const turbofan = new Function('f', 'return %ActiveTierIsTurbofan(f)') as (f: unknown) => boolean;
// Ends V8's compiles in flight (a function its own tiering sent to a compiler thread is not compiled again on request).
const finishCompiles = new Function('%FinalizeOptimization()') as () => void;
// vitest isolates each file in its own process; without isolation the flag would reach later files.
afterAll(() => setFlagsFromString('--no-allow-natives-syntax'));

describe('one kind of list for the hot loops', () => {
  it("gives each gram's index in a plan's grams list as a small integer, whatever its key", () => {
    // Three-letter grams' keys pass 2^31 (gramKey: 65536 per letter): `new Map([[key, i]])` boxed every i.
    const list = queryGrams('where is the request handler registered in the castle');
    expect(list.length).toBeGreaterThan(10);
    const index = gramIndexOf(list);
    expect([...index.values()]).toEqual(list.map((_, i) => i));
    expect([...index.values()].filter((i) => !isSmi(i))).toEqual([]);
  });

  it("gives every identifier's part stems as lists of one kind: none, one, several, and once compiled", () => {
    const idents = ['requestHandler', '_', 'x', '$', 'get_user_name', '__init__', 'HTTPServer', '___'];
    const lists = idents.map(partStems);
    expect(lists.map((l) => l.length)).toEqual([2, 0, 1, 0, 3, 1, 2, 0]);
    expect(lists.filter((l) => !sameMap(l, lists[0])).map((l) => JSON.stringify(l))).toEqual([]);
    // Warmed on every case (names with no part too), so the compiled code has seen them all and stays.
    for (let i = 0; i < 50; i++) idents.forEach((s) => partStems(s + (s.length > 3 ? i : '')));
    optimizeNext(partStems);
    const compiled = idents.map(partStems);
    expect(turbofan(partStems)).toBe(true);
    expect(compiled).toEqual(lists);
    expect(compiled.filter((l) => !sameMap(l, lists[0])).map((l) => JSON.stringify(l))).toEqual([]);
  });

  it("makes every plan's BM25 settings, prose grams and numbers of one shape, with grams and numbers or none", () => {
    const lexicon = bundledLexicon();
    // Grams and numbers; neither (its words are stopwords); a pasted block of 80 names (cut: no grams, no
    // numbers); then plans enough for V8's inline caches to take over their making from its runtime.
    const pasted = Array.from({ length: 80 }, (_, i) => `name${String.fromCharCode(97 + (i % 26), 97 + Math.floor(i / 26))}Value`).join(' ');
    const queries = ['where is the request handler registered in 1850', 'how is it', pasted, ...Array.from({ length: 20 }, (_, i) => `handlers of step ${i}`)];
    const plans = queries.map((q) => buildRankPlan(q, 'hybrid', lexicon));
    const prose = plans.map((p) => p.prose!);
    expect(prose.slice(0, 4).map((p) => p.grams.length > 0)).toEqual([true, false, false, true]);
    expect(prose.slice(0, 4).map((p) => p.numbers.length > 0)).toEqual([true, false, false, true]);
    expect(plans.filter((p) => !sameMap(p.bm25, plans[0].bm25)).length).toBe(0);
    expect(prose.filter((p) => !sameMap(p.grams, prose[0].grams)).map((p) => p.grams)).toEqual([]);
    expect(prose.filter((p) => !sameMap(p.numbers, prose[0].numbers)).map((p) => p.numbers)).toEqual([]);
    expect(plans[0].bm25).toEqual({ k1: 1.5, b: 0.75, avgdl: 220, tokensPerChar: 0.25 });
  });

  it("gives a piece's lines' terms as a list of the prose counter's rows' kind, before and after V8 compiles it", () => {
    const plan = buildRankPlan('where is the request handler registered', 'hybrid', bundledLexicon());
    const tf = new Float64Array(proseTermCount(plan));
    const touched: number[] = [];
    const lines = ['The request handler', '', 'is registered here.', 'Nothing else.'];
    const counter = new ProseCounter(plan);
    counter.add(lines);
    const rows = (counter as unknown as { rows: unknown[] }).rows;
    const before = linesTerms(lines, plan, tf, touched);
    for (let i = 0; i < 200; i++) linesTerms(lines, plan, tf, touched);
    optimizeNext(linesTerms);
    const after = linesTerms(lines, plan, tf, touched);
    expect(turbofan(linesTerms)).toBe(true);
    expect(after).toEqual(before);
    expect(before[0]).not.toBeNull();
    expect([sameMap(before, rows), sameMap(after, rows)]).toEqual([true, true]);
  });
  it("gives every plan's terms, symbols and path words as lists of one kind, with or without any, and once V8 compiles the query's terms", () => {
    // V8's compiled map() makes a "holey" list where its interpreter makes a packed one: once queryTerms was
    // compiled (~170 warm searches in), the next plan's terms dropped the compiled code of the 16 functions
    // that loop over a plan's terms (selectCandidates, spanTerms, chunkStats, ...: "wrong map", deopt43).
    const lexicon = bundledLexicon();
    const queries = ['where is the requestHandler registered', 'how is it', 'RequestHandler', 'where is the request handler registered'];
    const plans = [...queries.map((q) => buildRankPlan(q, 'hybrid', lexicon)), buildRankPlan('anything', 'semantic', lexicon)];
    expect(plans.map((p) => [p.terms.length > 0, p.symbols.length > 0, p.pathWords.length > 0])).toEqual([
      [true, true, true], [false, false, false], [true, true, false], [true, false, true], [false, false, false],
    ]);
    const odd = (pick: (p: (typeof plans)[0]) => object) => plans.map((p, i) => (sameMap(pick(p), pick(plans[0])) ? -1 : i)).filter((i) => i >= 0);
    expect([odd((p) => p.terms), odd((p) => p.symbols), odd((p) => p.pathWords)]).toEqual([[], [], []]);
    const words = ['request', 'handler', 'registered', 'config', 'file', 'parse', 'route', 'table', 'cache', 'store'];
    const ask = (i: number) => queryTerms(`${words[i % 10]}Value ${words[(i * 3) % 10]} step${i} ${words[(i * 7 + 1) % 10]}`, lexicon, 24);
    const before = ask(0).terms;
    for (let r = 0; r < 2; r++) for (let i = 0; i < 100; i++) ask(i);
    finishCompiles();
    optimizeNext(queryTerms);
    const after = ask(0).terms;
    expect(turbofan(queryTerms)).toBe(true);
    expect(after).toEqual(before);
    expect([sameMap(before, plans[0].terms), sameMap(after, plans[0].terms)]).toEqual([true, true]);
  });
});
