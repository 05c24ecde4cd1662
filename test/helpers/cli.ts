// Spawns the built CLI (dist/) the way a user runs it, and collects stdout, stderr and the exit code.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './shared.js';

export const cliPath = path.join(repoRoot, 'dist', 'src', 'cli', 'main.js');

export interface CliRun { stdout: string; stderr: string; code: number | null }

export function runCli(args: string[], opts: { input?: string | Buffer; cwd?: string; env?: Record<string, string>; onStdout?: (chunk: string) => void } = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, ...args], {
      cwd: opts.cwd,
      env: { ...process.env, HF_HUB_OFFLINE: '1', ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => { stdout += d; opts.onStdout?.(d); });
    child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ stdout, stderr, code }));
    if (opts.input !== undefined) child.stdin.end(opts.input); else child.stdin.end();
  });
}

/**
 * Spawns `cmd` (the CLI: `process.execPath, [cliPath, ...args]`, or a shell that runs it) with stdin closed,
 * and times it to its exit. It is killed after `killMs` (60 s): a run that would never exit (a held pipe or
 * terminal) fails its test on what it printed instead of hanging the suite.
 */
export function timedRun(cmd: string, args: string[], o: { cwd?: string; env?: Record<string, string>; killMs?: number } = {}): Promise<CliRun & { ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: o.cwd, env: { ...process.env, HF_HUB_OFFLINE: '1', ...o.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => { stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; });
    const kill = setTimeout(() => child.kill('SIGKILL'), o.killMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => { clearTimeout(kill); resolve({ stdout, stderr, code, ms: performance.now() - started }); });
  });
}
