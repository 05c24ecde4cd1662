// A source that lists within the floor (Source.listWithin: a workspace's prose documents) leaves out the
// entries out of reach and says how many. The pipeline counted them as searched up front, so a search cut
// by its --timeout during that listing said it had searched documents it never came to. They count once
// the listing is through, as each would at its turn through list().
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSearcher } from '../../src/searcher.js';
import type { Entry, Source } from '../../src/sources/source.js';
import { makeTree } from '../helpers/tree.js';

const LEFT = 3;
/** Listed documents: more than the pipeline reads at once (fileConcurrency 8), so a listing of stuck ones cannot get through. */
const LISTED = 9;
const DOC = 'We retry uploads that failed, with a bounded backoff.\nNothing else here.\n';
let tree: Awaited<ReturnType<typeof makeTree>>;
const searcher = createSearcher({ concurrency: 0 });
beforeAll(async () => { tree = await makeTree({ 'small.txt': 'we retry uploads that failed\nnothing else here\n' }); });
afterAll(async () => { await searcher.close(); await tree?.cleanup(); });

/** Prose documents listed within the floor: LISTED listed, LEFT more left out; `stuck`: the listed ones' reads never end. */
function proseWithin(stuck: boolean): Source {
  const listed: Entry[] = Array.from({ length: LISTED }, (_, i) => ({ path: `docs/near${i}.md` }));
  const all = [...listed, ...Array.from({ length: LEFT }, (_, i) => ({ path: `docs/far${i}.md` }))];
  const bytes = new TextEncoder().encode(DOC);
  return {
    async *list() { yield* all; },
    listWithin: () => ({ entries: listed, left: LEFT }),
    holdsAnyTerm: () => true,
    read: () => (stuck ? new Promise<Uint8Array>(() => {}) : Promise.resolve(bytes)),
    async *stream() { if (stuck) await new Promise(() => {}); yield bytes; },
  };
}

it('the documents a listing within the floor leaves out are counted as searched once it is through, not when a timeout cuts it', async () => {
  const small = `${tree.dir}/small.txt`;
  writeFileSync(small, 'we retry uploads that failed\nnothing else here\n');
  const o = { query: 'retry uploads', paths: [small], topK: 1 };
  // Through: the file, the listed documents and the LEFT left out.
  const through = await searcher.search({ ...o, sources: [proseWithin(false)] });
  expect(through.warnings).toEqual([]);
  expect(through.stats.files).toBe(1 + LISTED + LEFT);
  // Cut while the listed documents are read, before the listing is through: the search came to the file alone.
  const cut = await searcher.search({ ...o, sources: [proseWithin(true)], timeoutMs: 1000 });
  expect(cut.warnings.map((w) => w.code)).toEqual(['TIMEOUT']);
  expect(cut.results.map((r) => r.filename)).toEqual([small]);
  expect(cut.stats.files).toBe(1);
});
