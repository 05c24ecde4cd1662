// A shard's roots are the job queue's word (trust47): a root this worker cannot see hides its entries, and each
// entry was tested against each such root by `/\/+$/`, which on a root whose run of slashes does not end it tries
// every slash of the run to its end: 50 ms a test for a root of 4,096 characters (the job check's bound).
import { describe, expect, it } from 'vitest';
import { createShardSource } from '../../../src/cluster/shard-source.js';
import type { Source } from '../../../src/sources/source.js';

const none: Source = { async *list() { /* the shard lists its entries itself */ }, read: async () => new Uint8Array() };

describe('a shard source over hostile roots', () => {
  it('20 hidden roots of 4,000 slashes and 20 entries list at once (it took 10 s: 50 ms each pair)', async () => {
    const roots = Array.from({ length: 20 }, (_, i) => `/not-here-${i}${'/'.repeat(4_000)}x`);
    const entries = Array.from({ length: 20 }, (_, i) => ({ s: 0, path: `/elsewhere/f${i}.txt`, size: 1 }));
    const inside = { s: 0, path: `${roots[3]}/hidden.txt`, size: 1 };
    const src = createShardSource({ entries: [...entries, inside], sources: [none], roots, cwd: '/', host: 'w1' });
    const started = performance.now();
    const listed: string[] = [];
    for await (const e of src.list()) listed.push(e.path);
    expect(performance.now() - started).toBeLessThan(1_000);
    // The hidden root's own entry is left out (with one warning a root), the others listed.
    expect(listed).toEqual(entries.map((e) => e.path));
    expect(src.drainWarnings!().filter((w) => w.code === 'PATH_NOT_FOUND')).toHaveLength(20);
  });
});
