// A workspace search lists its prose documents within the pipeline's floor (Source.listWithin) only for the
// plan it planned them by, known by identity. A query with a word the model has no token for is planned by
// the searcher with a lower weight on the cosine (knownShare < 1): that plan was a fresh copy
// ({...recent.plan, prose}), never the workspace's, so every such search listed all its documents instead
// and bounded each one again. Both now plan with the same share and get the same plan object.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { proseListings } from '../../../src/workspace/search/prose-source.js';
import { residentTree } from '../../helpers/resident-tree.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const FILES = ['docs/agents.md', 'docs/workspace.md', 'docs/cli.md', 'src/rank/topk.ts', 'src/embed/static.ts'];
const t = residentTree(Object.fromEntries(FILES.map((f) => [f, readFileSync(path.join(repo, f), 'utf8')])));

// 'ᚠᚢᚦ' (runes) has no token in the bundled model: 2 of the 3 words are known.
for (const query of ['retry uploads ᚠᚢᚦ', 'retry uploads']) {
  it(`"${query}": the prose documents are listed within the floor, for the pipeline's own plan, and the answer is a scan's`, async () => {
    const before = proseListings();
    const opts = { query, paths: [t.dir], topK: 3 };
    const r = await t.ws.search(opts);
    const after = proseListings();
    expect({ within: after.within - before.within, whole: after.whole - before.whole }).toEqual({ within: 1, whole: 0 });
    expect(r.results).toEqual((await t.scan.search(opts)).results);
  });
}
