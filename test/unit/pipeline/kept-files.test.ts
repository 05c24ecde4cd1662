// A scan's use of what a resident build pooled (src/pipeline/kept-files.ts): a file is keyed only when the
// bytes read hash to the content pooled, and a batch's keyed chunks are cut where chunk scoring cuts them.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashedFirst, keptSumsOf, type KeptFiles } from '../../../src/pipeline/kept-files.js';
import { WHOLE_READ_BYTES } from '../../../src/sources/source.js';
import type { Batch } from '../../../src/text/batch-packer.js';

const sha = (parts: Uint8Array[]) => { const h = createHash('sha256'); for (const p of parts) h.update(p); return h.digest('hex'); };
async function* from(parts: Uint8Array[]) { yield* parts; }
async function read(parts: Uint8Array[], sha256: string): Promise<{ same: boolean; sameBeforeFirst: boolean; out: Uint8Array[] }> {
  let same = false;
  let sameBeforeFirst = false;
  const out: Uint8Array[] = [];
  for await (const p of hashedFirst(from(parts), sha256, () => { same = true; })) {
    if (out.length === 0) sameBeforeFirst = same;
    out.push(p);
  }
  return { same, sameBeforeFirst, out };
}

describe('hashedFirst', () => {
  const parts = [Buffer.from('export const a = 1;\n'), Buffer.from('export const b = 2;\n')];
  it('says the bytes are the pooled ones before it passes the first on, and passes them all on unchanged', async () => {
    const r = await read(parts, sha(parts));
    expect(r).toEqual({ same: true, sameBeforeFirst: true, out: parts });
  });
  it('keys nothing when one byte differs (a file changed since the build read it)', async () => {
    const changed = [parts[0], Buffer.from('export const b = 3;\n')];
    expect(await read(changed, sha(parts))).toEqual({ same: false, sameBeforeFirst: false, out: changed });
  });
  it('keys nothing past WHOLE_READ_BYTES, and passes every byte on', async () => {
    const big = [new Uint8Array(WHOLE_READ_BYTES), new Uint8Array(10), new Uint8Array(5)];
    const r = await read(big, sha(big));
    expect([r.same, r.out.map((p) => p.length)]).toEqual([false, [WHOLE_READ_BYTES, 10, 5]]);
  });
});

describe('keptSumsOf', () => {
  it('looks up each chunk of a keyed segment\'s scored lines (cut at multiples of chunkLines), in order, and skips unkeyed segments', () => {
    const asked: string[] = [];
    const kept: KeptFiles = {
      stateOf: () => undefined,
      sumOf: (key) => { asked.push(key); return key.endsWith(':48:48') ? undefined : Float64Array.of(asked.length, -asked.length); },
    };
    // File lines 40..107 scored (context before and after), then an unkeyed file's segment.
    const seg = (key: string | undefined, firstLine: number, from: number, scoreFrom: number, scoreTo: number, to: number) =>
      ({ piece: { key }, fileIndex: 0, firstLine, from, to, scoreFrom, scoreTo });
    const batch = { segments: [seg('S', 37, 0, 3, 71, 74), seg(undefined, 0, 74, 74, 90, 90)] } as unknown as Batch;
    const r = keptSumsOf(batch, kept, 48, false)!;
    expect(asked).toEqual(['cS:40:8', 'cS:48:48', 'cS:96:12']);
    // The request names the keyed range by its index (chunk-scoring.ts makes the same keys of rangeKeys).
    expect([r.rangeKeys, r.keys]).toEqual([['0', ''], ['c0:40:8', 'c0:96:12']]);
    expect([...r.sums]).toEqual([1, -1, 3, -3]);
    expect(keptSumsOf(batch, kept, 48, true)!.keys).toEqual(['i0:40:8', 'i0:96:12']);
  });
});

describe('hashedFirst closes its source', () => {
  /** A source that says whether it was closed (as the fs source closes its descriptor in a finally). */
  function source(parts: Uint8Array[], failAt = -1) {
    const state = { closed: false };
    async function* gen() {
      try {
        for (let i = 0; i < parts.length; i++) {
          if (i === failAt) throw new Error('the connection was reset');
          yield parts[i];
        }
      } finally { state.closed = true; }
    }
    return { state, raw: gen() };
  }
  const small = [Buffer.from('a\n'), Buffer.from('b\n')];
  const big = Array.from({ length: 3 }, () => new Uint8Array(WHOLE_READ_BYTES / 2 + 1));
  it('when its reader stops early, for a file hashed whole and for one past WHOLE_READ_BYTES', async () => {
    for (const parts of [small, big]) {
      const { state, raw } = source([...parts, ...parts]);
      for await (const _ of hashedFirst(raw, sha(parts), () => {})) break;
      expect(state.closed).toBe(true);
    }
  });
  it('on a read error, after passing on the bytes read before it (as a plain read would)', async () => {
    const { state, raw } = source([...small, Buffer.from('c\n')], 2);
    const out: Uint8Array[] = [];
    await expect((async () => { for await (const p of hashedFirst(raw, sha(small), () => {})) out.push(p); })()).rejects.toThrow('reset');
    expect(out).toEqual(small);
    expect(state.closed).toBe(true);
  });
});
