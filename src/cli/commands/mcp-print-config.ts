// simgrep mcp --print-config [CLIENT] [ROOT]: the entry that adds this MCP server to CLIENT, on stdout
// (so it can be piped into the file), and where it goes, on stderr. Paths are absolute: this node
// binary, this CLI entry (symlinks resolved: an npm global's bin link or a clone's dist/), the root.
import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { SimgrepError } from '../../errors.js';
import { clientList, findClient, MCP_CLIENTS, type ServerEntry } from '../../mcp/client-config.js';
import { expandHome, looksLikePath } from '../../model/resolve.js';
import type { ParsedFlags } from '../flags.js';

/** Variables the server reads that a client started from a desktop would not otherwise have. */
const CARRIED_ENV = ['SIMGREP_HOME', 'SIMGREP_CACHE_DIR', 'SIMGREP_MODEL', 'HF_HUB_OFFLINE'] as const;

export function runPrintConfig(flags: ParsedFlags, args: string[]): number {
  const [name, root, ...rest] = args;
  if (name === undefined) {
    process.stdout.write(`simgrep mcp --print-config CLIENT [ROOT] prints the entry for one of:\n${clientList()}\n`);
    return 0;
  }
  const client = findClient(name);
  if (!client) throw new SimgrepError('BAD_FLAG', `unknown MCP client "${name}"; --print-config knows:\n${clientList()}`);
  if (rest.length > 0) throw new SimgrepError('BAD_FLAG', 'usage: simgrep mcp --print-config CLIENT [ROOT] (one root directory at most)');
  const entry = serverEntry(flags, root ?? process.cwd());
  process.stderr.write(`simgrep: ${client.label}: ${client.where}\n`);
  process.stdout.write(client.render(entry));
  return 0;
}

export function serverEntry(flags: ParsedFlags, root: string): ServerEntry {
  const dir = path.resolve(root);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new SimgrepError('BAD_FLAG', `the root to serve must be an existing directory (got ${dir}); pass it after the client: simgrep mcp --print-config ${MCP_CLIENTS[0].name} /path/to/project`);
  }
  const cli = realpathSync(path.resolve(process.argv[1]));
  const engine: string[] = [];
  if (typeof flags.model === 'string') engine.push('--model', absoluteIfLocal(flags.model));
  if (typeof flags.concurrency === 'number') engine.push('-J', String(flags.concurrency));
  if (typeof flags.embedder === 'string') engine.push('--embedder', flags.embedder);
  if (flags.offline === true) engine.push('--offline');
  const env: Record<string, string> = {};
  for (const k of CARRIED_ENV) {
    const v = process.env[k];
    if (v) env[k] = k === 'HF_HUB_OFFLINE' ? v : k === 'SIMGREP_MODEL' ? absoluteIfLocal(v) : path.resolve(v);
  }
  return { command: process.execPath, args: [cli, 'mcp', dir, ...engine], env };
}

/**
 * A model named by a local path is made absolute (`~` expanded: a client's JSON or TOML does not expand it);
 * a Hugging Face id is kept. A path that is not there yet is still a path (`./models/potion`, the docs'
 * example; until audit44 it was printed relative, and the client resolved it from its own directory).
 */
function absoluteIfLocal(p: string): string {
  const local = expandHome(p);
  if (existsSync(local)) return path.resolve(local);
  if (!looksLikePath(p)) return p;
  const abs = path.resolve(local);
  process.stderr.write(`simgrep: note: the model directory ${abs} does not exist yet; the server fails its first search until it does\n`);
  return abs;
}
