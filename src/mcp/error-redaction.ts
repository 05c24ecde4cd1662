// What a tool error, or a background build's failure, may tell the MCP client: the error's code and
// message with nothing outside the served root in it. The index of every directory lives under
// $SIMGREP_HOME/workspaces: a failure there is named "the index" (the user fixes it from a shell: `simgrep
// workspace status`), never by the user's home directory (trial36: `ENOTDIR: ... scandir
// '/home/me/.local/share/simgrep/workspaces'` came back whole).
import path from 'node:path';
import { isSimgrepError } from '../errors.js';
import { workspacesDir } from '../workspace/registry.js';
import { outsidePlaces } from './outside-places.js';
import { redactError } from './redact.js';
import type { Root } from './scope.js';

/** A thrown value as one line: `CODE: message` for a SimgrepError, else its message. */
export function errorText(e: unknown): string {
  return isSimgrepError(e) ? `${e.code}: ${e.message}` : (e as Error)?.message ?? String(e);
}

/** How many distinct messages the server's log is told of before it may repeat one. */
const LOGGED_MAX = 1000;

/**
 * The redaction of this root's errors (the workspaces' directory and the places outside the root this
 * process knows, outside-places.ts, read once, as the engine's environment has them; `model`: the
 * engine's --model, whose folder is one of them; `outside`: those places where the caller has them already). `args`: the call's own argument strings, shown as they
 * are where the message quotes them. `onRedacted` gets the whole message of each one that lost a path, once per distinct message (an index
 * that cannot be read fails every search the same way): the server's own log, for the user who fixes
 * it (the agent reads only the redacted one).
 */
export function errorRedaction(root: Root, o: { model?: string; outside?: readonly string[]; onRedacted?: (message: string) => void } = {}): (message: string, args?: readonly string[]) => string {
  const { onRedacted } = o;
  const outside = o.outside ?? outsidePlaces({ root: root.real, rootGiven: root.given, model: o.model });
  const r = { root: root.real, rootGiven: root.given, indexDir: path.resolve(workspacesDir()), outside };
  const logged = new Set<string>();
  return (message, args) => {
    const shown = redactError(message, r, args);
    if (shown !== message && !logged.has(message)) {
      if (logged.size >= LOGGED_MAX) logged.clear();
      logged.add(message);
      onRedacted?.(message);
    }
    return shown;
  };
}

/** The strings among a tool call's arguments (and in its lists): what the agent wrote. */
export function argStrings(args: Record<string, unknown>): string[] {
  return Object.values(args).flatMap((v) => (Array.isArray(v) ? v : [v])).filter((v): v is string => typeof v === 'string');
}
