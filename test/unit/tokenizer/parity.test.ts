// Id parity of the native tokenizers with @huggingface/tokenizers on a large seeded sample (real
// source, prose, identifiers, unicode edge cases), cold and with a warm memo, for both fixture models.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { describe, expect, it } from 'vitest';
import { createIdBuffer, createLineTokenizer, type LineTokenizer } from '../../../src/model/tokenizer/index.js';
import { hasShared, model2vecFixtures, repoRoot } from '../../helpers/shared.js';
import { buildSample } from './sample-lines.js';

const SAMPLE_LINES = 60_000;

export function libraryIds(json: unknown, lines: string[]): number[][] {
  const lib = new Tokenizer(json as never, {});
  return lines.map((l) => lib.encode(l, { add_special_tokens: false }).ids);
}

/** A readable description of the first line where `tok` disagrees with `expected`, or null. */
export function firstMismatch(tok: LineTokenizer, lines: string[], expected: number[][]): string | null {
  for (let i = 0; i < lines.length; i++) {
    const got = Array.from(tok.encode(lines[i]));
    const want = expected[i];
    if (got.length === want.length && got.every((v, k) => v === want[k])) continue;
    let k = 0;
    while (k < got.length && got[k] === want[k]) k++;
    const show = (s: string) => JSON.stringify(s.length > 300 ? `${s.slice(0, 300)}…(${s.length} chars)` : s);
    return [
      `line ${i} ${show(lines[i])} (${tok.kind})`,
      `  first difference at id #${k}`,
      `  expected ${JSON.stringify(want.slice(Math.max(0, k - 3), k + 8))}`,
      `  got      ${JSON.stringify(got.slice(Math.max(0, k - 3), k + 8))}`,
    ].join('\n');
  }
  return null;
}

/** Encodes every line into one shared buffer, as the pipeline does, and splits the result again. */
function viaBuffer(tok: LineTokenizer, lines: string[]): number[][] {
  const buf = createIdBuffer(64);
  const starts = [0];
  for (const l of lines) {
    const n = tok.encodeInto(l, buf);
    starts.push(starts[starts.length - 1] + n);
  }
  expect(buf.length).toBe(starts[starts.length - 1]);
  return lines.map((_, i) => Array.from(buf.ids.subarray(starts[i], starts[i + 1])));
}

const fixtures = [
  { name: 'WordPiece (potion-base-8M tokenizer)', dir: 'test-model-float32', kind: 'wordpiece-native' },
  { name: 'Unigram + Metaspace (vocab-quantized)', dir: 'test-model-vocab-quantized', kind: 'unigram-native' },
];

describe.skipIf(!hasShared)('tokenizer parity with @huggingface/tokenizers', () => {
  const sample = hasShared ? buildSample({ seed: 20240611, minLines: SAMPLE_LINES, sourceRoot: path.join(repoRoot, 'node_modules') }) : [];

  it('builds a large, varied sample', () => {
    expect(sample.length).toBeGreaterThanOrEqual(50_000);
    expect(sample.some((l) => l.length > 10_000)).toBe(true);
    expect(sample.some((l) => /[^\x00-\x7f]/.test(l))).toBe(true);
  });

  for (const f of fixtures) {
    describe(f.name, () => {
      const json = hasShared ? JSON.parse(readFileSync(path.join(model2vecFixtures, f.dir, 'tokenizer.json'), 'utf8')) : null;
      const expected = hasShared ? libraryIds(json, sample) : [];

      it(`uses the ${f.kind} path`, () => {
        expect(createLineTokenizer(json).kind).toBe(f.kind);
      });

      it('gives identical ids on every line, cold and with a warm memo', () => {
        const tok = createLineTokenizer(json);
        expect(firstMismatch(tok, sample, expected)).toBeNull();
        expect(firstMismatch(tok, sample, expected)).toBeNull();
        // Reverse order: memo entries reached in a different order, evictions at other points.
        const rev = [...sample].reverse();
        expect(firstMismatch(tok, rev, [...expected].reverse())).toBeNull();
      });

      it('appends the same ids through encodeInto with one growing buffer', () => {
        const tok = createLineTokenizer(json);
        const got = viaBuffer(tok, sample);
        const bad = got.findIndex((ids, i) => ids.length !== expected[i].length || ids.some((v, k) => v !== expected[i][k]));
        expect(bad).toBe(-1);
      });

      it('matches the library-backed fallback (library-memo) too', () => {
        const tok = createLineTokenizer(json, { native: false });
        expect(tok.kind).toMatch(/^library/);
        expect(firstMismatch(tok, sample.slice(0, 5_000), expected.slice(0, 5_000))).toBeNull();
      });
    });
  }
});
