// A searcher's warm-up (the MCP engine's and serve's, as they start) parses the bundled lexicon every search's
// plan reads while its model is still loading, not on the first search's way to its first batch after the
// model (branch boot35: ~25 ms of the first answer's main thread). In process here; with worker threads in
// warm-lexicon-pool.test.ts. Each its own file: the lexicon is parsed once per thread, so a second case in
// one file would find it parsed by the first.
import { expect, it } from 'vitest';
import { bundledLexiconParsed } from '../../src/rank/lexical/lexicon.js';
import { createSearcher } from '../../src/searcher.js';

it('warm() in process parses the bundled lexicon as it begins to load the model; a search then answers as ever', async () => {
  expect(bundledLexiconParsed()).toBe(false);
  const s = createSearcher({ concurrency: 0 });
  try {
    const warming = s.warm();
    // warm() has begun, the model is not loaded yet (warm() awaits it after this).
    expect(bundledLexiconParsed()).toBe(true);
    await warming;
    const r = await s.searchContent({ query: 'retry failed uploads', content: '# Uploads\n\nWe retry failed uploads after a pause.\n\nOther notes.\n', name: 'notes.md', topK: 1 });
    expect(r.results.length).toBe(1);
  } finally {
    await s.close();
  }
});
