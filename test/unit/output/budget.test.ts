// The token budget: matches go compact (lowest-ranked first) before any is dropped, the estimate never
// passes the budget, and the cut is reported; the compact form names the enclosing definition.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHARS_PER_TOKEN, fitBudget } from '../../../src/output/budget.js';
import { cutText, quotedQuery } from '../../../src/text/cut.js';
import { compactOf } from '../../../src/output/compact.js';
import { scoreOf } from '../../../src/rank/score.js';
import type { SearchResult } from '../../../src/rank/windows.js';

const size = (s: string) => s.length;

describe('fitBudget', () => {
  it('keeps everything when it fits, and says nothing was cut', () => {
    const r = fitBudget([{ full: 'aaaa', compact: 'a' }, { full: 'bbbb', compact: 'b' }], 10, size, 0);
    expect(r).toEqual({ kept: ['aaaa', 'bbbb'], cut: { max_tokens: 10, used_tokens: 2, compacted: 0, dropped: 0 } });
  });

  it('compacts the lowest-ranked matches before dropping any', () => {
    const items = [{ full: 'x'.repeat(40), compact: 'x' }, { full: 'y'.repeat(40), compact: 'y' }, { full: 'z'.repeat(40), compact: 'z' }];
    // 50 characters: the first stays full, the other two go compact.
    expect(fitBudget(items, 50 / CHARS_PER_TOKEN, size, 0).kept).toEqual(['x'.repeat(40), 'y', 'z']);
    // 2 characters: all compact, the third dropped.
    expect(fitBudget(items, 2 / CHARS_PER_TOKEN, size, 0)).toMatchObject({ kept: ['x', 'y'], cut: { compacted: 2, dropped: 1 } });
  });

  it('asks for an item\'s compact form only when the budget turns it compact (an MCP answer makes them on demand)', () => {
    const asked: number[] = [];
    const items = ['x', 'y', 'z'].map((c, i) => ({ full: c.repeat(40), get compact() { asked.push(i); return c; } }));
    expect(fitBudget(items, 200 / CHARS_PER_TOKEN, size, 0).kept).toHaveLength(3);
    expect(asked).toEqual([]);
    expect(fitBudget(items, 90 / CHARS_PER_TOKEN, size, 0).kept).toEqual(['x'.repeat(40), 'y'.repeat(40), 'z']);
    expect([...new Set(asked)]).toEqual([2]);
  });

  it('cuts the same as working out every compact size first (any items, any budget)', () => {
    // The rule before the compact forms were made on demand, kept here as the reference.
    const eager = (items: { full: string; compact: string }[], maxTokens: number, envelope: number) => {
      const limit = maxTokens * CHARS_PER_TOKEN - envelope;
      const full = items.map((i) => i.full.length);
      const smaller = items.map((i, k) => i.compact.length < full[k]);
      const compact = items.map((i, k) => (smaller[k] ? i.compact.length : full[k]));
      let total = full.reduce((a, b) => a + b, 0);
      let n = items.length;
      let c = n;
      while (total > limit && n > 0) {
        if (c > 0) { c--; total += compact[c] - full[c]; continue; }
        n--;
        total -= compact[n];
      }
      let compacted = 0;
      for (let i = c; i < n; i++) if (smaller[i]) compacted++;
      return { kept: items.slice(0, n).map((it, i) => (i >= c && smaller[i] ? it.compact : it.full)), cut: { max_tokens: maxTokens, used_tokens: Math.ceil((Math.max(0, total) + envelope) / CHARS_PER_TOKEN), compacted, dropped: items.length - n } };
    };
    fc.assert(fc.property(
      fc.array(fc.tuple(fc.string({ maxLength: 400 }), fc.string({ maxLength: 400 })), { maxLength: 30 }),
      fc.integer({ min: 1, max: 3000 }), fc.integer({ min: 0, max: 150 }),
      (pairs, maxTokens, envelope) => {
        const items = pairs.map(([full, compact]) => ({ full, compact }));
        expect(fitBudget(items, maxTokens, size, envelope)).toEqual(eager(items, maxTokens, envelope));
      },
    ));
  });

  it('never passes the budget (any items, any budget, any envelope that fits)', () => {
    fc.assert(fc.property(
      fc.array(fc.tuple(fc.string({ maxLength: 400 }), fc.string({ maxLength: 60 })), { maxLength: 40 }),
      fc.integer({ min: 50, max: 3000 }), fc.integer({ min: 0, max: 150 }),
      (pairs, maxTokens, envelope) => {
        const { kept, cut } = fitBudget(pairs.map(([full, compact]) => ({ full, compact })), maxTokens, size, envelope);
        const used = kept.reduce((s, k) => s + k.length, 0) + envelope;
        expect(used).toBeLessThanOrEqual(maxTokens * CHARS_PER_TOKEN);
        expect(cut.used_tokens).toBeLessThanOrEqual(maxTokens);
        expect(kept.length + cut.dropped).toBe(pairs.length);
      },
    ));
  });
});

describe('compactOf', () => {
  const hunk = (lines: string[], start: number, match: number): SearchResult =>
    ({ filename: 'a.ts', lines, start, end: start + lines.length, match_line: match, distance: 0.5, matches: [] });

  it('gives the match line and the nearest definition above it in the hunk', () => {
    const r = hunk(['export function retryUpload(file) {', '  const n = 3;', '  return backoff(upload, n);', '}'], 10, 12);
    expect(compactOf(r)).toEqual({ line: '  return backoff(upload, n);', signature: 'export function retryUpload(file) {' });
  });

  it('has no signature when the match line is a definition at the left margin or none is shown', () => {
    expect(compactOf(hunk(['class Store {', '  x = 1;'], 0, 0))).toEqual({ line: 'class Store {', signature: null });
    expect(compactOf(hunk(['  a = 1;', '  b = 2;'], 0, 1))).toEqual({ line: '  b = 2;', signature: null });
  });

  it('gives a nested definition its enclosing one (a local in its function, a method in its class)', () => {
    const local = hunk(['export function createHttpClient(o) {', '  const timeoutMs = o.timeoutMs;', '  const retries = o.retries ?? 3;'], 74, 76);
    expect(compactOf(local)).toEqual({ line: '  const retries = o.retries ?? 3;', signature: 'export function createHttpClient(o) {' });
    const method = hunk(['export class Store {', '  items = [];', '  save(item) {', '    this.items.push(item);'], 0, 2);
    expect(compactOf(method)).toEqual({ line: '  save(item) {', signature: 'export class Store {' });
  });

  it('gives no signature to a line in a block that is no definition, nor to a top-level doc comment (agent47)', () => {
    const inIf = hunk(['export function a() {', '  return 1;', '}', 'if (ready) {', '  start();'], 0, 4);
    expect(compactOf(inIf)).toEqual({ line: '  start();', signature: null });
    const doc = hunk(['type RelatedArgs = Narrowing & { line: number };', '', '/**', ' * `onRedacted`: the message told without paths', ' */'], 0, 3);
    expect(compactOf(doc)).toEqual({ line: ' * `onRedacted`: the message told without paths', signature: null });
    const methodDoc = hunk(['export class Store {', '  /**', '   * Saves one item.', '   */'], 0, 2);
    expect(compactOf(methodDoc)).toEqual({ line: '   * Saves one item.', signature: 'export class Store {' });
    const pyIf = hunk(['class A:', '    def f(self):', '        if x:', '            return y'], 0, 3);
    expect(compactOf(pyIf)).toEqual({ line: '            return y', signature: 'def f(self):' });
    const multiLine = hunk(['class Flask(App):', '    def do_teardown_request(', '        self,', '    ) -> None:', '        if exc is _sentinel:', '            exc = None', '        signal.send(self)'], 0, 6);
    expect(compactOf(multiLine)).toEqual({ line: '        signal.send(self)', signature: 'def do_teardown_request(' });
    const tsMultiLine = hunk(['export function save(', '  item: Item,', '): void {', '  items.push(item);'], 0, 3);
    expect(compactOf(tsMultiLine)).toEqual({ line: '  items.push(item);', signature: 'export function save(' });
  });

  it.each([
    ['PHP PSR-12 method', ['class Foo', '{', '    public function bar($a)', '    {', '        return $a;'], 'public function bar($a)'],
    ['C# Allman', ['namespace N', '{', '    public class C', '    {', '        public void Foo()', '        {', '            Bar();'], 'public class C'],
    ['Java Allman', ['public class A', '{', '    void run()', '    {', '        go();'], 'public class A'],
    ['Rust where clause', ['fn foo<T>(x: T) -> T', 'where', '    T: Clone,', '{', '    x.clone()'], 'fn foo<T>(x: T) -> T'],
    ['React props over lines', ['export function Button({', '  label,', '  onClick,', '}: ButtonProps) {', '  return label;'], 'export function Button({'],
  ])('a signature continued by a brace, a where or a closing }: line keeps its definition: %s (mend47a)', (_, lines, signature) => {
    // The definition as the ranker sees definitions (a C# or Java method's line is none: its class is).
    const r = hunk(lines as string[], 0, (lines as string[]).length - 1);
    expect(compactOf(r).signature).toBe(signature);
  });

  it('a block closed above the match is still a block: `} else {` is no continuation (mend47a)', () => {
    const r = hunk(['function f() {', '  if (a) {', '    x();', '  } else {', '    y();'], 0, 4);
    expect(compactOf(r).signature).toBe('function f() {');
    const notDef = hunk(['export function a() {', '  return 1;', '}', 'if (ready) {', '  start();'], 0, 4);
    expect(compactOf(notDef).signature).toBeNull();
  });

  it('searches the file from the match line: a block header in the hunk is not forgotten above it (mend47a)', () => {
    // `run(args)` in the __main__ block: the hunk shows the `if`, so no definition encloses it, not `def helper():` above.
    const file = ['import sys', '', 'def helper():', '    return 1', '', '', 'if __name__ == "__main__":', '    args = sys.argv', '    run(args)', '    print("done")', '    sys.exit(0)'];
    const r = { ...hunk(file.slice(5, 12), 5, 8), filename: 'script.py' };
    expect(compactOf(r, { fileLines: () => file })).toEqual({ line: '    run(args)', signature: null });
    // A hunk inside a function's body still finds the function's line above it in the file.
    const body = ['def outer():', ...Array.from({ length: 10 }, (_, i) => `    x${i} = ${i}`)];
    const inBody = { ...hunk(body.slice(6, 11), 6, 8), filename: 'b.py' };
    expect(compactOf(inBody, { fileLines: () => body })).toEqual({ line: '    x7 = 7', signature: 'def outer():' });
  });
});

describe('scoreOf: one 0..1 scale, higher is better, in every mode', () => {
  it.each([
    ['hybrid', 1 / (1 + 0.5), 0.5], ['semantic', 1 / (1 + 0.7), 0.7], ['semantic', 1 / (1 + 1), 0.875], ['lexical', 1 / (1 + 3), 0.975],
    ['hybrid', 1 / (1 + 2), 0.9583], ['hybrid', 1, 0], ['hybrid', 0, 0.9999], ['line', 0.3, 0.7], ['line', 0, 0.875], ['line', 1.4, 0],
  ] as const)('%s at distance %f scores %f', (mode, distance, score) => {
    expect(scoreOf(distance, mode)).toBeCloseTo(score, 4);
  });

  it('is monotonic: a smaller distance never scores lower', () => {
    fc.assert(fc.property(fc.double({ min: 0.01, max: 1, noNaN: true }), fc.double({ min: 0.01, max: 1, noNaN: true }), (a, b) => {
      if (a <= b) expect(scoreOf(a)).toBeGreaterThanOrEqual(scoreOf(b));
    }));
  });

  it('keeps strong matches apart: relevances past 1 differ in score, and none reaches 1', () => {
    // Before session 47 every relevance of 1 or more scored 1: an identifier's question over zod's
    // package answered 5 hits of 5 at 1.000, with no order or threshold to read among them.
    const at = (relevance: number) => scoreOf(1 / (1 + relevance));
    expect(new Set([1, 1.2, 1.5, 1.77, 2, 3, 5, 10].map(at)).size).toBe(8);
    fc.assert(fc.property(fc.double({ min: 0.76, max: 5, noNaN: true }), fc.double({ min: 0.01, max: 1, noNaN: true }), (r, step) => {
      expect(at(r)).toBeLessThan(1);
      // A relevance higher by 1% or more scores higher, to the 4 decimals it is given in, up to relevance 5 (an identifier's definition is 1.5-2).
      expect(at(r * (1.01 + step))).toBeGreaterThan(at(r));
    }));
    for (const mode of ['hybrid', 'semantic', 'lexical', 'line'] as const) {
      fc.assert(fc.property(fc.double({ min: 0, max: 2, noNaN: true }), (d) => {
        const s = scoreOf(d, mode);
        expect(s >= 0 && s < 1).toBe(true);
      }));
    }
  });
});

describe('cutText (every cut of an answer: the warning note, a compact line, a long hunk)', () => {
  const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
  it('cuts on a code point boundary, never half a surrogate pair, the start or the end kept', () => {
    expect(cutText('abc', 3)).toBe('abc');
    expect(cutText('a😀b', 2)).toBe('a…');
    expect(cutText('a😀b', 3)).toBe('a😀…');
    expect(cutText('a😀b', 2, true)).toBe('…b');
    expect(cutText('a😀b', 3, true)).toBe('…😀b');
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.nat(80), fc.boolean(), (s, max, keepEnd) => {
      const c = cutText(s, max, keepEnd);
      expect(c).not.toMatch(lone);
      expect(c.length).toBeLessThanOrEqual(Math.max(s.length, max + 1));
      if (s.length > max) expect(keepEnd ? s.endsWith(c.slice(1)) : s.startsWith(c.slice(0, -1))).toBe(true);
    }));
  });

  it('a compact line cut inside an emoji stays well-formed', () => {
    const line = `x = "${'😀'.repeat(200)}"`;
    const r = { filename: 'a.ts', lines: [line], start: 0, end: 1, match_line: 0, distance: 0.1 } as unknown as SearchResult;
    expect(compactOf(r).line).not.toMatch(lone);
  });

  it('quotedQuery quotes a long query cut to 60 characters', () => {
    expect(quotedQuery('1964')).toBe('"1964"');
    expect(quotedQuery(`${'x'.repeat(59)}😀 more`)).toBe(`"${'x'.repeat(59)}…"`);
  });
});
