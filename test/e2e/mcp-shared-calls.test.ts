// Several agents on one resident engine (issue 30, trial39): after the engine is killed (kill -9) the
// waiting `simgrep mcp` fronts start a new one, and their identical searches ran one after another, each
// a scan of its own while the new engine rebuilt the index (24, 39, 85 s at load ~14: the last past the
// MCP client's 60 s timeout). Identical calls still waiting now share one run; and the fronts take turns,
// so one agent's burst of calls does not hold another's behind all of it. Through the MCP SDK's client.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedHome } from '../helpers/isolated-home.js';
import { mcpClient } from '../helpers/mcp-client.js';

type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, unknown>; _meta?: Record<string, unknown> };

let home: ReturnType<typeof isolatedHome>;
let root = '';
let runDir = '';
const clients: Client[] = [];
const engines = new Set<number>();
const TOPICS = ['upload', 'invoice', 'socket', 'parser', 'render', 'cache', 'token', 'queue'];

async function connect(): Promise<Client> {
  const client = await mcpClient(root, { ...home.env, SIMGREP_RUNTIME_DIR: runDir }, undefined, { shared: true });
  clients.push(client);
  return client;
}

const call = async (c: Client, args: Record<string, unknown>) => {
  const r = await c.callTool({ name: 'search', arguments: args }, undefined, { timeout: 120_000 }) as ToolResult;
  const pid = (r._meta?.['simgrep/engine'] as { pid: number } | undefined)?.pid;
  if (pid) engines.add(pid);
  return r;
};
const enginePid = (r: ToolResult) => (r._meta?.['simgrep/engine'] as { pid: number }).pid;
const alive = (pid: number) => { try { process.kill(pid, 0); return true; } catch { return false; } };
const engineLog = () => {
  const dir = readdirSync(runDir, { recursive: true }).map(String).find((f) => f.endsWith('.log'))!;
  return readFileSync(path.join(runDir, dir), 'utf8');
};
const QUERY = { query: 'retry the invoice upload over the socket', top_k: 5, n_lines: 1 };

beforeAll(() => {
  home = isolatedHome('simgrep-mcp-shared-');
  root = path.join(home.dir, 'project');
  runDir = path.join(home.dir, 'run');
  // Enough files that a scan (every search while the index is built) takes a while: the calls sent
  // meanwhile wait for their turn.
  for (let d = 0; d < 12; d++) {
    mkdirSync(path.join(root, `m${d}`), { recursive: true });
    for (let f = 0; f < 50; f++) {
      const t = TOPICS[(d * 50 + f) % TOPICS.length];
      const body = Array.from({ length: 30 }, (_, i) => `  const ${t}${i} = ${t}Store.load(input, ${f * 31 + i}); // ${t} step ${i} of ${f} in module ${d}`);
      writeFileSync(path.join(root, `m${d}`, `${t}-${f}.ts`), `export function ${t}Step${f}(input) {\n${body.join('\n')}\n  return ${t}0;\n}\n`);
    }
  }
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  for (const pid of engines) if (alive(pid)) process.kill(pid, 'SIGKILL');
  for (const pid of engines) for (let i = 0; i < 200 && alive(pid); i++) await new Promise((r) => setTimeout(r, 25));
  home.restore();
});

describe('simgrep mcp: calls of many fronts on one engine', () => {
  it('fronts take turns: a call of one front is answered before the rest of another front\'s burst', async () => {
    const [a, b] = [await connect(), await connect()];
    const done: string[] = [];
    const ask = (c: Client, name: string, query: string) => call(c, { ...QUERY, query }).then((r) => { done.push(name); return r; });
    // The first search of the cold tree is a scan: A's other two and B's wait behind it.
    const burst = [ask(a, 'a1', 'upload the invoice'), ask(a, 'a2', 'parse the socket token'), ask(a, 'a3', 'render the cache queue')];
    await new Promise((r) => setTimeout(r, 50));
    const theirs = ask(b, 'b1', 'load the token store');
    const answers = await Promise.all([...burst, theirs]);
    for (const r of answers) expect(r.isError, r.content[0].text).toBeFalsy();
    expect(answers[0].structuredContent?.index).toBe('building');
    // One at a time, the front served longest ago first: a1, b1, a2, a3 (before: a1, a2, a3, b1).
    expect(done.indexOf('b1'), done.join(' ')).toBeLessThan(done.indexOf('a3'));
  }, 120_000);

  it('after the engine is killed, the same search from every front is answered by one run', async () => {
    const fronts = [clients[0], clients[1], await connect(), await connect()];
    const before = await call(fronts[0], QUERY);
    // The index complete or not, the new engine finds it cut short (no workspace.json, as after a kill
    // mid-build): it rebuilds it in the background and the searches read the files meanwhile.
    await expect.poll(async () => (await fronts[1].callTool({ name: 'status', arguments: {} }) as ToolResult).structuredContent?.indexed, { timeout: 60_000, interval: 200 }).toBe(true);
    const pid = enginePid(before);
    process.kill(pid, 'SIGKILL');
    await expect.poll(() => alive(pid), { timeout: 5_000, interval: 50 }).toBe(false);
    const workspaces = path.join(home.env.SIMGREP_HOME, 'workspaces');
    for (const w of readdirSync(workspaces)) rmSync(path.join(workspaces, w, 'workspace.json'), { force: true });

    const answers = await Promise.all(fronts.map((f) => call(f, QUERY)));
    const next = enginePid(answers[0]);
    expect(next).not.toBe(pid);
    for (const r of answers) {
      expect(r.isError, r.content[0].text).toBeFalsy();
      expect(enginePid(r)).toBe(next);
      expect(r.structuredContent?.matches).toEqual(before.structuredContent?.matches);
    }
    // The first call runs as it comes; the three that came while it ran share the next run (before: three runs, one after another).
    expect(engineLog()).toMatch(/one run answered [34] identical calls \(\["search",\{"n_lines":1,"query":"retry the invoice upload over the socket","top_k":5\}\]/);
  }, 180_000);
});
