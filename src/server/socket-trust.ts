// Whether a workspace server's socket may be trusted: its directory and the socket itself must be this
// user's alone (owner, no group or other bits, no symbolic link), because whoever listens on that name
// receives every query and working directory and answers as if it were simgrep. The client checks
// before connecting and the server before listening; both read with lstat, so a link is never followed.
import { lstatSync, type Stats } from 'node:fs';
import path from 'node:path';

export type SocketTrust =
  /** Nothing there: no server runs (the caller answers by itself, silently). */
  | { kind: 'absent' }
  | { kind: 'trusted' }
  /** Something is there that another user could control: `why` names the path and the fix. */
  | { kind: 'untrusted'; why: string };

/** This process's uid (0 where there are none: Windows, whose named pipes have no file to check). */
export function currentUid(): number {
  return typeof process.getuid === 'function' ? process.getuid() : 0;
}

/** Why `dir` may not hold this user's sockets (null: it may); a missing directory is for the caller to decide. */
export function runtimeDirProblem(dir: string, st: Stats, uid = currentUid()): string | null {
  const alternative = 'or set SIMGREP_RUNTIME_DIR to a directory only you can write (mode 700)';
  if (st.isSymbolicLink()) return `${dir} is a symbolic link, not a directory of yours: remove it (rm ${dir}), ${alternative}`;
  if (!st.isDirectory()) return `${dir} is not a directory: remove it (rm ${dir}), ${alternative}`;
  if (st.uid !== uid) return `${dir} belongs to uid ${st.uid}, not to you (uid ${uid}): another user may be listening there; ${alternative.replace(/^or /, '')}`;
  if ((st.mode & 0o077) !== 0) return `${dir} has mode ${octal(st.mode)}, open to other users: chmod 700 ${dir}, ${alternative}`;
  return null;
}

/** Whether the socket at `socket` (in its per-user directory) may be connected to. */
export function socketTrust(socket: string, uid = currentUid()): SocketTrust {
  if (process.platform === 'win32') return { kind: 'trusted' }; // a named pipe: no file, owner or mode to check
  try {
    return check(socket, uid);
  } catch (e) {
    // Not ENOENT (EACCES, ELOOP, …): what cannot be checked is not trusted.
    return { kind: 'untrusted', why: `${socket} cannot be checked (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): check its directory's owner and mode` };
  }
}

function check(socket: string, uid: number): SocketTrust {
  const dir = path.dirname(socket);
  const dirStat = lstatOrNull(dir);
  if (!dirStat) return { kind: 'absent' };
  const dirWhy = runtimeDirProblem(dir, dirStat, uid);
  if (dirWhy) return { kind: 'untrusted', why: dirWhy };
  const st = lstatOrNull(socket);
  if (!st) return { kind: 'absent' };
  if (st.isSymbolicLink()) return { kind: 'untrusted', why: `${socket} is a symbolic link, not a server's socket: remove it (rm ${socket})` };
  if (!st.isSocket()) return { kind: 'untrusted', why: `${socket} is not a socket: remove it (rm ${socket})` };
  if (st.uid !== uid) return { kind: 'untrusted', why: `${socket} belongs to uid ${st.uid}, not to you (uid ${uid}): remove it (rm ${socket})` };
  if ((st.mode & 0o077) !== 0) return { kind: 'untrusted', why: `${socket} has mode ${octal(st.mode)}, open to other users (simgrep serve makes it 600): remove it (rm ${socket}) and start the server again` };
  return { kind: 'trusted' };
}

function lstatOrNull(p: string): Stats | null {
  try {
    return lstatSync(p);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

function octal(mode: number): string {
  return (mode & 0o777).toString(8).padStart(3, '0');
}
