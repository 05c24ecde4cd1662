// One resident engine for many agents (issue 30): two `simgrep mcp` processes over one root, driven by
// the MCP SDK's own client, are answered by one engine (one pid, one socket), with the matches a
// --no-server process finds itself; `status` says building while the first index builds (it said
// indexed: true over a half-built index); the engine stops when idle and the next call starts another,
// as it does after the engine is killed with kill -9;
// where no engine can be trusted the front answers itself, saying so once.
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath } from '../helpers/cli.js';
import { isolatedHome } from '../helpers/isolated-home.js';

type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, unknown>; _meta?: Record<string, unknown> };

let home: ReturnType<typeof isolatedHome>;
let root = '';
let runDir = '';
const clients: Client[] = [];
const TOPICS = ['upload', 'invoice', 'socket', 'parser', 'render', 'cache', 'token', 'queue'];

async function connect(extra: string[], env: Record<string, string> = {}, onStderr?: (s: string) => void): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'mcp', root, '-J', '0', ...extra],
    env: { ...process.env as Record<string, string>, ...home.env, SIMGREP_RUNTIME_DIR: runDir, HF_HUB_OFFLINE: '1', ...env },
    stderr: onStderr ? 'pipe' : 'ignore',
  });
  transport.stderr?.on('data', (d) => onStderr?.(String(d)));
  const client = new Client({ name: 'simgrep-e2e-engine', version: '0.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const call = (c: Client, name: string, args: Record<string, unknown>) => c.callTool({ name, arguments: args }) as Promise<ToolResult>;
const enginePid = (r: ToolResult) => (r._meta?.['simgrep/engine'] as { pid: number } | undefined)?.pid;
const sockets = () => (existsSync(runDir) ? readdirSync(runDir, { recursive: true }).map(String).filter((f) => f.endsWith('.sock')) : []);
const alive = (pid: number) => { try { process.kill(pid, 0); return true; } catch { return false; } };
const QUERY = { query: 'retry the invoice upload over the socket', top_k: 5, n_lines: 1 };

beforeAll(() => {
  home = isolatedHome('simgrep-mcp-engine-');
  root = path.join(home.dir, 'project');
  runDir = path.join(home.dir, 'run');
  // Enough files that the first index build is still running when the first answer comes back.
  for (let d = 0; d < 4; d++) {
    mkdirSync(path.join(root, `m${d}`), { recursive: true });
    for (let f = 0; f < 20; f++) {
      const t = TOPICS[(d * 20 + f) % TOPICS.length];
      writeFileSync(path.join(root, `m${d}`, `${t}-${f}.ts`), `export function ${t}Step${f}(input) {\n  // ${t} handling, step ${f} of module ${d}\n  return ${t}Store.save(input, ${f});\n}\n`);
    }
  }
});
let lastEngine = 0;
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  // The last engine outlives its fronts for a while, writing under the home removed next.
  if (lastEngine > 0 && alive(lastEngine)) {
    process.kill(lastEngine, 'SIGKILL');
    for (let i = 0; i < 200 && alive(lastEngine); i++) await new Promise((r) => setTimeout(r, 25));
  }
  home.restore();
});

describe('simgrep mcp: one resident engine for many agents', () => {
  it('two fronts share one engine: one pid, one socket, the in-process answer, status building then indexed; it stops when idle', async () => {
    const local = await connect(['--no-server'], { SIMGREP_HOME: path.join(home.dir, 'home-local') });
    const own = await call(local, 'search', QUERY);
    expect(own._meta).toBeUndefined();
    // Both handshakes at once: both fronts find no engine, and one engine is started.
    const [a, b] = await Promise.all([connect(['--idle-timeout', '2']), connect(['--idle-timeout', '2'])]);

    const first = await call(a, 'search', QUERY);
    const pid = enginePid(first)!;
    expect(pid).toBeGreaterThan(0);
    expect(first.structuredContent?.index).toBe('building');
    // status said indexed: true over a half-built index while the background build still ran.
    const during = await call(b, 'status', {});
    expect(during.structuredContent).toMatchObject({ indexed: false, building: true });
    expect(during.content[0].text).toMatch(/is being built in the background/);
    expect(enginePid(during)).toBe(pid);
    expect(first.structuredContent?.matches).toEqual(own.structuredContent?.matches);
    expect(sockets()).toHaveLength(1);

    let fresh: ToolResult;
    for (let i = 0; ; i++) {
      fresh = await call(b, 'search', QUERY);
      if (fresh.structuredContent?.index === 'fresh' || i > 300) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(fresh.structuredContent?.index).toBe('fresh');
    expect(enginePid(fresh)).toBe(pid);
    expect(fresh.structuredContent?.matches).toEqual(own.structuredContent?.matches);
    const after = await call(a, 'status', {});
    expect(after.structuredContent).toMatchObject({ indexed: true, files: 80 });
    expect(after.structuredContent?.building).toBeUndefined();

    // Idle (no request for 2 s, both fronts still attached): it stops and takes its socket with it.
    await expect.poll(() => alive(pid), { timeout: 15_000, interval: 200 }).toBe(false);
    expect(sockets()).toEqual([]);
    const again = await call(a, 'search', QUERY);
    expect(enginePid(again)).not.toBe(pid);
    expect(again.structuredContent?.matches).toEqual(own.structuredContent?.matches);
    expect(sockets()).toHaveLength(1);

    // An engine killed with kill -9 leaves its socket file behind: the next call finds it dead, starts
    // another over the stale socket and answers as before (the front replays the session's handshake).
    const second = enginePid(again)!;
    process.kill(second, 'SIGKILL');
    await expect.poll(() => alive(second), { timeout: 5_000, interval: 50 }).toBe(false);
    expect(sockets()).toHaveLength(1);
    const revived = await call(b, 'search', QUERY);
    expect(revived.isError).toBeFalsy();
    expect(enginePid(revived)).not.toBe(second);
    lastEngine = enginePid(revived) ?? 0;
    expect(revived.structuredContent?.matches).toEqual(own.structuredContent?.matches);
    expect(sockets()).toHaveLength(1);

    // A runtime directory others could write: no engine is trusted there; the front answers itself, saying so once.
    const open = path.join(home.dir, 'open-run');
    mkdirSync(path.join(open, `simgrep-${process.getuid!()}`), { recursive: true, mode: 0o777 });
    chmodSync(path.join(open, `simgrep-${process.getuid!()}`), 0o777);
    let err = '';
    const alone = await connect([], { SIMGREP_RUNTIME_DIR: open }, (d) => { err += d; });
    const mine = await call(alone, 'search', QUERY);
    expect(mine._meta).toBeUndefined();
    expect(mine.structuredContent?.matches).toEqual(own.structuredContent?.matches);
    await call(alone, 'status', {});
    expect(err.match(/the resident engine could not be reached \(.*open to other users/g)).toHaveLength(1);
  }, 60_000);
});
