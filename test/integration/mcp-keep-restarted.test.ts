// An engine that starts over an index built earlier keeps what a build of its own would have left (branch
// restart42: workspace/keep-restarted.ts, from the runner's warmUp): every prose document of the snapshot kept
// and counted, every code chunk's sum warmed. The main-thread part waits while a call of the agent is under
// way (the chunk warm-up's idle rule), so the agent's calls are not held behind it.
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createActionEngine } from '../../src/actions/engine.js';
import { createToolRunner } from '../../src/mcp/tools.js';
import { keptHeld } from '../../src/workspace/search/kept-documents.js';
import { chunksWarmed } from '../../src/workspace/search/warm-chunks.js';
import { defaultName } from '../../src/workspace/registry.js';
import { isolatedHome } from '../helpers/isolated-home.js';

const PROSE = 30;
let home: ReturnType<typeof isolatedHome>;

/** A tree of code and prose files indexed by a one-shot engine since closed (it keeps nothing in this process). */
async function indexedTree(name: string): Promise<string> {
  const tree = path.join(home.dir, name);
  mkdirSync(tree);
  for (let i = 0; i < 5; i++) writeFileSync(path.join(tree, `socket${i}.ts`), `export function closeSocket${i}(s: Socket) {\n  // close the socket when the peer goes away\n  return s.end(${i});\n}\n`);
  for (let i = 0; i < PROSE; i++) writeFileSync(path.join(tree, `zebra${i}.md`), `# Zebras ${i}\n\nZebras migrate across savanna grasslands during dry seasons.\nHerds of ${i + 2} graze near rivers.\n`);
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

it('the agent\'s calls are not held behind it: none of it runs while back-to-back calls are under way', async () => {
  const real = await indexedTree('today');
  const own = createActionEngine({ concurrency: 0, resident: true });
  const r = createToolRunner(own, { real, given: real });
  try {
    const before = keptHeld();
    const warming = r.warmUp!();
    // The agent's first calls right after the start, back to back (no pause of IDLE_MS): they wait for the
    // made-up searches' hold only (start42's bound), and no document is counted meanwhile (the made-up
    // searches keep those they read: counted later too).
    for (let i = 0; i < 5; i++) {
      const a = (await r.call('search', { query: 'close the socket' })).structuredContent as Answer;
      expect(a.index).toBe('fresh');
      expect(keptHeld().lineBytes).toBe(before.lineBytes);
    }
    await warming;
    // Once the agent pauses, the rest is done.
    await r.settled!();
    expect(keptHeld().documents).toBe(before.documents + PROSE);
  } finally {
    await r.close!();
    await own.close();
  }
});
