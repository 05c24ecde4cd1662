// simgrep mcp --print-config: every client's entry parses in its own format (JSON, the TOML subset Codex
// reads, a POSIX shell line) and names the server by absolute paths that exist; the string escapes
// round-trip any text. Pure: no process is spawned (the e2e test starts the printed server).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { serverEntry } from '../../../src/cli/commands/mcp-print-config.js';
import { findClient, MCP_CLIENTS, shellWord, tomlString, type ServerEntry } from '../../../src/mcp/client-config.js';
import { claudeMcpAdd, shellSplit } from '../../helpers/claude-mcp-add.js';

const root = mkdtempSync(path.join(tmpdir(), 'simgrep print config '));
afterAll(() => rmSync(root, { recursive: true, force: true }));


/**
 * The TOML Codex reads, parsed by its lines: one [table] header, then `key = value` where a value is a
 * basic string, an array of them, or an inline table of them (TOML's basic strings and arrays of them
 * are JSON's; a parse failure fails the test).
 */
function parseCodexToml(text: string): { table: string; values: Record<string, unknown> } {
  const [header, ...lines] = text.trimEnd().split('\n');
  const table = /^\[([\w.-]+)\]$/.exec(header)?.[1];
  expect(table, header).toBeDefined();
  const values: Record<string, unknown> = {};
  for (const line of lines) {
    const m = /^([A-Za-z_][\w-]*) = (.+)$/.exec(line);
    expect(m, line).not.toBeNull();
    const raw = m![2];
    values[m![1]] = raw.startsWith('{')
      ? Object.fromEntries(raw.slice(1, -1).trim().split(/, (?=[A-Za-z_]\w* = ")/).map((kv) => { const [k, v] = kv.split(/ = (.*)/s); return [k, JSON.parse(v)]; }))
      : JSON.parse(raw);
  }
  return { table: table!, values };
}

/** command, args and env of the simgrep server as the client would read them from its entry. */
function readBack(name: string, text: string): ServerEntry {
  const c = findClient(name)!;
  if (c.format === 'shell') return claudeMcpAdd(shellSplit(text.trim()));
  if (c.format === 'toml') {
    const { table, values } = parseCodexToml(text);
    expect(table).toBe('mcp_servers.simgrep');
    return { command: values.command as string, args: values.args as string[], env: (values.env ?? {}) as Record<string, string> };
  }
  const doc = JSON.parse(text);
  const servers = doc.mcpServers ?? doc.servers ?? doc.context_servers;
  expect(Object.keys(doc)).toEqual([name === 'vscode' ? 'servers' : name === 'zed' ? 'context_servers' : 'mcpServers']);
  const s = servers.simgrep;
  if (name === 'vscode' || name === 'claude-code-json') expect(s.type).toBe('stdio');
  if (name === 'zed') expect(s.source).toBe('custom');
  return { command: s.command, args: s.args, env: s.env ?? {} };
}

describe('simgrep mcp --print-config', () => {
  const tricky: ServerEntry = {
    command: '/opt/node v20/bin/node',
    args: ["/home/o'brien/simgrep/dist/src/cli/main.js", 'mcp', '/srv/my "project"\\x', '--model', 'org/name'],
    env: { SIMGREP_HOME: '/tmp/a b', HF_HUB_OFFLINE: '1' },
  };

  it.each(MCP_CLIENTS.map((c) => c.name))('%s: the entry parses in its format and gives back the command, args and env', (name) => {
    expect(readBack(name, findClient(name)!.render(tricky))).toEqual(tricky);
    const bare = { ...tricky, env: {} };
    expect(readBack(name, findClient(name)!.render(bare))).toEqual(bare);
  });

  it('names the server by absolute paths that exist: this node, the CLI entry, the root', () => {
    const e = serverEntry({ model: '.', concurrency: 0 }, root);
    expect(e.command).toBe(process.execPath);
    const [cli, sub, dir, ...engine] = e.args;
    for (const p of [e.command, cli, dir]) { expect(path.isAbsolute(p), p).toBe(true); expect(existsSync(p), p).toBe(true); }
    expect([sub, dir, engine]).toEqual(['mcp', root, ['--model', process.cwd(), '-J', '0']]);
    for (const name of MCP_CLIENTS.map((c) => c.name)) expect(readBack(name, findClient(name)!.render(e))).toEqual(e);
  });

  it('a root that is not an existing directory is a clear error', () => {
    expect(() => serverEntry({}, path.join(root, 'missing'))).toThrow(/root to serve must be an existing directory/);
  });

  it('shell words and TOML strings round-trip any text', () => {
    fc.assert(fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 20 }), { minLength: 1, maxLength: 4 }), (words) => {
      expect(shellSplit(words.map(shellWord).join(' '))).toEqual(words);
    }));
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (s) => {
      const t = tomlString(s);
      // TOML forbids raw control characters and DEL in a basic string; JSON.parse reads TOML's escapes.
      expect(/[\x00-\x1f\x7f]/.test(t)).toBe(false);
      expect(JSON.parse(t)).toBe(s);
    }));
  });
});
