// `simgrep mcp` starts its root's resident engine before it loads the rest of the CLI (src/cli/mcp-early.ts,
// issue 30's first answer): the engine is listening before the front has read any message (it was started
// only once the client's first message came), and the front then talks to that engine, starting no other.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath } from '../helpers/cli.js';
import { isolatedHome } from '../helpers/isolated-home.js';
import { connects } from '../../src/mcp/engine-start.js';

let home: ReturnType<typeof isolatedHome>;
let root = '';
let runDir = '';
const sockets = () => (existsSync(runDir) ? readdirSync(runDir, { recursive: true }).map(String).filter((f) => f.endsWith('.sock')).map((f) => path.join(runDir, f)) : []);
const INIT = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'early', version: '0' } } })}\n`;
const NOT_REACHED = 'could not be reached';
/** The socket of the first test's engine (the same root and flags in every test here). */
let socket = '';
const logOf = (sock: string) => sock.replace(/\.sock$/, '.log');
function spawnFront() {
  const front = spawn(process.execPath, [cliPath, 'mcp', root, '-J', '0', '--idle-timeout', '1'], {
    env: { ...process.env, ...home.env, SIMGREP_RUNTIME_DIR: runDir, HF_HUB_OFFLINE: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const io = { out: '', err: '' };
  front.stdout.on('data', (d) => { io.out += String(d); });
  front.stderr.on('data', (d) => { io.err += String(d); });
  const exit = new Promise<number | null>((r) => front.once('exit', (code) => r(code)));
  return { front, io, exit };
}
function firstAnswer(out: string): { id: number; result?: { serverInfo?: { name?: string } } } {
  return JSON.parse(out.slice(0, out.indexOf('\n'))) as { id: number; result?: { serverInfo?: { name?: string } } };
}
const until = async (what: () => boolean | Promise<boolean>, ms: number) => {
  for (const end = Date.now() + ms; Date.now() < end;) { if (await what()) return true; await new Promise((r) => setTimeout(r, 25)); }
  return false;
};
/** Sends `initialize` to the front and checks it was answered by the engine at `socket`, not by the front's in-process fallback. */
async function answeredByEngine(run: ReturnType<typeof spawnFront>): Promise<void> {
  run.front.stdin.write(INIT);
  expect(await until(() => run.io.out.includes('\n'), 30_000), 'the initialize answer').toBe(true);
  const answer = firstAnswer(run.io.out);
  expect(answer.id).toBe(1);
  expect(answer.result?.serverInfo?.name).toBe('simgrep');
  expect(run.io.err).not.toContain(NOT_REACHED);
  expect(readFileSync(logOf(socket), 'utf8')).toContain(`front pid ${run.front.pid} connected`);
}

beforeAll(() => {
  home = isolatedHome('simgrep-mcp-early-');
  root = path.join(home.dir, 'project');
  runDir = path.join(home.dir, 'run');
  mkdirSync(root, { recursive: true });
  writeFileSync(path.join(root, 'upload.ts'), 'export function retryUpload(file) {\n  return backoff(() => upload(file));\n}\n');
});
afterAll(() => home.restore());

describe('simgrep mcp starts its engine first', () => {
  it('the engine listens before the front reads a message; the first message is answered by it; it stops when idle', async () => {
    const run = spawnFront();
    try {
      // Nothing written to the front yet.
      expect(await until(async () => sockets().length === 1 && await connects(sockets()[0]), 30_000), 'an engine listening with no message sent').toBe(true);
      [socket] = sockets();
      await answeredByEngine(run);
      expect(sockets()).toEqual([socket]);
    } finally {
      run.front.stdin.end();
      await run.exit;
    }
    // The engine (--idle-timeout 1) stops by itself before the home is removed.
    expect(await until(() => sockets().length === 0, 30_000), 'the engine stopped when idle').toBe(true);
  }, 90_000);

  it('an early engine that stopped before the first message is started again (regression: the front answered in process for its whole life)', async () => {
    const run = spawnFront();
    try {
      expect(await until(async () => sockets().length === 1 && await connects(sockets()[0]), 30_000), 'the early engine listening').toBe(true);
      socket ||= sockets()[0];
      // --idle-timeout 1 and no front: the early engine stops before the client says anything.
      expect(await until(() => sockets().length === 0, 30_000), 'the early engine stopped').toBe(true);
      await new Promise((r) => setTimeout(r, 500));
      await answeredByEngine(run);
    } finally {
      run.front.stdin.end();
      await run.exit;
    }
    expect(await until(() => sockets().length === 0, 30_000), 'the engine stopped when idle').toBe(true);
  }, 90_000);

  it('an early start that throws (a directory at its log) is a note and an answer in process, not a crash (regression: an unhandled rejection, exit 1)', async () => {
    // The socket (and so the log's path) is named by the tests above, which run first.
    expect(socket, 'run with the tests above').not.toBe('');
    const log = logOf(socket);
    rmSync(log, { force: true });
    mkdirSync(log);
    try {
      const { front, io, exit } = spawnFront();
      front.stdin.write(INIT);
      expect(await until(() => io.out.includes('\n'), 30_000), 'the initialize answer').toBe(true);
      expect(firstAnswer(io.out).result?.serverInfo?.name).toBe('simgrep');
      front.stdin.end();
      expect(await exit).toBe(0);
      expect(io.err).toContain(`the resident engine could not be reached (EISDIR`);
      expect(io.err).not.toMatch(/Unhandled|\n\s+at /);
    } finally {
      rmSync(log, { recursive: true, force: true });
    }
  }, 90_000);
});
