// -t/--type (ripgrep's type names) and -l/--files-with-matches (issue 30): the same type table in the
// CLI, the MCP tools (test/e2e/mcp-agents.test.ts) and the actions (search-actions.test.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { isolatedHome } from '../helpers/isolated-home.js';

let home: ReturnType<typeof isolatedHome>;
let dir = '';

beforeAll(() => {
  home = isolatedHome('simgrep-filters-');
  dir = path.join(home.dir, 'tree');
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'retry.ts'), 'export function retryUpload() {\n  return backoff(upload);\n}\n');
  writeFileSync(path.join(dir, 'retry.tsx'), 'export const RetryButton = () => <button onClick={retryUpload}>retry upload</button>;\n');
  writeFileSync(path.join(dir, 'retry.py'), 'def retry_upload():\n    return backoff(upload)\n');
  writeFileSync(path.join(dir, 'retry.md'), 'Uploads are retried with backoff.\n');
});
afterAll(() => home.restore());

const run = (args: string[]) => runCli([...args, '--no-index', '-J', '0'], { env: home.env, cwd: dir });

describe('-t/--type and -l', () => {
  it.each([
    [['-t', 'ts'], ['retry.ts', 'retry.tsx']],
    [['--type', 'py,md'], ['retry.md', 'retry.py']],
    [['-t', 'py', '--ext', '.md'], ['retry.md', 'retry.py']],
  ])('%j keeps only files of those types', async (flags, files) => {
    const r = await run([...flags, '-l', '--top-k', '10', 'retry the upload', '.']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n').map((f) => path.basename(f)).sort()).toEqual(files);
  });

  it('-l prints each file with results once, best first', async () => {
    const r = await run(['-l', '--top-k', '10', '-n', '0', '--merge', 'retry the upload', '.']);
    const files = r.stdout.trim().split('\n');
    expect(new Set(files).size).toBe(files.length);
    expect(files.length).toBe(4);
  });

  it('an unknown type is refused with the list of known ones', async () => {
    const r = await run(['-t', 'cobol', 'retry', '.']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^simgrep: unknown file type "cobol"; known types: c, cpp, cs, .*, ts, txt, yaml\n$/);
  });
});
