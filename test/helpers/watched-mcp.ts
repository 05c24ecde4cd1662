// The cancellation tests' MCP set-up: a fresh resident engine's tool runner over `real`, behind the real MCP
// server and the SDK's own client (in memory), with the runner's answers to one tool kept with their time:
// a call the client cancelled is answered to the server, never read by the client. And their tree: many
// small files whose index an engine since closed built, its snapshot file removed (lost, or removed as
// damaged), so that the next load rebuilds it from the store.
import { mkdirSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createActionEngine } from '../../src/actions/engine.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { createToolRunner } from '../../src/mcp/tools.js';
import type { WireToolResult } from '../../src/server/protocol.js';
import { defaultName, workspaceDir } from '../../src/workspace/registry.js';

export interface WatchedMcp {
  client: Client;
  /** What the runner answered each call of the watched tool, and when (performance.now()). */
  answered: { r: WireToolResult; at: number }[];
  /** Closes the client, the runner and the engine. */
  close(): Promise<void>;
}

export async function watchedMcp(real: string, tool: string, clientName: string): Promise<WatchedMcp> {
  const engine = createActionEngine({ concurrency: 0, resident: true });
  const runner = createToolRunner(engine, { real, given: real });
  const answered: { r: WireToolResult; at: number }[] = [];
  const [ours, theirs] = InMemoryTransport.createLinkedPair();
  await createMcpServer({
    tools: {
      call: async (name, args, o) => {
        const r = await runner.call(name, args, o);
        if (name === tool) answered.push({ r, at: performance.now() });
        return r;
      },
    },
    version: '0.0.0',
  }).connect(ours);
  const client = new Client({ name: clientName, version: '0.0.0' });
  await client.connect(theirs);
  return {
    client,
    answered,
    close: async () => {
      await client.close();
      await runner.close!();
      await engine.close();
    },
  };
}

/**
 * `dirs` x `perDir` files of 40 lines under `home/tree`, indexed by an engine since closed, the snapshot file
 * then removed: the next status or search rebuilds it from the store (every file read and chunked). The
 * tree's real path.
 */
export async function indexWithSnapshotLost(homeDir: string, dirs: number, perDir: number): Promise<string> {
  const tree = path.join(homeDir, 'tree');
  for (let d = 0; d < dirs; d++) {
    mkdirSync(path.join(tree, `d${d}`), { recursive: true });
    for (let f = 0; f < perDir; f++) writeFileSync(path.join(tree, `d${d}`, `f${f}.ts`), Array.from({ length: 40 }, (_, j) => `export const upload${d}x${f}x${j} = retry(${d}, ${f}, ${j}); // retry failed uploads`).join('\n') + '\n');
  }
  const real = realpathSync(tree);
  const before = createActionEngine({ concurrency: 0, resident: true });
  await before.workspace({ name: defaultName([real]) }).index([real]);
  await before.close();
  const dir = workspaceDir(defaultName([real]));
  for (const f of readdirSync(dir)) if (/^snapshot\b(?!\.prose)/.test(f)) rmSync(path.join(dir, f));
  return real;
}
