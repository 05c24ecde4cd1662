// What the client (and the server) accept as a workspace server's socket, one row per shape an
// attacker or an accident can leave: only a socket of ours, mode 600 or stricter, in a directory of
// ours with no group or other bits, both reached without a symbolic link, is trusted.
import { chmodSync, chownSync, lchownSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { socketTrust, type SocketTrust } from '../../../src/server/socket-trust.js';

const OTHER_UID = 54_321;
const isRoot = process.getuid?.() === 0;
const uid = process.getuid?.() ?? 0;

let tmp = '';
const servers: Server[] = [];

/** A directory `name` (mode `mode`) holding a listening socket `s.sock` (mode `socketMode`). */
async function dirWithSocket(name: string, mode = 0o700, socketMode = 0o600): Promise<string> {
  const dir = path.join(tmp, name);
  mkdirSync(dir);
  chmodSync(dir, mode);
  const socket = path.join(dir, 's.sock');
  const server = createServer();
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  chmodSync(socket, socketMode);
  return socket;
}

type Row = { name: string; root?: true; make: () => Promise<string>; expected: (socket: string) => SocketTrust };

const untrusted = (why: string): SocketTrust => ({ kind: 'untrusted', why });
const fix = 'or set SIMGREP_RUNTIME_DIR to a directory only you can write (mode 700)';

const ROWS: Row[] = [
  { name: 'no directory', make: async () => path.join(tmp, 'missing', 's.sock'), expected: () => ({ kind: 'absent' }) },
  {
    name: 'a private directory without the socket',
    make: async () => { const d = path.join(tmp, 'empty'); mkdirSync(d, { mode: 0o700 }); return path.join(d, 's.sock'); },
    expected: () => ({ kind: 'absent' }),
  },
  { name: 'our socket (600) in our directory (700)', make: () => dirWithSocket('good'), expected: () => ({ kind: 'trusted' }) },
  { name: 'a socket of mode 700 in our directory', make: () => dirWithSocket('good-700', 0o700, 0o700), expected: () => ({ kind: 'trusted' }) },
  {
    name: 'a directory open to others (755)',
    make: () => dirWithSocket('open', 0o755),
    expected: (s) => untrusted(`${path.dirname(s)} has mode 755, open to other users: chmod 700 ${path.dirname(s)}, ${fix}`),
  },
  {
    name: 'a directory open to its group (750)',
    make: () => dirWithSocket('group', 0o750),
    expected: (s) => untrusted(`${path.dirname(s)} has mode 750, open to other users: chmod 700 ${path.dirname(s)}, ${fix}`),
  },
  {
    name: 'a directory that is a symbolic link to a private directory of ours',
    make: async () => { const real = await dirWithSocket('link-target'); const link = path.join(tmp, 'link-dir'); symlinkSync(path.dirname(real), link); return path.join(link, 's.sock'); },
    expected: (s) => untrusted(`${path.dirname(s)} is a symbolic link, not a directory of yours: remove it (rm ${path.dirname(s)}), ${fix}`),
  },
  {
    name: 'a file where the directory should be',
    make: async () => { const f = path.join(tmp, 'file-dir'); writeFileSync(f, ''); return path.join(f, 's.sock'); },
    expected: (s) => untrusted(`${path.dirname(s)} is not a directory: remove it (rm ${path.dirname(s)}), ${fix}`),
  },
  {
    name: 'a socket open to others (666)',
    make: () => dirWithSocket('open-socket', 0o700, 0o666),
    expected: (s) => untrusted(`${s} has mode 666, open to other users (simgrep serve makes it 600): remove it (rm ${s}) and start the server again`),
  },
  {
    name: 'a symbolic link to a good socket',
    make: async () => { const real = await dirWithSocket('socket-link'); const link = path.join(path.dirname(real), 'l.sock'); symlinkSync(real, link); return link; },
    expected: (s) => untrusted(`${s} is a symbolic link, not a server's socket: remove it (rm ${s})`),
  },
  {
    name: 'a regular file in the socket\'s place',
    make: async () => { const d = path.join(tmp, 'plain'); mkdirSync(d, { mode: 0o700 }); const f = path.join(d, 's.sock'); writeFileSync(f, ''); return f; },
    expected: (s) => untrusted(`${s} is not a socket: remove it (rm ${s})`),
  },
  {
    name: 'a directory another user owns',
    root: true,
    make: async () => { const s = await dirWithSocket('foreign-dir'); chownSync(path.dirname(s), OTHER_UID, OTHER_UID); return s; },
    expected: (s) => untrusted(`${path.dirname(s)} belongs to uid ${OTHER_UID}, not to you (uid ${uid}): another user may be listening there; set SIMGREP_RUNTIME_DIR to a directory only you can write (mode 700)`),
  },
  {
    name: 'a socket another user owns, in our directory',
    root: true,
    make: async () => { const s = await dirWithSocket('foreign-socket'); lchownSync(s, OTHER_UID, OTHER_UID); return s; },
    expected: (s) => untrusted(`${s} belongs to uid ${OTHER_UID}, not to you (uid ${uid}): remove it (rm ${s})`),
  },
];

beforeAll(() => { tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-socket-trust-unit-')); });
afterAll(() => {
  for (const s of servers) s.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe.skipIf(process.platform === 'win32')('socketTrust', () => {
  for (const row of ROWS) {
    // Files owned by another uid can only be made by root.
    it.skipIf(row.root && !isRoot)(row.name, async () => {
      const socket = await row.make();
      expect(socketTrust(socket)).toEqual(row.expected(socket));
    });
  }
});
