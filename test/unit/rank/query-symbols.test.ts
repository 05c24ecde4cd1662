// Whether a query names an identifier (rank/plan.ts namesIdentifier, the symbol forms of buildRankPlan): the
// same answers as the forms before trust47, in time linear in the query.
import { describe, expect, it } from 'vitest';
import { buildRankPlan, namesIdentifier } from '../../../src/rank/plan.js';
import { parseLexicon } from '../../../src/rank/lexical/lexicon.js';

// The forms as they were: two runs of overlapping classes side by side (`[A-Za-z0-9]*[A-Z_]`).
const OLD_SYMBOL_QUERY = /^(?:[A-Za-z_][A-Za-z0-9_]*(?:(?:::|\\|->|\.)[A-Za-z_][A-Za-z0-9_]*)+|_[A-Za-z0-9_]*|[A-Za-z][A-Za-z0-9]*[A-Z_][A-Za-z0-9_]*|[A-Z][A-Za-z0-9]*)$/;
const OLD_EMBEDDED = /\b(?:[A-Z][a-z][a-zA-Z0-9]*[A-Z][a-zA-Z0-9]*|[a-z][a-zA-Z0-9]*[A-Z][a-zA-Z0-9]+)\b/;
const SNAKE = /\b[a-z][a-z0-9]*_[a-z0-9_]*[a-z0-9]\b/;
const oldNamesIdentifier = (q: string) => { const t = q.trim(); return OLD_SYMBOL_QUERY.test(t) || OLD_EMBEDDED.test(t) || SNAKE.test(t); };

describe('query symbol forms (trust47)', () => {
  it('answer as the overlapping forms did, on 200,000 random queries of identifier characters', () => {
    const alphabet = ['a', 'b', 'z', 'A', 'B', 'Z', '0', '9', '_', ':', '.', '-', '>', '\\', ' ', '!'];
    let seed = 47;
    const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    let named = 0;
    for (let i = 0; i < 200_000; i++) {
      let q = '';
      for (let n = Math.floor(next() * 12); n > 0; n--) q += alphabet[Math.floor(next() * alphabet.length)];
      const want = oldNamesIdentifier(q);
      if (want) named++;
      if (namesIdentifier(q) !== want) expect({ q, named: namesIdentifier(q) }).toEqual({ q, named: want });
    }
    expect(named).toBeGreaterThan(20_000); // the sample holds identifiers of every form, not only misses
  });

  it('a query of 100,000 capitals or camel humps (MCP bound) is planned at once', () => {
    const lexicon = parseLexicon('#docs\t1000\nthe\t990\n');
    const started = performance.now();
    for (const q of ['A'.repeat(100_000) + '!', 'Aa'.repeat(50_000) + '_', 'aA'.repeat(50_000) + '_']) {
      namesIdentifier(q);
      buildRankPlan(q, 'hybrid', lexicon);
    }
    // Before trust47: 52 s for the three (load 7); namesIdentifier alone 24 s on the first.
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
