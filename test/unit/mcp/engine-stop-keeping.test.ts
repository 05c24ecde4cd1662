// The engine's stop after its idle (or orphan) timeout waits for a background build, not for the keeping of its
// start (review of restart42: settled() waited for it, and it ends only through the close that follows the stop, so
// an idle engine first read and counted every prose document: minutes on a big tree).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { serveEngine } from '../../../src/mcp/engine.js';
import type { ToolRunner } from '../../../src/mcp/tools.js';
import { PROTOCOL } from '../../../src/server/protocol.js';
import { socketDir } from '../../../src/server/socket-path.js';

const dirs: string[] = [];
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

it('engine_stop_does_not_wait_for_keeping: an idle engine stops while the keeping of its start is under way', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'simgrep-stop-'));
  dirs.push(dir);
  process.env.SIMGREP_RUNTIME_DIR = dir;
  const asked: ({ keeping?: boolean } | undefined)[] = [];
  // A runner whose keeping never ends on its own (as one that waits for the agent's pauses, or reads a big tree).
  const runner: ToolRunner = {
    call: async () => ({ content: [] }),
    settled: (o) => { asked.push(o); return o?.keeping === false ? Promise.resolve() : new Promise(() => {}); },
  };
  const events: string[] = [];
  try {
    const engine = await serveEngine({
      runner, root: dir, socket: path.join(socketDir(), 'engine.sock'), version: 'test',
      identity: { protocol: PROTOCOL, version: 'test', model: 'none', embedder: null },
      idleMs: 100, orphanMs: 0, onEvent: (m) => events.push(m),
    });
    const stopped = await Promise.race([engine.stopped.then(() => 'stopped'), new Promise((r) => setTimeout(() => r('running'), 3000))]);
    if (stopped !== 'stopped') await engine.stop();
    expect(stopped).toBe('stopped');
    expect(asked).toEqual([{ keeping: false }]);
    expect(events).toContain('no tool call for 0.1 s; stopping');
  } finally {
    delete process.env.SIMGREP_RUNTIME_DIR;
  }
});
