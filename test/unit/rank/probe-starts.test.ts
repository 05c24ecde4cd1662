// The identifiers holding one of a plan's probes, found in one pass (issue 30, branch related31: a pasted
// chunk's 24 probes, where the scored ranges were searched once per probe): the same starts as a search
// per probe finds, whatever the text (case, leading digits, underscores, overlapping and repeated probes,
// identifiers at the ends, line ends).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { probeStarts, probesPattern } from '../../../src/rank/probe-starts.js';
import { isDigit, isIdentChar } from '../../../src/rank/term-index.js';

/** The starts a search per probe finds (chunk-scorer.ts identStarts before: each probe's places, each one's identifier), distinct and ascending. */
function perProbe(text: string, lower: string, probes: string[]): number[] | null {
  const spans = new Set<number>();
  for (const probe of probes) {
    for (let p = lower.indexOf(probe); p >= 0; p = lower.indexOf(probe, p + probe.length)) {
      let s = p;
      while (s > 0 && isIdentChar(text.charCodeAt(s - 1))) s--;
      while (s < text.length && isDigit(text.charCodeAt(s))) s++;
      spans.add(s);
    }
  }
  return spans.size > 0 ? [...spans].sort((a, b) => a - b) : null;
}

describe('probeStarts', () => {
  const word = fc.constantFrom('retry', 'Retries', 'RETRY', 'aaa', 'aAaa', 'upload', 'retryUpload', '_fail', '9retry', '8_retry', '2025', '20x25', 'x', 'up', 'a_b', '');
  const sep = fc.constantFrom(' ', '.', '(', '', '\n', '\t', '//', '\r', '-');
  const text = fc.array(fc.tuple(word, sep), { maxLength: 12 }).map((ws) => ws.map(([w, s]) => w + s).join(''));
  const probe = fc.constantFrom('retr', 'retry', 'aa', 'aaa', 'a', 'upload', 'fail', '_f', '_', '20', '2025', '5', 'x', 'pup', 'a_b', 'ryu');
  it('finds the identifiers a search per probe finds, each once, ascending', () => {
    fc.assert(fc.property(fc.uniqueArray(probe, { minLength: 1, maxLength: 8 }), fc.array(text, { minLength: 1, maxLength: 4 }), (probes, texts) => {
      const pattern = probesPattern(probes);
      expect(pattern).not.toBeNull();
      // The same pattern for every text, one after another (its place is reset each time).
      for (const t of texts) expect(probeStarts(t, t.toLowerCase(), pattern!), `${JSON.stringify(probes)} in ${JSON.stringify(t)}`).toEqual(perProbe(t, t.toLowerCase(), probes));
    }), { numRuns: 1000 });
  });

  it('is kept per probes array, and left to the search per probe where a probe is not an identifier', () => {
    const probes = ['retr', 'upload'];
    expect(probesPattern(probes)).toBe(probesPattern(probes));
    for (const odd of [['retr', 'a.b'], ['retr', ''], ['Retr'], []]) expect(probesPattern(odd), JSON.stringify(odd)).toBeNull();
    expect(probeStarts('x = 2025retryUpload(9retry) + retr_x', 'x = 2025retryupload(9retry) + retr_x', probesPattern(probes)!)).toEqual([8, 21, 30]);
  });

  it('leaves out a probe no ASCII text holds (a word with an accent or of another script), not the pass', () => {
    const t = 'naive cafe = retryUpload(grosse) // Retr';
    for (const probes of [['naï', 'retr'], ['grös', 'upload', '重试'], ['café']]) {
      const pattern = probesPattern(probes);
      expect(pattern, JSON.stringify(probes)).not.toBeNull();
      expect(probeStarts(t, t.toLowerCase(), pattern!), JSON.stringify(probes)).toEqual(perProbe(t, t.toLowerCase(), probes));
    }
  });
});
