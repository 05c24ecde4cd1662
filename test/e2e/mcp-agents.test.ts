// simgrep mcp as a coding agent uses it (issue 30), through the MCP SDK's own client: the server's
// instructions and tool annotations, the peers' argument names, over-long queries, one match per file,
// and the token budget, which no answer passes (many queries, many budgets) and whose cuts are said.
import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath } from '../helpers/cli.js';
import { isolatedHome } from '../helpers/isolated-home.js';

let home: ReturnType<typeof isolatedHome>;
let root = '';
let client: Client;

type Match = { path: string; start_line: number; end_line: number; match_line: number; score: number; code?: string; line?: string; signature?: string | null; compact?: true };
type Answer = { matches: Match[]; count: number; truncated: boolean; index: string; notes: string[]; budget: { max_tokens: number; used_tokens: number; compacted: number; dropped: number } };
type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Answer };
const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<ToolResult>;

const TOPICS = ['upload', 'download', 'parse', 'render', 'cache', 'retry', 'queue', 'auth', 'token', 'socket'];

/** A module per topic and flavour: a class with a few methods, so hunks have definitions above their lines. */
function moduleText(topic: string, flavour: number): string {
  const T = topic[0].toUpperCase() + topic.slice(1);
  const body = (m: string) => [`  ${m}${T}(input, options) {`, `    // ${m} the ${topic} with care, flavour ${flavour}`, `    const attempt = options.retries ?? ${flavour};`, `    log('${m} ${topic}', input, attempt);`, `    return this.${topic}Store.${m}(input, attempt);`, '  }', ''];
  return [`export class ${T}Service${flavour} {`, ...['start', 'finish', 'check', 'retry'].flatMap(body), '}', ''].join('\n');
}

beforeAll(async () => {
  home = isolatedHome('simgrep-mcp-agents-');
  root = path.join(home.dir, 'project');
  mkdirSync(path.join(root, 'src'), { recursive: true });
  for (const t of TOPICS) for (let f = 0; f < 3; f++) writeFileSync(path.join(root, 'src', `${t}-${f}.ts`), moduleText(t, f));
  mkdirSync(path.join(home.dir, 'outside'));
  writeFileSync(path.join(home.dir, 'outside', 'upload-9.ts'), moduleText('upload', 9));
  symlinkSync(path.join(home.dir, 'outside', 'upload-9.ts'), path.join(root, 'link-out.ts'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'mcp', root, '-J', '0'],
    env: { ...process.env as Record<string, string>, ...home.env, HF_HUB_OFFLINE: '1' },
    stderr: 'ignore',
  });
  client = new Client({ name: 'simgrep-e2e-agents', version: '0.0.0' });
  await client.connect(transport);
});
afterAll(async () => {
  await client?.close();
  home.restore();
});

describe('simgrep mcp for agents', () => {
  it('sends instructions that route between search, find_related and grep', () => {
    const text = client.getInstructions() ?? '';
    for (const word of ['`search`', '`find_related`', 'grep', 'max_tokens', 'per_file', 'score']) expect(text).toContain(word);
  });

  it('marks search and status read-only, index not, and gives every tool an example', async () => {
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.search.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    expect(byName.find_related.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    expect(byName.status.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.index.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    for (const t of tools) expect(t.description, t.name).toMatch(/Example: \{/);
    const props = byName.search.inputSchema.properties as Record<string, { maximum?: number; minimum?: number }>;
    expect([props.top_k.minimum, props.top_k.maximum, props.max_tokens.minimum, props.n_lines.maximum]).toEqual([1, 50, 200, 20]);
  });

  // trial38: the description named none of building/incomplete/build_failed/gone, which status answers with.
  it('status\'s description says what each state status can answer with means and what to do', async () => {
    const { tools } = await client.listTools();
    const status = tools.find((t) => t.name === 'status')!;
    const schema = status.outputSchema as { properties: Record<string, unknown>; required?: string[] };
    const states = Object.keys(schema.properties).filter((k) => !(schema.required ?? []).includes(k));
    expect(states.sort()).toEqual(['build_failed', 'building', 'gone', 'incomplete', 'notes']);
    const lines = (status.description ?? '').split('\n');
    for (const state of states) {
      const line = lines.find((l) => l.includes(state)) ?? '';
      expect(line, state).toMatch(/search|index/);
    }
    expect(lines.find((l) => l.startsWith('- building: true'))).toMatch(/Search anyway.*index: building.*do not wait/);
    expect(lines.find((l) => l.startsWith('- incomplete: true'))).toMatch(/cut short.*Search anyway.*call index to finish it now/);
  });

  it('the first search of a cold root answers from a scan while the index builds; later answers come from the index, the same', async () => {
    const first = await call('search', { query: 'retry the upload', k: 5 });
    expect(first.structuredContent!.index).toBe('building');
    expect(first.structuredContent!.notes[0]).toMatch(/^the index of this directory is being built in the background/);
    let later = first;
    for (let i = 0; i < 600 && later.structuredContent!.index !== 'fresh'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      later = await call('search', { query: 'retry the upload', k: 5 });
    }
    expect(later.structuredContent!.index).toBe('fresh');
    expect(later.structuredContent!.matches).toEqual(first.structuredContent!.matches);
  });

  it('top_k is k, and mode bm25 is lexical', async () => {
    const a = await call('search', { query: 'retry the upload', top_k: 2 });
    const b = await call('search', { query: 'retry the upload', k: 2 });
    expect(a.structuredContent!.count).toBe(2);
    expect(a.structuredContent!.matches).toEqual(b.structuredContent!.matches);
    const bm25 = await call('search', { query: 'retry the upload', mode: 'bm25', k: 3 });
    const lexical = await call('search', { query: 'retry the upload', mode: 'lexical', k: 3 });
    expect(bm25.isError).toBeUndefined();
    expect(bm25.structuredContent!.matches).toEqual(lexical.structuredContent!.matches);
  });

  // trial36: both given, top_k won without a word: an agent that sent k: 3 and top_k: 5 got 5.
  it('top_k and k that disagree are refused, naming both; the same value in both is fine', async () => {
    const r = await call('search', { query: 'retry the upload', k: 3, top_k: 5 });
    expect([r.isError, r.content[0].text]).toEqual([true, 'BAD_FLAG: top_k 5 and k 3 disagree; k is the older name of top_k: give one of them']);
    const f = await call('find_related', { file_path: 'src/upload-1.ts', line: 3, k: 1, top_k: 2 });
    expect(f.isError).toBe(true);
    const same = await call('search', { query: 'retry the upload', k: 2, top_k: 2 });
    expect(same.structuredContent!.count).toBe(2);
  });

  it('every match carries its code by default; show_preview false gives locations only', async () => {
    const r = await call('search', { query: 'finish the cache', k: 3, n_lines: 1 });
    for (const m of r.structuredContent!.matches) expect(m.code?.split('\n').length).toBe(m.end_line - m.start_line + 1);
    const bare = await call('search', { query: 'finish the cache', k: 3, show_preview: false });
    for (const m of bare.structuredContent!.matches) expect(Object.keys(m).sort()).toEqual(['end_line', 'match_line', 'path', 'score', 'start_line']);
  });

  it('score is 0..1, higher first, in every mode', async () => {
    for (const mode of ['hybrid', 'semantic', 'lexical', 'line']) {
      const scores = (await call('search', { query: 'retry the socket', mode, k: 10 })).structuredContent!.matches.map((m) => m.score);
      expect(scores.length, mode).toBeGreaterThan(0);
      for (const s of scores) expect(s >= 0 && s <= 1, `${mode} ${s}`).toBe(true);
      expect(scores, mode).toEqual([...scores].sort((x, y) => y - x));
    }
  });

  it('per_file 1 gives one match per file', async () => {
    const r = await call('search', { query: 'retry the upload', k: 8, per_file: 1 });
    const paths = r.structuredContent!.matches.map((m) => m.path);
    expect(paths.length).toBe(8);
    expect(new Set(paths).size).toBe(8);
  });

  it('an over-long query is cut with a note, not refused', async () => {
    const query = `${moduleText('upload', 1)}\n`.repeat(Math.ceil(100_500 / moduleText('upload', 1).length));
    const r = await call('search', { query, k: 1 });
    expect(r.isError).toBeUndefined();
    expect(r.structuredContent!.notes).toEqual([`the query was ${query.length} characters; only its first 100000 were searched`]);
    expect(r.content[0].text).toContain('note: the query was');
  });

  it('no answer passes its token budget, over many queries and budgets; a cut answer says so', async () => {
    let cutSeen = 0;
    for (const topic of TOPICS) {
      for (const maxTokens of [200, 350, 600, 1000, 2500]) {
        const r = await call('search', { query: `how is the ${topic} retried`, k: 20, n_lines: 6, max_tokens: maxTokens });
        const a = r.structuredContent!;
        const label = `${topic} ${maxTokens}`;
        expect(Math.ceil(JSON.stringify(a).length / 4), label).toBeLessThanOrEqual(maxTokens);
        expect(Math.ceil(r.content[0].text.length / 4), label).toBeLessThanOrEqual(maxTokens);
        expect(a.budget.used_tokens, label).toBeLessThanOrEqual(maxTokens);
        expect(a.budget.compacted + a.budget.dropped > 0, label).toBe(a.notes.some((n) => n.startsWith(`max_tokens ${maxTokens}:`)));
        if (a.budget.dropped > 0) { cutSeen++; expect(a.truncated, label).toBe(true); }
        // Compact before dropping: nothing is dropped while a kept match still shows its full code.
        if (a.budget.dropped > 0) expect(a.matches.filter((m) => m.code !== undefined).length, label).toBeLessThanOrEqual(1);
        for (const m of a.matches.filter((x) => x.compact)) expect(m.line, label).toBeTypeOf('string');
      }
    }
    expect(cutSeen).toBeGreaterThan(0);
  });

  it('a compact match names its enclosing definition', async () => {
    const r = await call('search', { query: 'how is the auth retried', k: 20, n_lines: 6, max_tokens: 600 });
    const compact = r.structuredContent!.matches.filter((m) => m.compact && m.signature);
    expect(compact.length).toBeGreaterThan(0);
    for (const m of compact) expect(m.signature).toMatch(/^(export class \w+|\w+\(input, options\) \{)/);
  });

  it('find_related finds code like the chunk at a file and line, leaving that chunk out', async () => {
    const r = await call('find_related', { file_path: 'src/upload-1.ts', line: 3, top_k: 5 });
    expect(r.isError, r.content[0].text).toBeUndefined();
    const paths = r.structuredContent!.matches.map((m) => path.relative(root, m.path));
    expect(paths.length).toBe(5);
    // The whole file is one chunk: none of it comes back; its siblings come first.
    expect(paths).not.toContain('src/upload-1.ts');
    expect(paths.slice(0, 2).sort()).toEqual(['src/upload-0.ts', 'src/upload-2.ts']);
  });

  it('a pasted file as the query finds its own source first', async () => {
    for (const name of ['cache-2.ts', 'socket-0.ts', 'auth-1.ts']) {
      const r = await call('search', { query: readFileSync(path.join(root, 'src', name), 'utf8'), top_k: 3 });
      expect(path.basename(r.structuredContent!.matches[0].path), name).toBe(name);
    }
  });

  // Every refusal of file_path is one message: it must not tell outside from missing.
  it.each([
    ['../outside/upload-9.ts', 'outside the root'], ['link-out.ts', 'a symlink out'], ['src', 'a directory'], ['src/nope.ts', 'a missing file'],
  ])('find_related refuses file_path %s (%s)', async (filePath) => {
    const r = await call('find_related', { file_path: filePath, line: 1 });
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toBe(`BAD_FLAG: file_path must be an existing file inside the server's root ${realpathSync(root)}; pass a path relative to the root`);
  });

  it('find_related: a line past the end or a bad argument is a readable tool error', async () => {
    const past = await call('find_related', { file_path: 'src/auth-0.ts', line: 999 });
    expect([past.isError, past.content[0].text]).toEqual([true, `BAD_FLAG: ${realpathSync(path.join(root, 'src', 'auth-0.ts'))} has 30 lines; line 999 is past its end: pick one from 1 to 30`]);
    for (const args of [{ file_path: 'src/auth-0.ts' }, { file_path: 'src/auth-0.ts', line: 0 }, { line: 3 }, { file_path: 'src/auth-0.ts', line: 2.5 }]) {
      const r = await call('find_related', args).catch((e: Error) => ({ isError: true, content: [{ type: 'text', text: e.message }] }));
      expect(r.isError, JSON.stringify(args)).toBe(true);
    }
  });

  // An agent that says `path` for directory or `limit` for top_k was answered over the whole root, or
  // with 10 matches, as if it had not asked (trial34): an argument a tool does not know is refused, named.
  it.each([
    ['search', { query: 'retry the upload', path: 'src' }, 'path'], ['search', { query: 'retry the upload', limit: 2 }, 'limit'],
    ['find_related', { file_path: 'src/upload-1.ts', line: 3, maxResults: 2 }, 'maxResults'], ['status', { dir: 'src' }, 'dir'], ['index', { path: 'src' }, 'path'],
  ])('%s refuses an argument it does not know, naming it', async (tool, args, name) => {
    const r = await call(tool, args).catch((e: Error) => ({ isError: true, content: [{ type: 'text', text: e.message }] }));
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toContain(`Unrecognized key: "${name}"`);
  });

  it('types narrows to ripgrep type names; an unknown one is a readable tool error', async () => {
    writeFileSync(path.join(root, 'notes.md'), 'How uploads are retried: with backoff.\n');
    const md = await call('search', { query: 'how are uploads retried', types: ['md'], k: 5 });
    expect(md.structuredContent!.matches.map((m) => path.basename(m.path))).toEqual(['notes.md']);
    const bad = await call('search', { query: 'retry', types: ['cobol'] });
    expect(bad.isError).toBe(true);
  });
});
