// A tree reached through a symbolic link is indexed once, under its real path, and answered under the
// names the user typed: the real CLI over a real temp tree and a real link (sources/real-paths.ts). An
// older simgrep keyed the files by the path as given while the workspace's roots said the real path, so
// a search through the other name found every file new: re-read by every search under 512 KiB of them
// (the unsaved refresh), saved a second time above (the index then held the tree twice).
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath, runCli } from '../helpers/cli.js';

let tmp = '';
let env: Record<string, string> = {};
const FILES = 20;
const QUERY = 'retry the failed upload with backoff';

/** A tree of FILES small files (code and Markdown), and with `bigLines` one big file besides. */
function makeTree(dir: string, bigLines = 0): void {
  mkdirSync(path.join(dir, 'src'), { recursive: true });
  mkdirSync(path.join(dir, 'docs'), { recursive: true });
  for (let i = 0; i < FILES - 5; i++) writeFileSync(path.join(dir, 'src', `upload${i}.ts`), `export function retryUpload${i}(file: string) {\n  // retry the failed upload with backoff ${i}\n  return backoff(() => send(file, ${i}));\n}\n`);
  for (let i = 0; i < 5; i++) writeFileSync(path.join(dir, 'docs', `guide${i}.md`), `# Guide ${i}\n\nFailed uploads are retried with exponential backoff (${i}).\n`);
  if (bigLines > 0) writeFileSync(path.join(dir, 'src', 'checksums.ts'), Array.from({ length: bigLines }, (_, i) => `export const block${i} = checksum("block ${i} of the upload");`).join('\n'));
}

const cli = (args: string[], home: string) => runCli(args, { cwd: tmp, env: { ...env, SIMGREP_HOME: path.join(tmp, home) } });
/** How many files the workspace indexes (`simgrep workspace status`). */
async function indexedFiles(name: string, home: string): Promise<number> {
  const r = await cli(['workspace', 'status', name, '--json'], home);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { files: number }).files;
}
/** A search through `p` with --stats: its answer, and how many files it read again before answering. */
async function search(p: string, home: string, name: string): Promise<{ stdout: string; reread: number }> {
  const r = await cli([QUERY, p, '-w', name, '--json', '--top-k', '5', '--stats'], home);
  expect(r.code, r.stderr).toBe(0);
  const m = /from workspace \S+ \((\d+) files? re-indexed first/.exec(r.stderr);
  expect(m, r.stderr).not.toBeNull();
  return { stdout: r.stdout, reread: Number(m![1]) };
}
/** A scan of `p` (--no-index), what a search through it must print; the trees never change, so once per path. */
const scans = new Map<string, Promise<string>>();
function scan(p: string): Promise<string> {
  if (!scans.has(p)) {
    scans.set(p, cli([QUERY, p, '--no-index', '--json', '--top-k', '5'], 'scan-home').then((r) => {
      expect(r.code, r.stderr).toBe(0);
      return r.stdout;
    }));
  }
  return scans.get(p)!;
}
const filenames = (json: string) => (JSON.parse(json) as { results: { filename: string }[] }).results.map((x) => x.filename);

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-symlink-'));
  makeTree(path.join(tmp, 'real')); // ~2 KB: a one-shot search would re-read it unsaved
  makeTree(path.join(tmp, 'bigreal'), 12_000); // ~700 KB: past UNSAVED_REFRESH_BYTES, a search saves
  symlinkSync(path.join(tmp, 'real'), path.join(tmp, 'link'));
  symlinkSync(path.join(tmp, 'bigreal'), path.join(tmp, 'biglink'));
  env = { SIMGREP_CACHE_DIR: path.join(tmp, 'cache') };
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('a tree reached through a symlink', () => {
  it.each([
    { tree: 'real', link: 'link', files: FILES },
    { tree: 'bigreal', link: 'biglink', files: FILES + 1 },
  ])('simgrep index $link: indexed once; searches through $tree and $link read nothing again and answer under the typed names', async ({ tree, link, files }) => {
    const home = `home-index-${link}`;
    expect((await cli(['index', link, '-w', 'ws'], home)).code).toBe(0);
    expect(await indexedFiles('ws', home)).toBe(files);
    for (const p of [tree, link, tree]) {
      const r = await search(p, home, 'ws');
      expect(r.reread).toBe(0);
      // The same bytes as a scan of the same path, under the name typed.
      expect(r.stdout).toBe(await scan(p));
      expect(filenames(r.stdout).length).toBeGreaterThan(0);
      expect(filenames(r.stdout).every((f) => f.startsWith(`${p}/`))).toBe(true);
    }
    expect(await indexedFiles('ws', home)).toBe(files);
    // ... and an index run through the other name finds nothing to do.
    const again = await cli(['index', tree, '-w', 'ws'], home);
    expect(again.stderr).toMatch(new RegExp(`${files} files checked, 0 indexed .* ${files} unchanged, 0 removed`));
  });

  it.each([
    { tree: 'real', link: 'link', files: FILES },
    { tree: 'bigreal', link: 'biglink', files: FILES + 1 },
  ])('simgrep index $tree, then one-shot searches through $link: nothing read again, nothing saved twice', async ({ tree, link, files }) => {
    const home = `home-real-${tree}`;
    expect((await cli(['index', tree, '-w', 'ws'], home)).code).toBe(0);
    for (let i = 0; i < 2; i++) {
      const r = await search(link, home, 'ws');
      expect(r.reread).toBe(0);
      expect(r.stdout).toBe(await scan(link));
    }
    // A quoted glob under the link too (its base's real path covers it).
    const glob = await search(`${link}/src/*.ts`, home, 'ws');
    expect(glob.reread).toBe(0);
    expect(glob.stdout).toBe(await scan(`${link}/src/*.ts`));
    expect(await indexedFiles('ws', home)).toBe(files);
  });

  it('simgrep mcp LINK after simgrep index LINK: one copy in the index, answers under the root\'s real path, nothing read again', async () => {
    const home = 'home-mcp';
    expect((await cli(['index', 'biglink'], home)).code).toBe(0);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cliPath, 'mcp', path.join(tmp, 'biglink'), '-J', '0'],
      env: { ...process.env as Record<string, string>, ...env, SIMGREP_HOME: path.join(tmp, home), HF_HUB_OFFLINE: '1' },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'simgrep-e2e', version: '0.0.0' });
    await client.connect(transport);
    try {
      type Answer = { structuredContent?: Record<string, unknown> };
      const r = await client.callTool({ name: 'search', arguments: { query: QUERY, k: 5 } }) as Answer;
      // The workspace the CLI built answers at once: nothing to build, nothing new to save.
      expect(r.structuredContent?.index).toBe('fresh');
      const paths = (r.structuredContent?.matches as { path: string }[]).map((m) => m.path);
      expect(paths.length).toBeGreaterThan(0);
      // The MCP server names every answer by the root's real path (docs/reliability.md, MCP roots).
      expect(paths.every((p) => p.startsWith(`${path.join(tmp, 'bigreal')}${path.sep}`))).toBe(true);
      const st = await client.callTool({ name: 'status', arguments: {} }) as Answer;
      expect(st.structuredContent).toMatchObject({ indexed: true, files: FILES + 1 });
      const ix = await client.callTool({ name: 'index', arguments: {} }) as Answer;
      expect(ix.structuredContent).toMatchObject({ files: FILES + 1, indexed: 0, unchanged: FILES + 1, deleted: 0 });
    } finally {
      await client.close();
    }
  });
});
