// A search cancelled while it saves changed files (mend41b, the review of cancel41): its save runs to its end
// (it writes the index every later search reads), and the next search must not answer from the index
// before it. On cancel41 the cancelled run gave up its turn at once: the next search ran beside the save,
// was told by the walk cache that nothing changed (the cancelled search had taken the change events), and
// answered from the old index, saying fresh. Through the MCP SDK's client and the real `simgrep mcp`
// fronts and engine: the cancel lands by the engine's CPU time, well inside the save (~1 s of CPU at rest).
import { appendFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { cpuMs, untilWarmedUp } from '../helpers/engine-cpu.js';
import { isolatedHome } from '../helpers/isolated-home.js';
import { mcpClient } from '../helpers/mcp-client.js';

type Match = { path: string; match_line: number; code: string };
type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: { index?: string; matches?: Match[] }; _meta?: Record<string, unknown> };

let home: ReturnType<typeof isolatedHome>;
let root = '';
let runDir = '';
const clients: Client[] = [];
let engine = 0;
const FILES = 1500;

async function connect(): Promise<Client> {
  const client = await mcpClient(root, { ...home.env, SIMGREP_RUNTIME_DIR: runDir }, undefined, { shared: true });
  clients.push(client);
  return client;
}

const call = (c: Client, args: Record<string, unknown>, signal?: AbortSignal) =>
  c.callTool({ name: 'search', arguments: args }, undefined, { timeout: 120_000, signal }) as Promise<ToolResult>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const alive = (pid: number) => { try { process.kill(pid, 0); return true; } catch { return false; } };
const engineLog = () => {
  const file = readdirSync(runDir, { recursive: true }).map(String).find((f) => f.endsWith('.log'))!;
  return readFileSync(path.join(runDir, file), 'utf8');
};

beforeAll(async () => {
  home = isolatedHome('simgrep-mcp-cancel-save-');
  root = path.join(home.dir, 'project');
  runDir = path.join(home.dir, 'run');
  mkdirSync(root, { recursive: true });
  for (let i = 0; i < FILES; i++) {
    writeFileSync(path.join(root, `upload${i}.ts`), Array.from({ length: 40 }, (_, j) => `export function retryUpload${i}_${j}(n: number) { return n + ${i * j}; } // retry failed uploads ${j}`).join('\n') + '\n');
  }
  const indexed = await runCli(['index', root], { env: home.env });
  expect(indexed.code, indexed.stderr).toBe(0);
}, 180_000);

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  if (engine && alive(engine)) process.kill(engine, 'SIGKILL');
  for (let i = 0; i < 200 && engine && alive(engine); i++) await sleep(25);
  home.restore();
});

describe.skipIf(process.platform !== 'linux')('simgrep mcp: a search cancelled during its save of changed files', () => {
  it('the next search waits for the save and answers from the files as they are, as a later search does', async () => {
    const [a, b] = [await connect(), await connect()];
    // Twice: the second search of the same paths watches its directories (walk-cache.ts), as an agent's do.
    for (const q of ['warm one', 'warm two']) expect((await call(b, { query: q, top_k: 3 })).isError).toBeFalsy();
    engine = ((await call(b, { query: 'warm three', top_k: 3 }))._meta?.['simgrep/engine'] as { pid: number }).pid;
    // The engine started over the index built before: its made-up searches (mcp/warm-searches.ts) run while no
    // call is under way, and are done before the engine's CPU is counted, and so is what runs after them (the
    // chunk warm-up, the start's keeping of the prose documents): the engine's CPU stays flat.
    await untilWarmedUp(engine, engineLog);
    for (let i = 0; i < FILES; i++) appendFileSync(path.join(root, `upload${i}.ts`), `// changed ${i}: invoice socket parser\n`);
    await sleep(200);
    // Every file changed: the first search saves them all, and is cancelled once the save is under way.
    const stop = new AbortController();
    const from = cpuMs(engine);
    const cancelled = call(a, { query: 'retry failed uploads', top_k: 5 }, stop.signal);
    for (const end = Date.now() + 60_000; cpuMs(engine) - from < 200 && Date.now() < end;) await sleep(10);
    stop.abort('the agent moved on');
    await expect(cancelled).rejects.toThrow(/the agent moved on/);
    const asked = { query: 'invoice socket parser', top_k: 3, n_lines: 1 };
    const next = await call(b, asked);
    // Once the engine is idle (the save and whatever followed it done): the same search again.
    for (let last = -1, now = cpuMs(engine); now !== last; last = now, now = cpuMs(engine)) await sleep(500);
    const later = await call(b, asked);
    expect(next.isError, next.content[0].text).toBeFalsy();
    // Before: the old text (no file held "invoice socket parser" yet), labelled fresh.
    expect(next.structuredContent?.matches?.[0]?.code).toContain('invoice socket parser');
    expect(next.structuredContent).toEqual(later.structuredContent);
    expect(engineLog()).toMatch(/a call was cancelled \(\["search",\{"query":"retry failed uploads","top_k":5\}\]\): its run stopped/);
  }, 180_000);
});
