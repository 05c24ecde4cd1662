// startEngine writes its lock and its log into the socket directory only once that directory is this
// user's alone. A front checks the directory before it starts an engine, but in a shared temp dir
// another user can make the directory between that check and the start (mkdir's recursive keeps what
// is there) and plant a symbolic link at the log's name: the start then truncated the link's target
// (any file the user can write) and spawned the engine into a directory others can listen in.
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEngine } from '../../../src/mcp/engine-start.js';

let base = '';
beforeEach(() => { base = mkdtempSync(path.join(tmpdir(), 'simgrep-engine-start-')); });
afterEach(() => { rmSync(base, { recursive: true, force: true }); });

/** A runtime directory as another user could leave it, with a link at the log's name to a file of ours. */
function planted(shape: (dir: string) => void) {
  const dir = path.join(base, 'simgrep-0');
  mkdirSync(dir);
  const victim = path.join(base, 'victim.txt');
  writeFileSync(victim, 'precious\n');
  symlinkSync(victim, path.join(dir, 'mcp-x.log'));
  shape(dir);
  const marker = path.join(base, 'spawned');
  const start = startEngine({
    socket: path.join(dir, 'mcp-x.sock'),
    command: [process.execPath, '-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`],
    cwd: base,
    waitMs: 3_000,
  });
  return { dir, victim, marker, start };
}

describe('startEngine into a socket directory it cannot trust', () => {
  it('a directory open to other users: refused, nothing written, nothing spawned', async () => {
    const p = planted((dir) => chmodSync(dir, 0o777));
    expect(await p.start).toBe(`${p.dir} has mode 777, open to other users: chmod 700 ${p.dir}, or set SIMGREP_RUNTIME_DIR to a directory only you can write (mode 700)`);
    expect(readFileSync(p.victim, 'utf8')).toBe('precious\n');
    expect(existsSync(p.marker)).toBe(false);
    expect(existsSync(path.join(p.dir, 'mcp-x.sock.starting'))).toBe(false);
  });

  it.skipIf(process.getuid?.() !== 0)('a directory of another user (mode 700): refused, nothing written, nothing spawned', async () => {
    const p = planted((dir) => { chmodSync(dir, 0o700); chownSync(dir, 4242, 4242); });
    expect(await p.start).toBe(`${p.dir} belongs to uid 4242, not to you (uid 0): another user may be listening there; set SIMGREP_RUNTIME_DIR to a directory only you can write (mode 700)`);
    expect(readFileSync(p.victim, 'utf8')).toBe('precious\n');
    expect(existsSync(p.marker)).toBe(false);
  });

  it('a directory of ours, mode 700, with a link at the log\'s name: the link is not followed', async () => {
    const p = planted((dir) => chmodSync(dir, 0o700));
    await expect(p.start).rejects.toThrow(/ELOOP/);
    expect(readFileSync(p.victim, 'utf8')).toBe('precious\n');
    expect(lstatSync(path.join(p.dir, 'mcp-x.log')).isSymbolicLink()).toBe(true);
    expect(existsSync(p.marker)).toBe(false);
  });
});
