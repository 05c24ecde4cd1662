// The entry that adds `simgrep mcp` to each common MCP client, in that client's own format (one row
// per client), from absolute paths: GUI clients start servers without the user's shell PATH, so the
// node binary and the CLI entry are named by path and work the same from an npm global or a clone.

/** How the server is started: an absolute command, its arguments, and the environment it needs. */
export interface ServerEntry {
  command: string;
  args: string[];
  /** Only the variables that were set where the entry was printed (omitted when none). */
  env: Record<string, string>;
}

export interface McpClient {
  /** The name `--print-config` takes. */
  name: string;
  label: string;
  /** Where the printed text goes, in the client's own words. */
  where: string;
  /** The client's documentation the format follows. */
  docs: string;
  format: 'json' | 'toml' | 'shell';
  render(e: ServerEntry): string;
}

const SERVER_NAME = 'simgrep';

/** `{command, args, env?}`, the shape most clients share (env left out when empty). */
function plain(e: ServerEntry, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...extra, command: e.command, args: e.args, ...(Object.keys(e.env).length > 0 ? { env: e.env } : {}) };
}

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
/** The `mcpServers` file most clients read (Claude Desktop, Cursor, Windsurf, Gemini CLI). */
const mcpServers = (e: ServerEntry) => json({ mcpServers: { [SERVER_NAME]: plain(e) } });

/** A POSIX shell word: bare when it is plainly safe, else single-quoted. */
export function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A TOML basic string: JSON's escapes are TOML's, except that TOML also forbids a raw DEL. */
export function tomlString(s: string): string {
  return JSON.stringify(s).replace(/\x7f/g, '\\u007F');
}

export const MCP_CLIENTS: readonly McpClient[] = [
  {
    name: 'claude-code', label: 'Claude Code (command)', format: 'shell',
    where: 'run it in the project (scope local: you, this project; -s user: every project; -s project: writes .mcp.json)',
    docs: 'docs.anthropic.com/en/docs/claude-code/mcp: claude mcp add <name> [options] -- <command> [args...]',
    // The name first: `-e, --env <env...>` takes every word up to the next option or `--`, so a name after
    // it was read as an env value and the command refused ("Invalid environment variable format: simgrep",
    // claude-code#23365, #62332; audit44).
    render: (e) => `${['claude', 'mcp', 'add', SERVER_NAME, '--transport', 'stdio',
      ...Object.entries(e.env).flatMap(([k, v]) => ['--env', `${k}=${v}`]),
      '--', e.command, ...e.args].map(shellWord).join(' ')}\n`,
  },
  {
    name: 'claude-code-json', label: 'Claude Code (.mcp.json)', format: 'json',
    where: '.mcp.json at the project root (project scope, shared through version control; merge into mcpServers)',
    docs: 'docs.anthropic.com/en/docs/claude-code/mcp: project scope, {"mcpServers": {name: {type, command, args, env}}}',
    render: (e) => json({ mcpServers: { [SERVER_NAME]: plain(e, { type: 'stdio' }) } }),
  },
  {
    name: 'claude-desktop', label: 'Claude Desktop', format: 'json',
    where: 'claude_desktop_config.json (macOS: ~/Library/Application Support/Claude/, Windows: %APPDATA%\\Claude\\; Settings > Developer > Edit Config), then restart Claude Desktop',
    docs: 'modelcontextprotocol.io/quickstart/user: {"mcpServers": {name: {command, args, env}}}',
    render: mcpServers,
  },
  {
    name: 'cursor', label: 'Cursor', format: 'json',
    where: '.cursor/mcp.json in the project (or ~/.cursor/mcp.json for every project; merge into mcpServers)',
    docs: 'cursor.com/docs/mcp: {"mcpServers": {name: {command, args, env}}}',
    render: mcpServers,
  },
  {
    name: 'vscode', label: 'VS Code (GitHub Copilot agent mode)', format: 'json',
    where: '.vscode/mcp.json in the workspace (or the user profile\'s mcp.json: MCP: Open User Configuration; merge into servers)',
    docs: 'code.visualstudio.com/docs/copilot/reference/mcp-configuration: {"servers": {name: {type: "stdio", command, args, env}}}',
    render: (e) => json({ servers: { [SERVER_NAME]: plain(e, { type: 'stdio' }) } }),
  },
  {
    name: 'codex', label: 'Codex CLI', format: 'toml',
    where: '~/.codex/config.toml (or .codex/config.toml in a trusted project); the IDE extension reads the same file',
    docs: 'developers.openai.com/codex/mcp: [mcp_servers.<name>] command, args, env',
    render: (e) => [
      `[mcp_servers.${SERVER_NAME}]`,
      `command = ${tomlString(e.command)}`,
      `args = [${e.args.map(tomlString).join(', ')}]`,
      ...(Object.keys(e.env).length > 0 ? [`env = { ${Object.entries(e.env).map(([k, v]) => `${k} = ${tomlString(v)}`).join(', ')} }`] : []),
      '',
    ].join('\n'),
  },
  {
    name: 'windsurf', label: 'Windsurf (Cascade)', format: 'json',
    where: '~/.codeium/windsurf/mcp_config.json (Windows: %USERPROFILE%\\.codeium\\windsurf\\; MCP toolbar > Configure; merge into mcpServers), then refresh',
    docs: 'docs.windsurf.com/windsurf/cascade/mcp: {"mcpServers": {name: {command, args, env}}}',
    render: mcpServers,
  },
  {
    name: 'gemini', label: 'Gemini CLI', format: 'json',
    where: '~/.gemini/settings.json (or .gemini/settings.json in the project; merge into mcpServers)',
    docs: 'geminicli.com/docs/tools/mcp-server: {"mcpServers": {name: {command, args, env, cwd, timeout}}}',
    render: mcpServers,
  },
  {
    name: 'zed', label: 'Zed', format: 'json',
    where: 'Zed\'s settings.json (zed: open settings; merge into context_servers)',
    docs: 'zed.dev/docs/ai/mcp (custom servers): {"context_servers": {name: {source: "custom", command, args, env}}}',
    // "source": "custom": the Zed releases that tell custom servers from extensions' by it need it; the others ignore it.
    render: (e) => json({ context_servers: { [SERVER_NAME]: { source: 'custom', command: e.command, args: e.args, env: e.env } } }),
  },
];

export function findClient(name: string): McpClient | undefined {
  return MCP_CLIENTS.find((c) => c.name === name.toLowerCase());
}

/** The list `--print-config` shows with no client or an unknown one. */
export function clientList(): string {
  const width = Math.max(...MCP_CLIENTS.map((c) => c.name.length));
  return MCP_CLIENTS.map((c) => `  ${c.name.padEnd(width)}  ${c.label}: ${c.where}`).join('\n');
}
