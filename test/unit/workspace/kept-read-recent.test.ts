// A kept document a search reads again is the newest once more: past the bound, the least recently used goes
// first (review of restart42: a hit in keptRead did not refresh its entry, so the engine start's keeping, reading
// the rest, let go of what the agent's searches used first). The order is eviction's only: the bytes are the same.
import { afterEach, expect, it } from 'vitest';
import type { Source } from '../../../src/sources/source.js';
import { keepDocument, keptRead, keptTotal, setKeptBound, KEPT_BYTES, type StatedEntry } from '../../../src/workspace/search/kept-documents.js';

afterEach(() => setKeptBound(KEPT_BYTES));

const DOC = 1000;
const bytesOf = (n: number) => new Uint8Array(DOC).fill(65 + n);
/** A reader that counts its reads (a kept document is not read again). */
function reader(): Source & { reads: string[] } {
  const reads: string[] = [];
  return { reads, async *list() {}, async read(e) { reads.push(e.path); return bytesOf(Number(/(\d+)\.md$/.exec(e.path)![1])); } };
}
const entry = (n: number): StatedEntry => ({ path: `/lru/doc${n}.md`, state: `lru\0doc${n}` });

it('keptRead_hit_is_refreshed: the document read again outlives those kept after it', async () => {
  // Room for three more documents beside what is kept (counting is not awaited: line terms come later).
  setKeptBound(keptTotal() + 3 * DOC);
  const r = reader();
  for (const n of [0, 1, 2]) await keptRead(r, entry(n));
  // doc0, the oldest, is used again by a search: its bytes, as kept.
  expect(await keptRead(r, entry(0))).toEqual(bytesOf(0));
  expect(r.reads).toEqual(['/lru/doc0.md', '/lru/doc1.md', '/lru/doc2.md']);
  // One more past the bound: doc1 (least recently used) goes, not doc0.
  keepDocument('lru\0doc3', bytesOf(3));
  await keptRead(r, entry(0));
  await keptRead(r, entry(1));
  expect(r.reads).toEqual(['/lru/doc0.md', '/lru/doc1.md', '/lru/doc2.md', '/lru/doc1.md']);
});
