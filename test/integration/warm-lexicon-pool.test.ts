// warm() with worker threads parses the bundled lexicon once the pool's threads have been started (parsed at
// once, it held their start back 25-100 ms: rev-boot35, which also found the pool path untested while one file
// checked both). Whether it is parsed before the model loads is not seen from here (warm()'s made-up search
// would parse it too); that it is not parsed before the threads start is.
import { expect, it } from 'vitest';
import { bundledLexiconParsed } from '../../src/rank/lexical/lexicon.js';
import { createSearcher } from '../../src/searcher.js';

it('warm() with a pool parses the bundled lexicon after starting the threads, not before, and before it settles', async () => {
  expect(bundledLexiconParsed()).toBe(false);
  const s = createSearcher({ concurrency: 2 });
  try {
    const warming = s.warm();
    let settled = false;
    void warming.finally(() => { settled = true; });
    // Not at once: the pool's module is imported and its threads started first.
    expect(bundledLexiconParsed()).toBe(false);
    const deadline = Date.now() + 30_000;
    while (!bundledLexiconParsed() && !settled && Date.now() < deadline) await new Promise((r) => setTimeout(r, 1));
    // Parsed while warm() is still under way.
    expect([bundledLexiconParsed(), settled]).toEqual([true, false]);
    await warming;
    const r = await s.searchContent({ query: 'retry failed uploads', content: '# Uploads\n\nWe retry failed uploads after a pause.\n\nOther notes.\n', name: 'notes.md', topK: 1 });
    expect(r.results.length).toBe(1);
  } finally {
    await s.close();
  }
});
