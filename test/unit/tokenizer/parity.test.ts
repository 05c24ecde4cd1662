// Id parity of the native tokenizers with @huggingface/tokenizers on a large seeded sample (real
// source, prose, identifiers, unicode edge cases), cold and with a warm memo, for both fixture models.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  compileLineTokenizer, createCompiledLineTokenizer, createIdBuffer, createLineTokenizer, decodeCompiledTokenizer, type LineTokenizer,
} from '../../../src/model/tokenizer/index.js';
import { hasShared, repoRoot } from '../../helpers/shared.js';
import { firstMismatch, libraryIds, loadFixtureTokenizer } from './parity-helpers.js';
import { buildSample } from './sample-lines.js';

const SAMPLE_LINES = 60_000;

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
      const json = hasShared ? loadFixtureTokenizer(f.dir) : null;
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

      it('stays identical with tiny memos (constant eviction)', () => {
        const tok = createLineTokenizer(json, { memoEntries: 64 });
        expect(firstMismatch(tok, sample, expected)).toBeNull();
      });

      it('appends the same ids through encodeInto with one growing buffer', () => {
        const tok = createLineTokenizer(json);
        const got = viaBuffer(tok, sample);
        const bad = got.findIndex((ids, i) => ids.length !== expected[i].length || ids.some((v, k) => v !== expected[i][k]));
        expect(bad).toBe(-1);
      });

      it('gives the same ids when compiled to bytes and loaded back (the tokenizer cache)', () => {
        const bytes = compileLineTokenizer(json);
        if (f.kind !== 'wordpiece-native') { expect(bytes).toBeNull(); return; }
        // Loaded from an unaligned copy too: the decoder must not depend on the buffer's offset.
        const shifted = new Uint8Array(bytes!.length + 1).subarray(1);
        shifted.set(bytes!);
        for (const b of [bytes!, shifted]) {
          const tok = createCompiledLineTokenizer(decodeCompiledTokenizer(b));
          expect(tok.kind).toBe('wordpiece-native');
          expect(firstMismatch(tok, sample, expected)).toBeNull();
        }
      });

      it('matches the library-backed fallback (library-memo) too', () => {
        const tok = createLineTokenizer(json, { native: false });
        expect(tok.kind).toMatch(/^library/);
        expect(firstMismatch(tok, sample.slice(0, 5_000), expected.slice(0, 5_000))).toBeNull();
      });
    });
  }
});
