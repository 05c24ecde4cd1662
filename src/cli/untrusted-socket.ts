// The one line a command prints when it will not ask a workspace's server because the socket, or the
// directory that holds it, could belong to another user (src/server/socket-trust.ts says why).

export function sayUntrusted(why: string): void {
  process.stderr.write(`simgrep: answering here, not through the workspace server's socket: ${why}\n`);
}
