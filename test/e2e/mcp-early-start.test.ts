// `simgrep mcp` starts its root's resident engine before it loads the rest of the CLI (src/cli/mcp-early.ts,
// issue 30's first answer): the engine is listening before the front has read any message (it was started
// only once the client's first message came), and the front then talks to that engine, starting no other.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath } from '../helpers/cli.js';
import { isolatedHome } from '../helpers/isolated-home.js';
import { connects } from '../../src/mcp/engine-start.js';

let home: ReturnType<typeof isolatedHome>;
let root = '';
let runDir = '';
const sockets = () => (existsSync(runDir) ? readdirSync(runDir, { recursive: true }).map(String).filter((f) => f.endsWith('.sock')).map((f) => path.join(runDir, f)) : []);
const until = async (what: () => boolean | Promise<boolean>, ms: number) => {
  for (const end = Date.now() + ms; Date.now() < end;) { if (await what()) return true; await new Promise((r) => setTimeout(r, 25)); }
  return false;
};

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
    const front = spawn(process.execPath, [cliPath, 'mcp', root, '-J', '0', '--idle-timeout', '1'], {
      env: { ...process.env, ...home.env, SIMGREP_RUNTIME_DIR: runDir, HF_HUB_OFFLINE: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    front.stdout.on('data', (d) => { out += String(d); });
    try {
      // Nothing written to the front yet.
      expect(await until(async () => sockets().length === 1 && await connects(sockets()[0]), 30_000), 'an engine listening with no message sent').toBe(true);
      const [socket] = sockets();
      front.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'early', version: '0' } } })}\n`);
      expect(await until(() => out.includes('\n'), 30_000), 'the initialize answer').toBe(true);
      const answer = JSON.parse(out.slice(0, out.indexOf('\n'))) as { id: number; result?: { serverInfo?: { name?: string } } };
      expect(answer.id).toBe(1);
      expect(answer.result?.serverInfo?.name).toBe('simgrep');
      expect(sockets()).toEqual([socket]);
    } finally {
      front.stdin.end();
      await new Promise((r) => front.once('exit', r));
    }
    // The engine (--idle-timeout 1) stops by itself before the home is removed.
    expect(await until(() => sockets().length === 0, 30_000), 'the engine stopped when idle').toBe(true);
  }, 90_000);
});
