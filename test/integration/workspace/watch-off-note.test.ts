// A resident workspace out of inotify watches searches as a one-shot process does (walking every
// time) and its first such answer says so once, as a warning (the core writes nothing to stderr).
import fs, { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createSearcher } from '../../../src/searcher.js';
import { createWorkspace } from '../../../src/workspace/workspace.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-watch-off-'));
const tree = path.join(tmp, 'tree');
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

it('the first search without watches warns WATCH_OFF once; answers stay a scan\'s', async () => {
  for (let f = 0; f < 12; f++) { mkdirSync(path.join(tree, `d${f % 3}`), { recursive: true }); writeFileSync(path.join(tree, `d${f % 3}`, `f${f}.ts`), `export function upload${f}() { return retry(${f}); }\n`); }
  const ws = createWorkspace({ dir: path.join(tmp, 'ws'), concurrency: 0, resident: true });
  const scan = createSearcher({ concurrency: 0 });
  const real = fs.watch;
  try {
    await ws.index([tree]);
    // The kernel's limit cannot be lowered by a test: every watch from here on fails as it would.
    fs.watch = (() => { throw Object.assign(new Error('ENOSPC: System limit for number of file watchers reached, watch'), { code: 'ENOSPC' }); }) as unknown as typeof fs.watch;
    syncBuiltinESMExports();
    const q = { query: 'upload retry', paths: [tree], topK: 5 };
    const first = await ws.search(q);
    expect(first.warnings.filter((w) => w.code === 'WATCH_OFF').map((w) => w.message)).toEqual(['watching is off: fs.inotify.max_user_watches reached; every search walks the tree']);
    writeFileSync(path.join(tree, 'd0', 'new.ts'), 'export function uploadNew() { return retry(99); }\n');
    const next = await ws.search(q);
    expect(next.warnings.map((w) => w.code)).not.toContain('WATCH_OFF');
    expect(next.results).toEqual((await scan.search(q)).results);
  } finally {
    fs.watch = real;
    syncBuiltinESMExports();
    await ws.close();
    await scan.close();
  }
}, 60_000);

// trial38: index runs say nothing of watches. A one-shot index run (not resident) never watches, so it
// cannot run out; a resident process's index runs (the MCP index tool, simgrep serve) walk again when
// out of watches and say nothing either: its searches say it, and an index run does not use up their note.
it('a one-shot index run never watches; a resident one out of watches says nothing and leaves the searches\' note', async () => {
  const base = path.join(tmp, 'tree2');
  for (let f = 0; f < 6; f++) { mkdirSync(path.join(base, `d${f % 2}`), { recursive: true }); writeFileSync(path.join(base, `d${f % 2}`, `f${f}.ts`), `export function parse${f}() { return token(${f}); }\n`); }
  const real = fs.watch;
  let watches = 0;
  fs.watch = ((...a: Parameters<typeof fs.watch>) => { watches++; return real(...a); }) as typeof fs.watch;
  syncBuiltinESMExports();
  const oneShot = createWorkspace({ dir: path.join(tmp, 'ws-once'), concurrency: 0 });
  try {
    for (let i = 0; i < 2; i++) expect((await oneShot.index([base])).warnings).toEqual([]);
    expect(watches).toBe(0);
  } finally {
    await oneShot.close();
  }
  let refused = 0;
  fs.watch = (() => { refused++; throw Object.assign(new Error('ENOSPC: System limit for number of file watchers reached, watch'), { code: 'ENOSPC' }); }) as unknown as typeof fs.watch;
  syncBuiltinESMExports();
  const ws = createWorkspace({ dir: path.join(tmp, 'ws-resident'), concurrency: 0, resident: true });
  try {
    for (let i = 0; i < 3; i++) {
      writeFileSync(path.join(base, 'd0', `g${i}.ts`), `export function render${i}() { return cache(${i}); }\n`);
      const r = await ws.index([base]);
      expect(r.warnings).toEqual([]);
      expect(r.indexed).toBe(i === 0 ? 7 : 1);
    }
    expect(refused).toBeGreaterThan(0); // the resident index runs did try to watch, and ran out
    const first = await ws.search({ query: 'render cache', paths: [base], topK: 3 });
    expect(first.warnings.map((w) => w.code)).toEqual(['WATCH_OFF']);
  } finally {
    fs.watch = real;
    syncBuiltinESMExports();
    await ws.close();
  }
}, 60_000);
