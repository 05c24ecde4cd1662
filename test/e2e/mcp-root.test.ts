// simgrep mcp ROOT refuses at start a root it cannot serve, as --print-config does: a missing path and a
// file (trial32: a file root started a server whose every tool call was refused, with a message that told
// the agent to pass a directory inside that file).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { isolatedHome } from '../helpers/isolated-home.js';

let home: ReturnType<typeof isolatedHome>;
let file = '';

beforeAll(() => {
  home = isolatedHome('simgrep-mcp-root-');
  mkdirSync(path.join(home.dir, 'project'), { recursive: true });
  file = path.join(home.dir, 'project', 'upload.ts');
  writeFileSync(file, 'export function retryUpload(file) {\n  return backoff(() => upload(file));\n}\n');
});
afterAll(() => home.restore());

describe('simgrep mcp ROOT', () => {
  it('a file as the root is refused before the server starts (exit 2, a message that says to pass a directory)', async () => {
    const r = await runCli(['mcp', file, '-J', '0', '--no-server'], { input: '', env: home.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`simgrep: the MCP root ${file} is not a directory; pass the project's directory`);
    expect(r.stderr).not.toContain('MCP server ready');
    expect(r.stdout).toBe('');
  });

  it('a missing root is refused the same way', async () => {
    const missing = path.join(home.dir, 'nope');
    const r = await runCli(['mcp', missing, '-J', '0', '--no-server'], { input: '', env: home.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`simgrep: the MCP root ${missing} does not exist`);
  });
});
