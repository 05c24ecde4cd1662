// The searcher keeps its last query's vector and known-word share (a workspace search embeds its query
// to pick candidates, then searches them with the same query): what it hands out is a copy, so a
// caller that normalises or changes it never changes a later search's query.
import { afterAll, describe, expect, it } from 'vitest';
import { createSearcher } from '../../src/searcher.js';

const searcher = createSearcher({ concurrency: 0 });
afterAll(() => searcher.close());

describe('the last query\'s vector', () => {
  it('is handed out as a copy: changing one answer leaves the next the same', async () => {
    const first = await searcher.embed(['retry failed uploads']);
    const kept = first.slice();
    first.fill(0);
    expect(await searcher.embed(['retry failed uploads'])).toEqual(kept);
    expect(await searcher.embed(['parse the config'])).not.toEqual(kept);
    expect(await searcher.embed(['retry failed uploads'])).toEqual(kept);
  });

  it('gives a search the answer it gives with no vector kept', async () => {
    const content = 'function retryUpload(file) {\n  return upload(file).catch(() => retryUpload(file));\n}\n// parse the config\nconst config = JSON.parse(text);\n';
    const query = 'retry failed uploads';
    const fresh = createSearcher({ concurrency: 0 });
    try {
      const expected = await fresh.searchContent({ content, query, topK: 5 });
      await searcher.embed([query]);
      const got = await searcher.searchContent({ content, query, topK: 5 });
      expect(got.results).toEqual(expected.results);
      expect((await searcher.searchContent({ content, query, topK: 5 })).results).toEqual(expected.results);
    } finally {
      await fresh.close();
    }
  });
});
