// Regression (#28, item 1): the CLI trusted a socket another local user planted. With the runtime
// directory shared (/tmp, as for root, cron or CI), another user who made simgrep-<uid>/ first and
// listened on a workspace's socket name received every query and working directory and answered with
// forged results, printed as the victim's own with exit 0. Now the client checks the directory and the
// socket (owner, mode, no link) as the server does, answers by itself and says why in one line.
// The planted listener runs under another uid (a child spawned with uid/gid, so this needs root).
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { socketPathFor } from '../../src/server/socket-path.js';
import { cliPath, runCli } from '../helpers/cli.js';

/** Another local user: any uid but ours will do, it needs no account. */
const OTHER_UID = 54_321;
const isRoot = process.getuid?.() === 0;

let tmp = '';
let tree = '';
const children: ChildProcess[] = [];
const servers: Server[] = [];

/** What a planted listener does: take one request line, report it on stdout, answer with a forged result. */
const LISTENER = `
const net = require('node:net'), fs = require('node:fs'), path = require('node:path');
const sock = process.argv[1];
fs.mkdirSync(path.dirname(sock), { recursive: true, mode: 0o700 });
const result = { filename: '/forged/by/another/user.ts', lines: ['forged'], start: 0, end: 1, match_line: 0, distance: 0, matches: [{ line: 0, distance: 0 }] };
const stats = { files: 1, lines: 1, bytes: 6, skipped: 0, binary: 0, errors: 0, ms: 1 };
const index = { files: 1, indexed: 1, lines: 1, chunks: 1, reused: 0, unchanged: 0, deleted: 0, errors: 0, ms: 1, warnings: [] };
net.createServer((c) => {
  let got = '';
  c.setEncoding('utf8').on('data', (d) => {
    got += d;
    if (!got.includes('\\n')) return;
    process.stdout.write('GOT ' + got);
    c.end(JSON.stringify({ type: 'done', pid: process.pid, workspace: 'victim', search: { results: [result], warnings: [], stats }, index }) + '\\n');
  });
}).listen(sock, () => { fs.chmodSync(sock, 0o777); process.stdout.write('LISTENING uid=' + process.getuid() + '\\n'); });
`;

/** Starts the planted listener on `socket` as `uid`; resolves once it listens, with what it received so far. */
async function plant(socket: string, uid: number): Promise<() => string> {
  const child = spawn(process.execPath, ['-e', LISTENER, socket], { uid, gid: uid, cwd: '/', stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => { err += d; });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (d: string) => { out += d; if (out.includes('LISTENING')) resolve(); });
    child.on('close', (code) => reject(new Error(`the planted listener exited (${code}): ${err}`)));
  });
  expect(out).toContain(`LISTENING uid=${uid}`);
  return () => out;
}

/** A fresh shared runtime directory (sticky and world-writable, as /tmp is) and the environment that points simgrep at it. */
function sharedRuntime(name: string): { env: Record<string, string>; socketDir: string; indexDir: string; socket: string } {
  const run = path.join(tmp, `${name}-run`);
  mkdirSync(run);
  chmodSync(run, 0o1777);
  const env = { SIMGREP_HOME: path.join(tmp, 'home'), SIMGREP_CACHE_DIR: path.join(tmp, 'cache'), SIMGREP_RUNTIME_DIR: run };
  const indexDir = path.join(tmp, `${name}-index`);
  const socket = socketPathFor(indexDir, env);
  return { env, socketDir: path.dirname(socket), indexDir, socket };
}

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-socket-trust-'));
  // The other user must reach the shared runtime directories under it.
  chmodSync(tmp, 0o755);
  tree = path.join(tmp, 'tree');
  mkdirSync(tree);
  writeFileSync(path.join(tree, 'net.ts'), 'export function upload() {\n  // retry the failed upload after a network timeout\n  return send();\n}\n');
  writeFileSync(path.join(tree, 'ui.ts'), 'export const button = render("ok");\n');
});
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  for (const s of servers.splice(0)) s.close();
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('regression #28.1: the CLI trusted a socket another local user planted', () => {
  // Running a listener under another uid needs root; elsewhere the mode-0755 case below still runs.
  it.skipIf(!isRoot)('a listener another user planted in the shared runtime directory gets no query; the CLI answers by itself', async () => {
    const { env, socketDir, indexDir, socket } = sharedRuntime('planted');
    const received = await plant(socket, OTHER_UID);
    expect(lstatSync(socketDir).uid).toBe(OTHER_UID);

    const warning = `simgrep: answering here, not through the workspace server's socket: ${socketDir} belongs to uid ${OTHER_UID}, not to you (uid 0): another user may be listening there; set SIMGREP_RUNTIME_DIR to a directory only you can write (mode 700)\n`;
    const indexed = await runCli(['index', tree, '--index-dir', indexDir], { env });
    expect(indexed.code).toBe(0);
    expect(indexed.stderr.startsWith(warning)).toBe(true);
    expect(indexed.stderr).toMatch(/: 2 files checked, 2 indexed/);

    const searched = await runCli(['retry the upload', tree, '--index-dir', indexDir, '-n', '0', '--top-k', '1'], { env });
    const own = await runCli(['retry the upload', tree, '--index-dir', indexDir, '-n', '0', '--top-k', '1', '--no-server'], { env });
    expect([searched.stdout, searched.stderr, searched.code]).toEqual([own.stdout, warning, 0]);
    expect(own.stdout).toMatch(/^.*tree\/net\.ts:1::2 /);
    expect(received()).not.toContain('GOT');
  });

  it('a runtime directory of ours open to others (mode 0755) is not used, with one line that says how to fix it', async () => {
    const { env, socketDir, indexDir, socket } = sharedRuntime('open');
    mkdirSync(socketDir, { mode: 0o755 });
    chmodSync(socketDir, 0o755);
    let connections = 0;
    const listener = createServer((c) => { connections++; c.destroy(); });
    servers.push(listener);
    await new Promise<void>((resolve) => listener.listen(socket, resolve));
    chmodSync(socket, 0o600);

    expect((await runCli(['index', tree, '--index-dir', indexDir], { env })).code).toBe(0);
    const searched = await runCli(['retry the upload', tree, '--index-dir', indexDir, '-n', '0', '--top-k', '1'], { env });
    const own = await runCli(['retry the upload', tree, '--index-dir', indexDir, '-n', '0', '--top-k', '1', '--no-server'], { env });
    expect([searched.stdout, searched.stderr, searched.code]).toEqual([
      own.stdout,
      `simgrep: answering here, not through the workspace server's socket: ${socketDir} has mode 755, open to other users: chmod 700 ${socketDir}, or set SIMGREP_RUNTIME_DIR to a directory only you can write (mode 700)\n`,
      0,
    ]);
    expect(connections).toBe(0);
    // simgrep serve refuses that directory too, with the same reason.
    const serve = await runCli(['serve', '--index-dir', indexDir], { env });
    expect(serve.code).toBe(2);
    expect(serve.stderr).toContain(`${socketDir} has mode 755, open to other users: chmod 700 ${socketDir}`);
  });

  it('a real server makes its directory 0700 and its socket 0600, and the CLI still goes through it', async () => {
    const { env, socketDir, indexDir, socket } = sharedRuntime('real');
    expect((await runCli(['index', tree, '--index-dir', indexDir], { env })).code).toBe(0);
    const child = spawn(process.execPath, [cliPath, 'serve', '--index-dir', indexDir, '-J', '0'], { env: { ...process.env, HF_HUB_OFFLINE: '1', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(child);
    let err = '';
    await new Promise<void>((resolve, reject) => {
      child.stderr!.setEncoding('utf8').on('data', (d: string) => { err += d; if (err.includes(' served by pid ')) resolve(); });
      child.on('close', (code) => reject(new Error(`serve exited (${code}): ${err}`)));
    });
    expect(existsSync(socket)).toBe(true);
    expect([lstatSync(socketDir).mode & 0o777, lstatSync(socket).mode & 0o777]).toEqual([0o700, 0o600]);
    const searched = await runCli(['retry the upload', tree, '--index-dir', indexDir, '-n', '0', '--top-k', '1', '--stats'], { env });
    expect(searched.code).toBe(0);
    expect(searched.stderr).toMatch(/answered by simgrep serve \(pid \d+\)/);
    expect(searched.stderr).not.toMatch(/answering here/);
  });
});
