// The lists of lines the in-process scorer tokenizes are of one kind to V8 (branch deopt43): its tokenizer's loop,
// compiled for lists of strings, was dropped ("wrong map") at the first list of another kind: flatMap()'s (holey)
// from a warmed chunk's lines, an empty `[]` where every chunk was kept. V8's own check (%HaveSameMap) reads them.
import { setFlagsFromString } from 'node:v8';
import { afterAll, describe, expect, it } from 'vitest';
import { withLineTokens, type BatchChunk } from '../../../src/embed/kept-scoring.js';
import type { ChunkStore, KeptChunk } from '../../../src/embed/kept-chunks.js';
import type { TokenizedBatch } from '../../../src/types.js';

setFlagsFromString('--allow-natives-syntax');
// Parsed after the flag is set: natives syntax is read when a function is compiled.
const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
// vitest isolates each file in its own process; without isolation the flag would reach later files.
afterAll(() => setFlagsFromString('--no-allow-natives-syntax'));

/** A list of strings as the scorer's own texts are made: pushed one by one. */
function pushed(...lines: string[]): string[] {
  const out: string[] = [];
  for (const l of lines) out.push(l);
  return out;
}

describe("the scorer's tokenizer gets lists of one kind", () => {
  it("gives it warmed chunks' lines as a list of the kind of the scorer's other lists, not flatMap()'s", () => {
    const seen: string[][] = [];
    // One token a line: line i's tokens are [i].
    const tokenize = (texts: string[]): TokenizedBatch => {
      seen.push(texts);
      return { ids: Int32Array.from(texts, (_, i) => i), lineStarts: Uint32Array.from({ length: texts.length + 1 }, (_, i) => i) };
    };
    const warmed = (): KeptChunk => ({ ids: null, lineStarts: null, sum: new Float64Array(2) });
    const chunks: BatchChunk[] = [
      { from: 0, to: 2, tokenAt: 0, key: 'a', kept: warmed(), lines: ['the request', 'handler'] },
      { from: 4, to: 5, tokenAt: 0, key: 'b', kept: warmed(), lines: ['registered'] },
    ];
    const store = new Map<string, KeptChunk>();
    const batch = withLineTokens(chunks, { ids: new Int32Array(0), lineStarts: new Uint32Array(1) }, tokenize, store as ChunkStore);
    expect(seen).toEqual([['the request', 'handler', 'registered']]);
    expect(sameMap(seen[0], pushed('a', 'b'))).toBe(true);
    expect([...batch.ids]).toEqual([0, 1, 2]);
    expect([...store.keys()]).toEqual(['a', 'b']);
  });
});
