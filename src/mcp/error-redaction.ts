// What a tool error, or a background build's failure, may tell the MCP client: the error's code and
// message with nothing outside the served root in it. The index of every directory lives under
// $SIMGREP_HOME/workspaces: a failure there is named "the index" (the user fixes it from a shell: `simgrep
// workspace status`), never by the user's home directory (trial36: `ENOTDIR: ... scandir
// '/home/me/.local/share/simgrep/workspaces'` came back whole).
import path from 'node:path';
import { isSimgrepError } from '../errors.js';
import { workspacesDir } from '../workspace/registry.js';
import { redactError } from './redact.js';
import type { Root } from './scope.js';

/** A thrown value as one line: `CODE: message` for a SimgrepError, else its message. */
export function errorText(e: unknown): string {
  return isSimgrepError(e) ? `${e.code}: ${e.message}` : (e as Error)?.message ?? String(e);
}

/**
 * The redaction of this root's errors (the workspaces' directory read once, as the engine's environment
 * has it). `onRedacted` gets the whole message of each one that lost a path: the server's own log, for
 * the user who fixes it (the agent reads only the redacted one).
 */
export function errorRedaction(root: Root, onRedacted?: (message: string) => void): (message: string) => string {
  const o = { root: root.real, rootGiven: root.given, indexDir: path.resolve(workspacesDir()) };
  return (message) => {
    const shown = redactError(message, o);
    if (shown !== message) onRedacted?.(message);
    return shown;
  };
}
