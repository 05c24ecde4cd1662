// The made-up searches right after a background build hold the index's calls at most WARM_HOLD_MS
// (mcp/warm-searches.ts): `held` comes when they end, or at the bound while one is still under way, and the
// rest then wait for the agent to be idle; one the index did not answer (a scan) ends them.
import { afterEach, describe, expect, it } from 'vitest';
import { setWarmHoldMs, WARM_HOLD_MS, WARM_QUERIES, warmSearches, type AgentCalls } from '../../../src/mcp/warm-searches.js';
import { NOT_FRESH } from '../../../src/workspace/search-run.js';
import type { Workspace } from '../../../src/workspace/workspace.js';

/** A stand-in workspace whose searches end when the test says (`finish`), counting them; `scans`: answered by a scan, not the index. */
function slowWorkspace(o: { scans?: boolean } = {}) {
  const waiting: (() => void)[] = [];
  let asked = 0;
  const stats = o.scans ? { files: 1 } : { files: 1, index: { workspace: 'stand-in', refreshed: 0 } };
  const ws = {
    search: () => {
      asked++;
      return new Promise((resolve) => waiting.push(() => resolve({ results: [], warnings: [], stats })));
    },
  } as unknown as Workspace;
  return { ws, asked: () => asked, finish: () => { for (const f of waiting.splice(0)) f(); } };
}

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

afterEach(() => setWarmHoldMs(WARM_HOLD_MS));

describe('the made-up searches hold the index calls, within a bound', () => {
  it('releases the held calls at the bound while a made-up search is still under way, then waits for the agent to be idle', async () => {
    setWarmHoldMs(50);
    const { ws, asked, finish } = slowWorkspace();
    // An agent call under way (held): the made-up searches do not wait for it while they hold.
    const calls: AgentCalls = { inFlight: 1, scanning: 0, lastEnded: performance.now() };
    let heldAt = -1;
    const started = performance.now();
    const done = warmSearches(ws, '/nowhere', calls, { held: () => { heldAt = performance.now() - started; } });
    await tick(10);
    expect(asked()).toBe(1);
    expect(heldAt).toBe(-1);
    await tick(80);
    // The first search is still under way: the bound released the calls all the same.
    expect(heldAt).toBeGreaterThanOrEqual(45);
    finish();
    await tick(20);
    // Past the bound the agent's call under way holds the next one back.
    expect(asked()).toBe(1);
    calls.stopped = true;
    finish();
    await done;
    expect(asked()).toBe(1);
  });

  it('runs them back to back while they hold, and releases the calls when the last ends', async () => {
    setWarmHoldMs(60_000);
    const { ws, asked, finish } = slowWorkspace();
    const calls: AgentCalls = { inFlight: 1, scanning: 0, lastEnded: performance.now() };
    let held = 0;
    const done = warmSearches(ws, '/nowhere', calls, { held: () => { held++; } });
    for (let i = 0; i < WARM_QUERIES.length; i++) {
      await tick(1);
      expect(asked()).toBe(i + 1);
      expect(held).toBe(0);
      finish();
    }
    await done;
    // No top hit, so no find_related: the calls are released once, as the searches end.
    expect(asked()).toBe(WARM_QUERIES.length);
    expect(held).toBe(1);
  });

  it('ends them when one is answered by a scan (another process holds the index over changed files): none scans again', async () => {
    setWarmHoldMs(60_000);
    const { ws, asked, finish } = slowWorkspace({ scans: true });
    const calls: AgentCalls = { inFlight: 0, scanning: 0, lastEnded: -Infinity };
    let held = 0;
    const done = warmSearches(ws, '/nowhere', calls, { held: () => { held++; } });
    for (let i = 0; i < WARM_QUERIES.length; i++) { await tick(1); finish(); }
    // Before start42 every one of them ran, each a scan of the tree.
    expect(asked()).toBe(1);
    expect(await done).toBe(1);
    expect(held).toBe(1);
  });

  it('ends the find_related ones too at a file changed since (NOT_FRESH), or at one that fails (its hit\'s line gone): the rest do not run', async () => {
    setWarmHoldMs(60_000);
    for (const likeAnswer of ['not fresh', 'throws'] as const) {
      let likes = 0;
      const index = { workspace: 'stand-in', refreshed: 0 };
      const ws = {
        search: async (o: { like?: unknown }) => {
          if (!o.like) return { results: [{ filename: '/nowhere/a.ts', match_line: 3 }], warnings: [], stats: { files: 1, index } };
          likes++;
          if (likeAnswer === 'throws') throw new Error('BAD_FLAG: line 4 is past its end');
          return { results: [], warnings: [{ path: '/nowhere', code: NOT_FRESH, message: 'changed' }], stats: { files: 0 } };
        },
      } as unknown as Workspace;
      const calls: AgentCalls = { inFlight: 0, scanning: 0, lastEnded: -Infinity };
      // Before: the three find_related ran on (each NOT_FRESH a whole walk for the next search), or a throw rejected them all.
      expect(await warmSearches(ws, '/nowhere', calls, { freshOnly: true })).toBe(WARM_QUERIES.length);
      expect(likes).toBe(1);
    }
  });

  it('counts the bound from `since`, when the calls began to wait (an engine that loaded its model first)', async () => {
    setWarmHoldMs(100);
    const { ws, finish } = slowWorkspace();
    const calls: AgentCalls = { inFlight: 1, scanning: 0, lastEnded: performance.now() };
    let heldAt = -1;
    const since = performance.now() - 80;
    const done = warmSearches(ws, '/nowhere', calls, { since, held: () => { heldAt = performance.now() - since; } });
    // Its timer (20 ms left) fires before this 60 ms one; counted from the call (100 ms), after it.
    await tick(60);
    expect(heldAt).toBeGreaterThanOrEqual(95);
    calls.stopped = true;
    finish();
    await done;
  });

  it('past the bound already when they begin (a model load outlasted WARM_HOLD_MS): the first waits for the busy agent too', async () => {
    setWarmHoldMs(1000);
    const { ws, asked, finish } = slowWorkspace();
    const calls: AgentCalls = { inFlight: 1, scanning: 0, lastEnded: performance.now() };
    let held = 0;
    const done = warmSearches(ws, '/nowhere', calls, { since: performance.now() - 2000, held: () => { held++; } });
    await tick(50);
    // Before the review of start42 the first began at once beside the agent's call ({ asked: 1, held: 1 }).
    expect({ asked: asked(), held }).toEqual({ asked: 0, held: 1 });
    calls.stopped = true;
    finish();
    expect(await done).toBe(0);
  });
});
