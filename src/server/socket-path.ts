// Where the resident server of a workspace listens: a Unix socket in a per-user directory (mode 0700),
// named by a hash of the workspace's location, so the CLI finds it from the same flags without reading
// anything else (a socket path must stay under ~100 bytes, which a workspace's own directory may not).
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { realPath } from '../sources/real-paths.js';

/** The directory that holds this user's server sockets. */
export function socketDir(env: NodeJS.ProcessEnv = process.env): string {
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  return path.join(env.SIMGREP_RUNTIME_DIR || env.XDG_RUNTIME_DIR || os.tmpdir(), `simgrep-${uid}`);
}

/** The socket of the server of the workspace at `dir` (which may not exist yet), named by its real location. */
export function socketPathFor(dir: string, env: NodeJS.ProcessEnv = process.env): string {
  const id = createHash('sha256').update(realPath(dir)).digest('hex').slice(0, 20);
  // Windows has named pipes where Unix has sockets (net.listen takes either).
  if (process.platform === 'win32') return `\\\\.\\pipe\\simgrep-${id}`;
  return path.join(socketDir(env), `${id}.sock`);
}
