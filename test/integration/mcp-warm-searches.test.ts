// After the engine's background build, its made-up searches (mcp/warm-searches.ts) run back to back and the
// index's calls wait for them (at most WARM_HOLD_MS); what is left then runs only once the agent is idle, or
// while its only calls under way are scans. An engine that starts over an index built earlier runs them too
// (the runner's warmUp), unless the index cannot answer its searches (index-use.ts).
import { mkdirSync, readdirSync, realpathSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createActionEngine } from '../../src/actions/engine.js';
import { createConfinedWorkspaces } from '../../src/mcp/confined-workspaces.js';
import { createToolRunner } from '../../src/mcp/tools.js';
import { setWarmHoldMs, WARM_HOLD_MS, WARM_QUERIES, warmSearchesRun } from '../../src/mcp/warm-searches.js';
import { defaultName, workspaceDir } from '../../src/workspace/registry.js';
import { toolRunnerTree, uploadFiles } from '../helpers/tool-runner-tree.js';

const t = toolRunnerTree({ ...uploadFiles(6, () => 'retry failed uploads, then read the input file'), 'README.md': '# Uploads\n\nFailed uploads are retried three times.\n' });

type Answer = { index: string; matches: { path: string; match_line: number; score: number }[] };
const search = async (query: string) => {
  const r = await t.runner.call('search', { query });
  expect(r.isError, JSON.stringify(r.content)).toBeUndefined();
  return r.structuredContent as Answer;
};


describe('the background build warms the indexed search', () => {
  it('made-up searches run before the index answers back-to-back calls: the first indexed answer comes after them', async () => {
    const before = warmSearchesRun();
    const scanned = await search('retry failed uploads');
    expect(scanned.index).toBe('building');
    // Back-to-back calls (no pause of IDLE_MS), as the MCP harness makes them: the index's first answer waits
    // for the made-up searches (the tiny tree's take far less than WARM_HOLD_MS).
    let fresh = await search('retry failed uploads');
    for (let i = 0; fresh.index !== 'fresh' && i < 2000; i++) fresh = await search('retry failed uploads');
    expect(fresh.index).toBe('fresh');
    expect(fresh.matches).toEqual(scanned.matches);
    // Every made-up search, and find_related on the top hits of the first three (each finds an upload
    // file), ran before it (before warm41 the index answered at once: 0-1 of them had run).
    expect(warmSearchesRun() - before).toBe(WARM_QUERIES.length + 3);
    for (let i = 0; i < 5; i++) expect((await search('retry failed uploads')).index).toBe('fresh');
    await t.runner.settled!();
    expect(warmSearchesRun() - before).toBe(WARM_QUERIES.length + 3);
    expect((await search('retry failed uploads')).matches).toEqual(scanned.matches);
  });

  it('with no hold, the index answers at once and its own back-to-back calls hold the made-up searches back', async () => {
    const tree = path.join(t.home.dir, 'tree4');
    mkdirSync(tree);
    for (let i = 0; i < 5; i++) writeFileSync(path.join(tree, `parse${i}.ts`), `export function parseHeader${i}(s: string) {\n  // parse the header line\n  return s + ${i};\n}\n`);
    const own = createActionEngine({ concurrency: 0, resident: true });
    const real = realpathSync(tree);
    const r4 = createToolRunner(own, { real, given: real });
    const ask = async () => (await r4.call('search', { query: 'parse the header line' })).structuredContent as Answer;
    setWarmHoldMs(0);
    try {
      const before = warmSearchesRun();
      let a = await ask();
      for (let i = 0; a.index !== 'fresh' && i < 2000; i++) a = await ask();
      expect(a.index).toBe('fresh');
      // The made-up searches may run while the scan under way at the build's end finishes; the index's own
      // back-to-back calls then hold them back (at most the one under way runs on).
      const atFresh = warmSearchesRun();
      for (let i = 0; i < 5; i++) expect((await ask()).index).toBe('fresh');
      expect(warmSearchesRun() - atFresh).toBeLessThanOrEqual(1);
      await r4.settled!();
      expect(warmSearchesRun() - before).toBe(WARM_QUERIES.length + 3);
    } finally {
      setWarmHoldMs(WARM_HOLD_MS);
      await r4.close!();
      await own.close();
    }
  });

  it('runs the made-up searches while the only call under way is a scan begun during the build', async () => {
    const tree = path.join(t.home.dir, 'tree3');
    mkdirSync(tree);
    for (let i = 0; i < 5; i++) writeFileSync(path.join(tree, `cache${i}.ts`), `export function evictCache${i}(key: string) {\n  // evict the stale cache entry\n  return key + ${i};\n}\n`);
    const own = createActionEngine({ concurrency: 0, resident: true });
    const dir = realpathSync(tree);
    const ws = createConfinedWorkspaces(own, { real: dir, given: dir }, (m) => m);
    const before = warmSearchesRun();
    // The first search queues the build; the second is a scan held open (an agent's scan under way when the build publishes).
    expect(await ws.during(() => ws.forSearch(dir, async (w) => w))).toBeNull();
    let release!: () => void;
    const held = new Promise<void>((r) => { release = r; });
    const scan = ws.during(() => ws.forSearch(dir, async (w) => { await held; return w; }));
    // Without the scans counted apart, none runs until the scan ends (0 here).
    const until = Date.now() + 45_000;
    while (warmSearchesRun() - before < WARM_QUERIES.length + 3 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(warmSearchesRun() - before).toBe(WARM_QUERIES.length + 3);
    release();
    expect(await scan).toBeNull();
    // The index answers the next search.
    expect(await ws.during(() => ws.forSearch(dir, async (w) => w))).not.toBeNull();
    await ws.close();
    await own.close();
  }, 90_000);

  it('ends the made-up searches when the server closes, before the engine does: none runs after', async () => {
    const tree = path.join(t.home.dir, 'tree2');
    mkdirSync(tree);
    for (let i = 0; i < 4; i++) writeFileSync(path.join(tree, `queue${i}.ts`), `export function drainQueue${i}() {\n  // drain the job queue\n  return ${i};\n}\n`);
    const own = createActionEngine({ concurrency: 0, resident: true });
    const real = realpathSync(tree);
    const r2 = createToolRunner(own, { real, given: real });
    const ask = async () => (await r2.call('search', { query: 'drain the job queue' })).structuredContent as Answer;
    // No hold: the made-up searches are left to the agent's idle time, which the close comes before.
    setWarmHoldMs(0);
    try {
      let a = await ask();
      for (let i = 0; a.index !== 'fresh' && i < 2000; i++) a = await ask();
      expect(a.index).toBe('fresh');
      const before = warmSearchesRun();
      await r2.close!();
      await own.close();
      await r2.settled!();
      await new Promise((r) => setTimeout(r, 300));
      // The agent was never idle before the close: none ran (without close(), all 15 ran on the closed engine).
      expect(warmSearchesRun() - before).toBe(0);
    } finally {
      setWarmHoldMs(WARM_HOLD_MS);
    }
  });
});

describe('an engine started over an index built earlier warms it too', () => {
  /** A tree of `n` files indexed as the MCP server indexes it (its own workspace), by an engine since closed. */
  async function indexedTree(name: string): Promise<string> {
    const tree = path.join(t.home.dir, name);
    mkdirSync(tree);
    for (let i = 0; i < 5; i++) writeFileSync(path.join(tree, `socket${i}.ts`), `export function closeSocket${i}(s: Socket) {\n  // close the socket when the peer goes away\n  return s.end(${i});\n}\n`);
    const real = realpathSync(tree);
    const before = createActionEngine({ concurrency: 0, resident: true });
    await before.workspace({ name: defaultName([real]) }).index([real]);
    await before.close();
    return real;
  }

  it('runs the made-up searches as it starts: the first indexed answer of back-to-back calls comes after them', async () => {
    const real = await indexedTree('yesterday');
    const own = createActionEngine({ concurrency: 0, resident: true });
    const r = createToolRunner(own, { real, given: real });
    try {
      const before = warmSearchesRun();
      // As the engine does once it listens (mcp-engine-command.ts), and the agent's first call right after.
      const warming = r.warmUp?.();
      const first = (await r.call('search', { query: 'close the socket' })).structuredContent as Answer;
      expect(first.index).toBe('fresh');
      // All of them ran before it (the tiny tree's take far less than WARM_HOLD_MS); before start42, none.
      expect(warmSearchesRun() - before).toBe(WARM_QUERIES.length + 3);
      expect(await warming).toEqual({ workspace: defaultName([real]), ran: WARM_QUERIES.length + 3 });
      // The same answer as a fresh engine's with no made-up searches.
      const plain = createActionEngine({ concurrency: 0, resident: true });
      const p = createToolRunner(plain, { real, given: real });
      try {
        expect(((await p.call('search', { query: 'close the socket' })).structuredContent as Answer).matches).toEqual(first.matches);
      } finally {
        await p.close!();
        await plain.close();
      }
    } finally {
      await r.close!();
      await own.close();
    }
  });

  it('saves nothing as it starts over files changed since the index: the made-up searches end, the agent\'s first search saves them', async () => {
    const real = await indexedTree('changed');
    const later = new Date(Date.now() + 5_000);
    for (const i of [1, 3]) {
      const file = path.join(real, `socket${i}.ts`);
      writeFileSync(file, `export function openSocket${i}(s: Socket) {\n  // open the socket again after a drop\n  return s.connect(${i});\n}\n`);
      utimesSync(file, later, later);
    }
    const dir = workspaceDir(defaultName([real]));
    /** Every file of the workspace's directory (tables, workspace.json, snapshot, lock) with its size and mtime. */
    const files = () => (readdirSync(dir, { recursive: true }) as string[]).sort().map((f) => { const st = statSync(path.join(dir, f)); return `${f} ${st.size} ${st.mtimeMs}`; });
    const before = files();
    const own = createActionEngine({ concurrency: 0, resident: true });
    const r = createToolRunner(own, { real, given: real });
    try {
      const ran = warmSearchesRun();
      // Before the review of start42 all 15 ran, the first embedding the 2 files and writing the index under its lock.
      expect(await r.warmUp!()).toEqual({ workspace: defaultName([real]), ran: 0 });
      expect(warmSearchesRun() - ran).toBe(0);
      expect(files()).toEqual(before);
      // The agent's own first search saves them, as before, and finds the new text.
      const first = (await r.call('search', { query: 'open the socket again after a drop' })).structuredContent as Answer;
      expect(first.index).toBe('fresh');
      expect(first.matches[0].path).toMatch(/socket[13]\.ts$/);
      expect(files()).not.toEqual(before);
    } finally {
      await r.close!();
      await own.close();
    }
  });

  it('hands the snapshot it rebuilt and could not save (SNAPSHOT_NOT_SAVED) to the agent\'s first answer, once', async () => {
    const real = await indexedTree('not-saved');
    const dir = workspaceDir(defaultName([real]));
    // No snapshot: the engine's start rebuilds it from the tables, and cannot write it (directories stand where its temp files go).
    for (const f of readdirSync(dir).filter((n) => n.startsWith('snapshot'))) rmSync(path.join(dir, f));
    for (const n of ['snapshot.bin', 'snapshot.delta.bin']) mkdirSync(path.join(dir, `${n}.${process.pid}.tmp`));
    const own = createActionEngine({ concurrency: 0, resident: true });
    const r = createToolRunner(own, { real, given: real });
    const notSaved = (a: { notes: string[] }) => a.notes.filter((n) => n.includes('SNAPSHOT_NOT_SAVED')).length;
    try {
      expect(await r.warmUp!()).toEqual({ workspace: defaultName([real]), ran: WARM_QUERIES.length + 3 });
      // Before: 0 (the made-up search, or the start's keeping, that rebuilt it took the note and dropped it).
      const first = (await r.call('search', { query: 'close the socket' })).structuredContent as Answer & { notes: string[] };
      expect(first.index).toBe('fresh');
      expect(notSaved(first)).toBe(1);
      // Said once: the snapshot is kept in memory, and no later search rebuilds it.
      expect(notSaved((await r.call('search', { query: 'close the socket' })).structuredContent as { notes: string[] })).toBe(0);
    } finally {
      await r.close!();
      await own.close();
      for (const n of ['snapshot.bin', 'snapshot.delta.bin']) rmSync(path.join(dir, `${n}.${process.pid}.tmp`), { recursive: true, force: true });
    }
  });

  it('runs none over an index no build finished (cut short), and queues no build: the agent\'s first search does', async () => {
    const real = await indexedTree('cut-short');
    rmSync(path.join(workspaceDir(defaultName([real])), 'workspace.json'));
    const own = createActionEngine({ concurrency: 0, resident: true });
    const r = createToolRunner(own, { real, given: real });
    try {
      const before = warmSearchesRun();
      expect(await r.warmUp!()).toBeNull();
      expect(((await r.call('status', {})).structuredContent as { incomplete?: boolean }).incomplete).toBe(true);
      expect(warmSearchesRun() - before).toBe(0);
    } finally {
      await r.close!();
      await own.close();
    }
  });

  it('runs none where no index covers the root (only a sub-directory of it is indexed)', async () => {
    const real = await indexedTree('inner');
    // The server's root is the tree's parent: the index of `inner` cannot answer a search of it.
    const own = createActionEngine({ concurrency: 0, resident: true });
    const r = createToolRunner(own, { real: path.dirname(real), given: path.dirname(real) });
    try {
      const before = warmSearchesRun();
      expect(await r.warmUp!()).toBeNull();
      expect(warmSearchesRun() - before).toBe(0);
    } finally {
      await r.close!();
      await own.close();
    }
  });
});
