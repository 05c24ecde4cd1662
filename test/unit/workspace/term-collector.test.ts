// The collector of a build's terms: what it counts into the triples, and what it lets go once the
// chunks are all in.
import { describe, expect, it } from 'vitest';
import { Postings } from '../../../src/workspace/snapshot/postings.js';
import { COUNT_MAX } from '../../../src/workspace/snapshot/key-triples.js';
import { TermCollector } from '../../../src/workspace/snapshot/term-collector.js';
import { chunkFeatures } from '../../../src/workspace/snapshot/chunk-features.js';

describe('TermCollector', () => {
  it('merges into postings whose term counts saturate and whose defined names keep their places', () => {
    const collector = new TermCollector();
    const line = Array.from({ length: 70_000 }, () => 'retryUpload').join(' ');
    collector.add(0, chunkFeatures([line], collector.identifiers).identifiers);
    collector.addDefs(0, ['retryUpload']);
    const lower = Postings.empty().merge(null, collector.lower, Int32Array.from([0]));
    expect([...lower.find('retryupload')!.count]).toEqual([COUNT_MAX]);
    expect(lower.find('retryupload')!.count).toBeInstanceOf(Uint16Array);
    const defs = Postings.empty().merge(null, collector.defLower, Int32Array.from([0]));
    expect(defs.find('retryupload')!.count).toBeInstanceOf(Int32Array);
  });
});

describe('TermCollector.settle', () => {
  it('drops the identifier table; chunks added after it count their terms as before', () => {
    const lines = ['retryUpload(uploadQueue); retryUpload()'];
    const once = new TermCollector();
    once.add(0, chunkFeatures(lines, once.identifiers).identifiers);
    once.add(1, chunkFeatures(lines, once.identifiers).identifiers);
    const forgot = new TermCollector();
    forgot.add(0, chunkFeatures(lines, forgot.identifiers).identifiers);
    const table = forgot.identifiers;
    forgot.settle();
    expect(forgot.identifiers).not.toBe(table);
    forgot.add(1, chunkFeatures(lines, forgot.identifiers).identifiers);
    const dump = (t: TermCollector) => (['lower', 'stem'] as const).map((kind) => {
      const p = Postings.empty().merge(null, t[kind], Int32Array.from([0, 1]));
      return Array.from({ length: p.keys.length }, (_, i) => p.keys.at(i)!).map((k) => [k, [...p.find(k)!.chunk], [...p.find(k)!.count]]);
    });
    expect(dump(forgot)).toEqual(dump(once));
  });
});
