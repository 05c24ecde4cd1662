// The MCP benches' client (agents.ts, mcp-agent.ts): the SDK's own stdio client on the built CLI's
// `simgrep mcp TREE` with the bench model, as an agent's client spawns it; the server's last stderr is
// kept for the benches' error messages.
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { DEFAULT_BENCH_MODEL_DIR, REPO_ROOT } from './bench-model.js';

/**
 * A home of this run's own under `homes` (run-<time>-<pid>), after removing those of earlier runs whose process
 * is gone (one killed mid-run leaves its home): a run beside this one keeps its home (before, each run removed
 * all of `homes` at its start, the other run's index and engine key with it).
 */
export function runHome(homes: string): string {
  mkdirSync(homes, { recursive: true });
  for (const name of readdirSync(homes)) {
    const pid = Number(/^run-\d+-(\d+)$/.exec(name)?.[1]);
    if (pid && pid !== process.pid && alive(pid)) continue;
    rmSync(path.join(homes, name), { recursive: true, force: true });
  }
  return path.join(homes, `run-${Date.now()}-${process.pid}`);
}

const alive = (pid: number): boolean => { try { process.kill(pid, 0); return true; } catch (e) { return (e as NodeJS.ErrnoException).code === 'EPERM'; } };

const CLI = path.join(REPO_ROOT, 'dist/src/cli/main.js');

export interface BenchMcp {
  client: Client;
  transport: StdioClientTransport;
  /** The server's last 4,000 characters on stderr. */
  stderr(): string;
}

/**
 * A client (not connected yet) for `simgrep mcp tree`; with profDir, the front's CPU profile goes there; `cli`:
 * another build's dist/src/cli/main.js (a side-by-side run), else this checkout's.
 */
export function spawnBenchMcp(o: { tree: string; env: Record<string, string>; name: string; profDir: string | null; cli?: string }): BenchMcp {
  if (o.profDir) mkdirSync(o.profDir, { recursive: true });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...(o.profDir ? ['--cpu-prof', '--cpu-prof-dir', o.profDir] : []), o.cli ?? CLI, 'mcp', o.tree, '--model', DEFAULT_BENCH_MODEL_DIR, '-J', '2'],
    env: { ...process.env as Record<string, string>, ...o.env },
    cwd: REPO_ROOT,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d) => { stderr = (stderr + String(d)).slice(-4000); });
  return { client: new Client({ name: o.name, version: '0.0.0' }), transport, stderr: () => stderr };
}
