// An engine that starts over an index built earlier keeps what a build of its own would have left (branch
// restart42: workspace/keep-restarted.ts, from the runner's warmUp): every prose document of the snapshot kept
// and counted, every code chunk's sum warmed. The main-thread part waits while a call of the agent is under
// way (the chunk warm-up's idle rule), so the agent's calls are not held behind it.
import { mkdirSync, readFileSync, realpathSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createActionEngine } from '../../src/actions/engine.js';
import { createConfinedWorkspaces } from '../../src/mcp/confined-workspaces.js';
import { createToolRunner } from '../../src/mcp/tools.js';
import { setWarmHoldMs, WARM_HOLD_MS } from '../../src/mcp/warm-searches.js';
import { workersStarted } from '../../src/searcher/seams.js';
import { KEPT_BYTES, keptHeld, keptTotal, LINE_TERMS_PER_BYTE, onKeptDropped, setKeptBound } from '../../src/workspace/search/kept-documents.js';
import { chunksWarmed } from '../../src/workspace/search/warm-chunks.js';
import { defaultName } from '../../src/workspace/registry.js';
import { isolatedHome } from '../helpers/isolated-home.js';

const PROSE = 30;
let home: ReturnType<typeof isolatedHome>;

/** A tree of code and prose files indexed by a one-shot engine since closed (it keeps nothing in this process). */
async function indexedTree(name: string, proseLines = 0): Promise<string> {
  const tree = path.join(home.dir, name);
  mkdirSync(tree);
  for (let i = 0; i < 5; i++) writeFileSync(path.join(tree, `socket${i}.ts`), `export function closeSocket${i}(s: Socket) {\n  // close the socket when the peer goes away\n  return s.end(${i});\n}\n`);
  for (let i = 0; i < PROSE; i++) writeFileSync(path.join(tree, `zebra${i}.md`), `# Zebras ${i}\n\nZebras migrate across savanna grasslands during dry seasons.\nHerds of ${i + 2} graze near rivers.\n${Array.from({ length: proseLines }, (_, j) => `Line ${j}: the herd ${i} crosses river ${j % 7} at dawn, lions wait in grass ${j % 5}.\n`).join('')}`);
  const real = realpathSync(tree);
  const before = createActionEngine({ concurrency: 0 });
  await before.workspace({ name: defaultName([real]) }).index([real]);
  await before.close();
  return real;
}

beforeAll(() => { home = isolatedHome(); });
afterAll(() => home?.restore());

type Answer = { index: string; matches: { path: string; match_line: number }[] };

it('an engine started over an index built earlier keeps its prose documents and chunk sums, while the agent is idle', async () => {
  const real = await indexedTree('yesterday');
  const own = createActionEngine({ concurrency: 0, resident: true });
  const r = createToolRunner(own, { real, given: real });
  try {
    expect(keptHeld().documents).toBe(0);
    // As the engine does once it listens (mcp-engine-command.ts); the agent thinks meanwhile.
    expect(await r.warmUp!()).toMatchObject({ workspace: defaultName([real]) });
    await r.settled!();
    // Every prose document kept and counted, the code chunks pooled by the warm-up (before restart42: 0, the
    // warm-up started by a made-up search had not run: it waits for the workspace's searches to pause).
    const held = keptHeld();
    expect(held.documents).toBe(PROSE);
    expect(held.lineBytes).toBeGreaterThan(0);
    expect(await chunksWarmed(own.searcher)).toBeGreaterThan(0);
    const a = (await r.call('search', { query: 'zebras graze near rivers' })).structuredContent as Answer;
    expect(a.index).toBe('fresh');
    expect(a.matches.length).toBeGreaterThan(0);
  } finally {
    await r.close!();
    await own.close();
  }
});

it('an agent that never pauses IDLE_MS still has its documents counted, a slice at most every GATE_HOLD_MS', async () => {
  const real = await indexedTree('today');
  const own = createActionEngine({ concurrency: 0, resident: true });
  const r = createToolRunner(own, { real, given: real });
  try {
    const before = keptHeld();
    const warming = r.warmUp!();
    // The agent's calls 50 ms apart from the start (never idle): they answer from the index, and the documents the
    // made-up searches and its own searches read are counted anyway (before: gated until the keeping ended, which
    // needs idle time: lineBytes stayed as it was for the engine's lifetime).
    const until = Date.now() + 3000;
    while (Date.now() < until) {
      const a = (await r.call('search', { query: 'zebras graze near rivers' })).structuredContent as Answer;
      expect(a.index).toBe('fresh');
      await new Promise((w) => setTimeout(w, 50));
    }
    expect(keptHeld().lineBytes).toBeGreaterThan(before.lineBytes);
    await warming;
    // Once the agent pauses, the rest is done.
    await r.settled!();
    expect(keptHeld().documents).toBe(before.documents + PROSE);
  } finally {
    await r.close!();
    await own.close();
  }
});

it('keeps every prose document of the snapshot by itself (no search reads one), and none changed since the index', async () => {
  const real = await indexedTree('alone');
  // Edited since the index: one to another size, one to the same size with its mtime as indexed (a dead entry before).
  writeFileSync(path.join(real, 'zebra1.md'), '# Zebras 1\n\nA longer text than the one indexed.\n');
  const same = path.join(real, 'zebra2.md');
  const st = statSync(same);
  writeFileSync(same, readFileSync(same, 'utf8').replace('Zebras migrate', 'Gazelle wander'));
  utimesSync(same, st.atime, st.mtime);
  const own = createActionEngine({ concurrency: 0, resident: true });
  try {
    const before = keptHeld();
    const out = await own.workspace({ name: defaultName([real]) }).keepRestarted({ ready: () => true, stopped: () => false });
    expect(out).toEqual({ documents: PROSE - 2 });
    const held = keptHeld();
    expect(held.documents - before.documents).toBe(PROSE - 2);
    expect(held.lineBytes).toBeGreaterThan(before.lineBytes);
  } finally {
    await own.close();
  }
});

it('a close during the snapshot\'s load starts nothing after: no chunk warm-up, no pool, no document kept', async () => {
  const real = await indexedTree('closing');
  const own = createActionEngine({ concurrency: 1, resident: true });
  const before = keptHeld().documents;
  const p = own.workspace({ name: defaultName([real]) }).keepRestarted({ ready: () => true, stopped: () => false });
  await own.close();
  expect(await p).toEqual({ documents: 0 });
  await new Promise((w) => setTimeout(w, 500));
  // Before: the warm-up ran on the closed workspace (its `stopped` undone), started a worker pool and kept all 30.
  expect(workersStarted(own.searcher)).toBe(false);
  expect(await chunksWarmed(own.searcher)).toBe(0);
  expect(keptHeld().documents).toBe(before);
});

it('stops short of the kept documents\' bound: it lets none go for room (the agent\'s own first)', async () => {
  // Documents of some size, as a tree's are (a tiny one's line terms are mostly their fixed part).
  const real = await indexedTree('bounded', 60);
  const own = createActionEngine({ concurrency: 0, resident: true });
  let dropped = 0;
  onKeptDropped(() => { dropped++; });
  const doc = statSync(path.join(real, 'zebra0.md')).size;
  // Room for about ten of the thirty documents, line terms included (estimated at LINE_TERMS_PER_BYTE).
  setKeptBound(keptTotal() + 10 * doc * (2 + LINE_TERMS_PER_BYTE));
  try {
    const before = keptHeld().documents;
    const out = await own.workspace({ name: defaultName([real]) }).keepRestarted({ ready: () => true, stopped: () => false });
    expect(out.documents).toBeGreaterThan(5);
    expect(out.documents).toBeLessThan(PROSE);
    expect(keptHeld().documents - before).toBe(out.documents);
    // Before: it read and counted all 30, letting go of the oldest kept (each drop clearing every coverage's cache).
    expect(dropped).toBe(0);
  } finally {
    setKeptBound(KEPT_BYTES);
    await own.close();
  }
});

it('an engine\'s stop does not wait for the keeping of its start (settled({ keeping: false })), the tests\' settled() does', async () => {
  const real = await indexedTree('stopping');
  const own = createActionEngine({ concurrency: 0, resident: true });
  const ws = createConfinedWorkspaces(own, { real, given: real }, (m) => m);
  // The made-up searches all run in the hold; a call of the agent stays under way: the keeping waits for it.
  setWarmHoldMs(60_000);
  let release!: () => void;
  const call = ws.during(() => new Promise<void>((r) => { release = r; }));
  try {
    expect(await ws.warmUp(real)).toMatchObject({ workspace: defaultName([real]) });
    let all = false;
    void ws.settled().then(() => { all = true; });
    // Before: it waited for the keeping, hence for the agent to be idle and every document read and counted.
    const stop = await Promise.race([ws.settled({ keeping: false }).then(() => 'settled'), new Promise((w) => setTimeout(() => w('waiting'), 5000))]);
    expect(stop).toBe('settled');
    expect(all).toBe(false);
    release();
    await call;
    await ws.settled();
  } finally {
    release();
    setWarmHoldMs(WARM_HOLD_MS);
    await ws.close();
    await own.close();
  }
});
