// An MCP call whose client gave up (engine40's review): before, it ran to its end in the resident engine,
// a scan holding a core that no one waited for, and every other agent's call waited its turn behind it.
// Now the SDK client's cancellation (an aborted signal, its request timeout) or its going away stops the
// run, unless another front shares it, and the turn passes on. The engine's CPU time (/proc) shows the run
// stopped, not only the client's error. Through the MCP SDK's client and the real `simgrep mcp` fronts.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath, runCli } from '../helpers/cli.js';
import { cpuMs, untilWarmedUp } from '../helpers/engine-cpu.js';
import { isolatedHome } from '../helpers/isolated-home.js';
import { mcpClient } from '../helpers/mcp-client.js';

type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, unknown>; _meta?: Record<string, unknown> };

let home: ReturnType<typeof isolatedHome>;
let root = '';
let runDir = '';
const clients: Client[] = [];
/** Two fronts made before the tests, which each test may use (every test sets up the rest of what it needs). */
let first: Client;
let second: Client;
let engine = 0;
/** The engine's CPU time (ms) of one whole scan of the tree. */
let fullScanMs = 0;
const TOPICS = ['upload', 'invoice', 'socket', 'parser', 'render', 'cache', 'token', 'queue'];

async function connect(): Promise<Client> {
  const client = await mcpClient(root, { ...home.env, SIMGREP_RUNTIME_DIR: runDir }, undefined, { shared: true });
  clients.push(client);
  return client;
}

/**
 * A search in line mode: the tree is indexed (no background build takes CPU meanwhile), and a line-mode
 * search scans every file on the engine's one thread (-J 0). `top_k` tells calls apart at the same cost.
 */
const scan = (topK: number) => ({ query: 'retry the invoice upload over the socket', mode: 'line', top_k: topK, n_lines: 1 });
const call = (c: Client, args: Record<string, unknown>, signal?: AbortSignal) =>
  c.callTool({ name: 'search', arguments: args }, undefined, { timeout: 120_000, signal }) as Promise<ToolResult>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Waits until the engine has spent `ms` of CPU since `from`: the run is under way. */
async function spent(from: number, ms: number): Promise<void> {
  for (const end = Date.now() + 60_000; cpuMs(engine) - from < ms;) {
    if (Date.now() > end) throw new Error(`the engine spent ${cpuMs(engine) - from} ms of CPU in 60 s, not ${ms}`);
    await sleep(10);
  }
}
const engineLog = () => {
  const file = readdirSync(runDir, { recursive: true }).map(String).find((f) => f.endsWith('.log'))!;
  return readFileSync(path.join(runDir, file), 'utf8');
};
const alive = (pid: number) => { try { process.kill(pid, 0); return true; } catch { return false; } };
/** The engine's CPU time (ms) of one whole scan, now. */
async function scanCost(): Promise<number> {
  const before = cpuMs(engine);
  expect((await call(first, scan(4))).isError).toBeFalsy();
  return cpuMs(engine) - before;
}

beforeAll(async () => {
  home = isolatedHome('simgrep-mcp-cancel-');
  root = path.join(home.dir, 'project');
  runDir = path.join(home.dir, 'run');
  // 2,000 files, 126,000 lines: a line-mode scan takes ~1.5 s of CPU at rest.
  for (let d = 0; d < 20; d++) {
    mkdirSync(path.join(root, `m${d}`), { recursive: true });
    for (let f = 0; f < 100; f++) {
      const t = TOPICS[(d * 100 + f) % TOPICS.length];
      const body = Array.from({ length: 60 }, (_, i) => `  const ${t}${i} = ${t}Store.load(input, ${f * 31 + i}); // ${t} step ${i} of ${f} in module ${d}`);
      writeFileSync(path.join(root, `m${d}`, `${t}-${f}.ts`), `export function ${t}Step${f}(input) {\n${body.join('\n')}\n  return ${t}0;\n}\n`);
    }
  }
  const indexed = await runCli(['index', root], { env: home.env });
  expect(indexed.code, indexed.stderr).toBe(0);
  [first, second] = [await connect(), await connect()];
  engine = ((await call(first, { ...scan(3), directory: 'm0' }))._meta?.['simgrep/engine'] as { pid: number }).pid;
  // The engine started over the index built above: its made-up searches (mcp/warm-searches.ts) run while no
  // call is under way, and are done before any test counts the engine's CPU, and so is what runs after them
  // (the chunk warm-up, the start's keeping of the prose documents): the engine's CPU stays flat.
  await untilWarmedUp(engine, engineLog);
  // A whole scan, twice (the first warms the tokenizer's memo): the second's CPU is what a scan costs.
  await call(first, scan(4));
  fullScanMs = await scanCost();
  expect(fullScanMs).toBeGreaterThan(300);
}, 180_000);

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  if (engine && alive(engine)) process.kill(engine, 'SIGKILL');
  for (let i = 0; i < 200 && engine && alive(engine); i++) await sleep(25);
  home.restore();
});

describe.skipIf(process.platform !== 'linux')('simgrep mcp: a call its client cancelled', () => {
  it('stops its scan, and the next call is answered (before: the scan ran on, the next call waited for it)', async () => {
    const [a, b] = [first, second];
    const small = { ...scan(3), directory: 'm0' };
    const expected = await call(b, small);
    const stop = new AbortController();
    const from = cpuMs(engine);
    const cancelled = call(a, scan(9), stop.signal);
    await spent(from, fullScanMs * 0.2);
    const at = cpuMs(engine);
    stop.abort('the agent moved on');
    await expect(cancelled).rejects.toThrow(/the agent moved on/);
    const next = await call(b, small);
    await sleep(300);
    const after = cpuMs(engine) - at;
    expect(next.isError, next.content[0].text).toBeFalsy();
    expect(next.structuredContent).toEqual(expected.structuredContent);
    // The rest of the scan (~80% of a whole one) is not run: what the engine spent after the cancel is the
    // small call's and the scan's last batch.
    expect(after, `${after} ms of CPU after the cancel; a whole scan is ${fullScanMs} ms`).toBeLessThan(fullScanMs * 0.4);
    expect(engineLog()).toMatch(/a call was cancelled \(\["search",\{"mode":"line","n_lines":1,"query":"retry the invoice upload over the socket","top_k":9\}\]\): its run stopped/);
  }, 120_000);

  it('the SDK client\'s request timeout cancels as its signal does: the scan stops', async () => {
    const b = second;
    const small = { ...scan(3), directory: 'm2' };
    const expected = await call(b, small);
    const from = cpuMs(engine);
    // Past its timeout the client sends notifications/cancelled (shared/protocol.js), as an agent's 60 s default does.
    const timedOut = first.callTool({ name: 'search', arguments: scan(11) }, undefined, { timeout: 1 });
    await expect(timedOut).rejects.toThrow(/Request timed out/);
    const at = cpuMs(engine);
    const next = await call(b, small);
    await sleep(300);
    const after = cpuMs(engine) - at;
    expect(next.structuredContent).toEqual(expected.structuredContent);
    expect(after + (at - from), `${after} ms of CPU after the timeout; a whole scan is ${fullScanMs} ms`).toBeLessThan(fullScanMs * 0.4);
    expect(engineLog()).toMatch(/a call was cancelled \(\["search",\{"mode":"line","n_lines":1,"query":"retry the invoice upload over the socket","top_k":11\}\]\): (its run stopped|not run)/);
  }, 120_000);

  it('two fronts share a run: one cancels, the other gets the whole answer; a call cancelled while it waits never runs', async () => {
    const [a, b, c, d] = [first, second, await connect(), await connect()];
    // What a whole scan costs now, at the load this test runs under (beforeAll's may be minutes old).
    const wholeScan = await scanCost();
    const from = cpuMs(engine);
    const opening = call(a, scan(5));
    await spent(from, fullScanMs * 0.1);
    // While the first runs: D's call, then B's and C's identical ones, which share one run.
    const dStop = new AbortController();
    const dropped = call(d, scan(8), dStop.signal);
    await sleep(100);
    const bStop = new AbortController();
    const theirs = call(b, scan(6), bStop.signal);
    const mine = call(c, scan(6));
    await sleep(100);
    dStop.abort('not needed');
    await expect(dropped).rejects.toThrow(/not needed/);
    expect((await opening).isError).toBeFalsy();
    // The shared run is under way: B gives up, C still waits for it.
    const shared = cpuMs(engine);
    await spent(shared, fullScanMs * 0.2);
    bStop.abort('B moved on');
    await expect(theirs).rejects.toThrow(/B moved on/);
    const answer = await mine;
    const total = cpuMs(engine) - from;
    expect(answer.isError, answer.content[0].text).toBeFalsy();
    // Two whole scans ran (the first, the shared one); before, D's call ran between them (three: 2.7-2.8 whole
    // scans measured). The log below says D's call was not run; the bound only catches a third scan, with room
    // for the load to shift (two copies of this file at once measured 1.73 and 2.02 against beforeAll's scan).
    expect(total, `${total} ms of CPU for the first call and the shared one; a whole scan is ${wholeScan} ms`).toBeLessThan(wholeScan * 2.6);
    // The whole answer: what the same call answers on its own.
    const alone = await call(d, scan(6));
    expect(answer.structuredContent).toEqual(alone.structuredContent);
    expect((answer.structuredContent?.matches as unknown[]).length).toBe(6);
    const log = engineLog();
    expect(log).toMatch(/a call was cancelled \(\["search",\{"mode":"line","n_lines":1,"query":"retry the invoice upload over the socket","top_k":8\}\]\): not run/);
    expect(log).toMatch(/a call was cancelled \(\["search",\{"mode":"line","n_lines":1,"query":"retry the invoice upload over the socket","top_k":6\}\]\): its run goes on for 1 other call\n/);
  }, 180_000);

  it('simgrep mcp --no-server (one process, no engine) stops a cancelled scan too', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cliPath, 'mcp', root, '--no-server', '-J', '0'],
      env: { ...process.env as Record<string, string>, ...home.env, SIMGREP_RUNTIME_DIR: runDir, HF_HUB_OFFLINE: '1' },
      stderr: 'ignore',
    });
    const alone = new Client({ name: 'simgrep-e2e-cancel-alone', version: '0.0.0' });
    await alone.connect(transport);
    try {
      const pid = transport.pid!;
      const small = { ...scan(3), directory: 'm3' };
      const expected = await call(alone, small);
      const stop = new AbortController();
      const from = cpuMs(pid);
      const cancelled = call(alone, scan(12), stop.signal);
      for (const end = Date.now() + 60_000; cpuMs(pid) - from < fullScanMs * 0.2 && Date.now() < end;) await sleep(10);
      const at = cpuMs(pid);
      stop.abort('moved on');
      await expect(cancelled).rejects.toThrow(/moved on/);
      const next = await call(alone, small);
      await sleep(300);
      const after = cpuMs(pid) - at;
      expect(next.structuredContent).toEqual(expected.structuredContent);
      expect(after, `${after} ms of CPU after the cancel; a whole scan (in the engine) is ${fullScanMs} ms`).toBeLessThan(fullScanMs * 0.4);
    } finally {
      await alone.close();
    }
  }, 120_000);

  it('a front whose client goes away stops its call running; the next call is answered', async () => {
    const gone = await connect();
    const b = second;
    const small = { ...scan(3), directory: 'm1' };
    const expected = await call(b, small);
    const from = cpuMs(engine);
    const left = call(gone, scan(10)).catch(() => null);
    await spent(from, fullScanMs * 0.2);
    const at = cpuMs(engine);
    await gone.close();
    await left;
    const next = await call(b, small);
    await sleep(300);
    const after = cpuMs(engine) - at;
    expect(next.structuredContent).toEqual(expected.structuredContent);
    expect(after, `${after} ms of CPU after the client went away; a whole scan is ${fullScanMs} ms`).toBeLessThan(fullScanMs * 0.4);
    // Its front connected once (before: again once its client had gone, re-sending the call no one waited for).
    expect(engineLog().match(/ connected \(/g)).toHaveLength(clients.length);
  }, 120_000);
});
