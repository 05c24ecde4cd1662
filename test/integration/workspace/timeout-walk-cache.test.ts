// A resident workspace search cut by --timeout after its walk (stale check or refresh) must not leave
// the walk cached as checked: the next search of the paths would trust it, skip the stale check, and
// answer from the index as it was before the files changed.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createSearcher } from '../../../src/searcher.js';
import { waitsBehind } from '../../../src/workspace/lock.js';
import { createWorkspace } from '../../../src/workspace/workspace.js';

const WORDS = ['upload', 'retry', 'invoice', 'socket', 'parser', 'render', 'cache', 'token', 'backoff', 'queue'];
const file = (seed: number) => Array.from({ length: 150 }, (_, i) => `const ${WORDS[(seed + i) % 10]}${i} = ${WORDS[(seed * 7 + i) % 10]}(${i}); // ${WORDS[(i * 3 + seed) % 10]} handling`).join('\n');
const tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-timeout-walk-'));
const tree = path.join(tmp, 'tree');
const write = (shift: number) => { for (let f = 0; f < 300; f++) { mkdirSync(path.join(tree, `d${f % 10}`), { recursive: true }); writeFileSync(path.join(tree, `d${f % 10}`, `f${f}.ts`), file(f + shift)); } };
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

it('the search after one cut in its refresh checks what changed again (equals a scan)', async () => {
  write(0);
  const ws = createWorkspace({ dir: path.join(tmp, 'ws'), concurrency: 0, resident: true });
  const scan = createSearcher({ concurrency: 0 });
  try {
    await ws.index([tree]);
    const q = { query: 'upload retry', paths: [tree], topK: 5 };
    await ws.search(q); // the model loaded, the walk watched
    write(5);
    const cut = await ws.search({ ...q, timeoutMs: 100 });
    expect(cut.warnings.map((w) => w.code)).toEqual(['TIMEOUT']);
    const next = await ws.search(q);
    expect(next.results).toEqual((await scan.search(q)).results);
  } finally {
    // The cut search's refresh, raced not aborted, ends (it holds the workspace's lock in this process till then;
    // the search after it waited for it, so it has mostly ended): before, a fixed 5 s.
    const lock = path.join(tmp, 'ws', '.simgrep-lock');
    for (const end = Date.now() + 30_000; waitsBehind(lock, []) !== 'nothing' && Date.now() < end;) await new Promise((r) => setTimeout(r, 20));
    await ws.close();
    await scan.close();
  }
}, 60_000);
