// The mistakes an agent made in agent47's sessions over the MCP SDK's own client, each answered so that the
// next call is the right one: filters that pass no file say so and how to write the glob meant (before: "no
// match in 0 files", which read as "nothing like it here"), a compact match names its function even when its
// hunk starts inside the body, and a path relative to the wrong root, or with Windows separators, is refused
// with the path inside the root it most likely meant.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedHome } from '../helpers/isolated-home.js';
import { mcpClient } from '../helpers/mcp-client.js';

let home: ReturnType<typeof isolatedHome>;
let root = '';
let client: Client;

type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, unknown> };
const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<ToolResult>;
const notesOf = (r: ToolResult) => r.structuredContent?.notes as string[];

beforeAll(async () => {
  home = isolatedHome('simgrep-mcp-mistakes-');
  root = path.join(home.dir, 'project');
  mkdirSync(path.join(root, 'flask', 'sansio'), { recursive: true });
  writeFileSync(path.join(root, 'flask', 'sessions.py'), 'class SessionInterface:\n    """Open and save the session cookie."""\n    def open_session(self, app, request):\n        return None\n');
  const padding = Array.from({ length: 8 }, (_, i) => `        # step ${i}: ${'the cookie jar keeps every crumb of the previous request for later; '.repeat(2)}`);
  writeFileSync(path.join(root, 'flask', 'blueprints.py'), ['class Blueprint:', '    def make_setup_state(self, app, options, first_registration=False):', ...padding, '        return BlueprintSetupState(self, app, options, first_registration)', ''].join('\n'));
  const tail = Array.from({ length: 4 }, (_, i) => `  log('step ${i}: ${'the cookie jar keeps every crumb of the previous request; '.repeat(2)}');`);
  writeFileSync(path.join(root, 'flask', 'boot.ts'), ['export function warm() {', '}', 'if (ready) {', '  startTheEngineNowPlease();', ...tail, '}', ''].join('\n'));
  writeFileSync(path.join(root, 'flask', 'sansio', 'app.py'), 'class App:\n    permanent_session_lifetime = 31\n    def make_session(self):\n        return {}\n');
  client = await mcpClient(root, home.env);
  // Answers from the index, so that no note of a background build joins the notes compared below.
  expect((await call('index', {})).isError).toBeFalsy();
});
afterAll(async () => {
  await client?.close();
  home.restore();
});

describe('simgrep mcp: filters that pass no file', () => {
  it('a glob written with Windows separators notes the glob with / (was a bare "no match in 0 files")', async () => {
    const r = await call('search', { query: 'session', globs: ['flask\\sansio\\*.py'] });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent?.files_searched).toBe(0);
    expect(notesOf(r)).toEqual(['no file in the root passed the filters (globs ["flask\\\\sansio\\\\*.py"]); globs take / between directories (a \\ escapes the character after it): write "flask/sansio/*.py"; globs are case-sensitive and relative to the searched directory; widen or drop them to search every file']);
    expect(r.content[0].text).toContain('\nnote: no file in the root passed the filters');
    const fixed = await call('search', { query: 'session', globs: ['flask/sansio/*.py'] });
    expect(fixed.structuredContent?.files_searched).toBe(1);
    expect(notesOf(fixed).filter((n) => n.includes('passed the filters'))).toEqual([]);
  });

  it('a glob anchored one folder too deep notes the **/ form that matches at any depth', async () => {
    const r = await call('search', { query: 'session', globs: ['sansio/*.py'] });
    expect(notesOf(r)).toEqual(['no file in the root passed the filters (globs ["sansio/*.py"]); a glob with a / in it matches from the root down: "**/sansio/*.py" matches at any depth; globs are case-sensitive and relative to the searched directory; widen or drop them to search every file']);
    const fixed = await call('search', { query: 'session', globs: ['**/sansio/*.py'] });
    expect(fixed.structuredContent?.files_searched).toBe(1);
  });

  it('a type with no file under a directory names the filter and the directory (find_related too)', async () => {
    const r = await call('find_related', { file_path: 'flask/sessions.py', line: 1, directory: 'flask', types: ['rust'] });
    expect(r.isError).toBeFalsy();
    expect(notesOf(r)).toEqual(['no file in "flask" passed the filters (types ["rust"]); widen or drop them to search every file']);
  });

  it('the note is held to the budget: 50 long globs at max_tokens 200 (was an answer of 31,788 tokens) (mend47a)', async () => {
    const globs = Array.from({ length: 50 }, (_, i) => `nomatch${i}/${'x\\'.repeat(500)}`);
    const r = await call('search', { query: 'session', globs, max_tokens: 200 });
    expect(r.isError).toBeFalsy();
    const budget = r.structuredContent?.budget as { used_tokens: number };
    expect(budget.used_tokens).toBeLessThanOrEqual(200);
    expect(Math.ceil(JSON.stringify(r.structuredContent).length / 4)).toBeLessThanOrEqual(200);
    expect(notesOf(r)).toEqual([`no file in the root passed the filters; globs take / between directories (a \\ escapes the character after it): write "nomatch0/${'x/'.repeat(16)}…`]);
  });

  it('no note where files were searched and nothing matched', async () => {
    const r = await call('search', { query: 'session', types: ['py'], mode: 'lexical', globs: ['flask/sansio/*.py'] });
    expect(r.structuredContent?.files_searched).toBe(1);
    expect(notesOf(r).filter((n) => n.includes('passed the filters'))).toEqual([]);
  });
});

describe('simgrep mcp: a compact match names its enclosing definition', () => {
  it('from the file when the hunk starts inside the body (was signature null: `return ...` alone)', async () => {
    const r = await call('search', { query: 'BlueprintSetupState first_registration', mode: 'lexical', globs: ['flask/blueprints.py'], top_k: 1, max_tokens: 200 });
    const [m] = r.structuredContent?.matches as Record<string, unknown>[];
    expect(m).toMatchObject({ match_line: 11, start_line: 8, compact: true, line: '        return BlueprintSetupState(self, app, options, first_registration)' });
    expect(m.signature).toBe('def make_setup_state(self, app, options, first_registration=False):');
    expect(r.content[0].text).toContain('\n  in: def make_setup_state(self, app, options, first_registration=False):\n');
  });

  it('none for a line in a block that defines nothing (was the function before the block)', async () => {
    const r = await call('search', { query: 'startTheEngineNowPlease', mode: 'lexical', globs: ['flask/boot.ts'], top_k: 1, max_tokens: 200 });
    const [m] = r.structuredContent?.matches as Record<string, unknown>[];
    expect(m).toMatchObject({ match_line: 4, compact: true, line: '  startTheEngineNowPlease();', signature: null });
    expect(r.content[0].text).not.toContain('in: export function warm()');
  });
});

describe('simgrep mcp: arguments as a model writes them', () => {
  it('a number as a string, a switch as "true", a mode in capitals are taken as meant (were refused on their type)', async () => {
    const r = await call('search', { query: 'session', top_k: '2', mode: 'Lexical', files_with_matches: 'true', max_tokens: '300' });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ count: 2, budget: { max_tokens: 300 } });
    expect((r.structuredContent?.matches as Record<string, unknown>[]).every((m) => m.code === undefined)).toBe(true);
    const same = await call('search', { query: 'session', top_k: 2, mode: 'lexical', files_with_matches: true, max_tokens: 300 });
    expect(r.structuredContent?.matches).toEqual(same.structuredContent?.matches);
    const related = await call('find_related', { file_path: 'flask/sessions.py', line: '3', per_file: '1' });
    expect(related.isError).toBeFalsy();
  });

  it('a line past the file\'s end says which lines there are (was "has 4 lines; line 40 is past its end" alone)', async () => {
    const r = await call('find_related', { file_path: 'flask/sessions.py', line: 40 });
    expect(r.content[0].text).toBe(`BAD_FLAG: ${path.join(root, 'flask', 'sessions.py')} has 4 lines; line 40 is past its end: pick one from 1 to 4`);
  });

  it('an argument by another tool\'s name is refused with this tool\'s name for it (was "Unrecognized key" alone)', async () => {
    const search = await call('search', { query: 'session', path: 'flask', limit: 2 });
    expect(search.isError).toBe(true);
    expect(search.content[0].text).toContain('Unrecognized keys: "path" (this tool calls it "directory"), "limit" (this tool calls it "top_k"); the arguments are query, directory, top_k, k, mode, globs, types, types_not, extensions, per_file, files_with_matches, n_lines, max_tokens, show_preview');
    const related = await call('find_related', { path: 'flask/sessions.py', line_number: 3 });
    expect(related.content[0].text).toContain('Unrecognized keys: "path" (this tool calls it "file_path"), "line_number" (this tool calls it "line")');
    const status = await call('status', { foo: 1 });
    expect(status.content[0].text).toContain('Unrecognized key: "foo"; the arguments are directory');
  });

  it('a string that is no number, or out of bounds, is still a tool error that names the argument', async () => {
    const ten = await call('search', { query: 'session', top_k: 'ten' });
    expect(ten.isError).toBe(true);
    expect(ten.content[0].text).toContain('expected number, received string at top_k');
    const zero = await call('find_related', { file_path: 'flask/sessions.py', line: '0' });
    expect(zero.isError).toBe(true);
    expect(zero.content[0].text).toContain('expected number to be >=1 at line');
    const fuzzy = await call('search', { query: 'session', mode: 'Fuzzy' });
    expect(fuzzy.content[0].text).toContain('expected one of "hybrid"|"semantic"|"lexical"|"line"|"bm25" at mode');
  });
});

describe('simgrep mcp: an answer that is scanned by design says so', () => {
  it('"mode": "line" over an indexed root notes that the index never serves it (was a bare index: scanned)', async () => {
    const r = await call('search', { query: 'open the session cookie', mode: 'line', top_k: 1 });
    expect(r.structuredContent?.index).toBe('scanned');
    expect(notesOf(r)).toEqual(['"mode": "line" reads the files on every search (the index serves hybrid, semantic, lexical and bm25): index: scanned is expected here, not a fault; calling index does not change it']);
    const ranked = await call('search', { query: 'open the session cookie', top_k: 1 });
    expect(ranked.structuredContent).toMatchObject({ index: 'fresh', notes: [] });
  });
});

describe('simgrep mcp: a path relative to the wrong root', () => {
  const fileRefused = () => `BAD_FLAG: file_path must be an existing file inside the server's root ${root}; pass a path relative to the root`;

  it('file_path relative to the folder above the root is refused with the path inside the root', async () => {
    const r = await call('find_related', { file_path: 'src/flask/sessions.py', line: 1 });
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toBe(`${fileRefused()}: did you mean "flask/sessions.py"?`);
    const fixed = await call('find_related', { file_path: 'flask/sessions.py', line: 1 });
    expect(fixed.isError).toBeFalsy();
  });

  it('file_path with Windows separators, and an absolute path under another checkout, get the path inside the root', async () => {
    expect((await call('find_related', { file_path: 'flask\\sansio\\app.py', line: 1 })).content[0].text).toBe(`${fileRefused()}: did you mean "flask/sansio/app.py"?`);
    expect((await call('find_related', { file_path: '/home/someone/checkout/flask/sansio/app.py', line: 1 })).content[0].text).toBe(`${fileRefused()}: did you mean "flask/sansio/app.py"?`);
  });

  it('a directory relative to the folder above the root is refused with the directory inside the root', async () => {
    const r = await call('search', { query: 'session', directory: 'src/flask/sansio' });
    expect(r.content[0].text).toBe(`BAD_FLAG: directory must be an existing directory inside the server's root ${root}; pass a path relative to the root: did you mean "flask/sansio"?`);
  });

  it('file_path takes a path as a search returned it, as its description says (it said "relative to it" of an absolute path)', async () => {
    const tools = await client.listTools();
    const described = (tools.tools.find((t) => t.name === 'find_related')?.inputSchema.properties as Record<string, { description: string }>).file_path.description;
    expect(described).toBe('A file inside the root: a path a search returned (as it came back), or one relative to the root');
    const hit = await call('search', { query: 'open the session cookie', globs: ['flask/sessions.py'], top_k: 1 });
    const returned = (hit.structuredContent?.matches as { path: string; match_line: number }[])[0];
    expect(path.isAbsolute(returned.path)).toBe(true);
    expect((await call('find_related', { file_path: returned.path, line: returned.match_line })).isError).toBeFalsy();
  });

  it('no hint where no path inside the root fits: a missing file, a sibling of the root (`../project-other`)', async () => {
    expect((await call('find_related', { file_path: 'nothing/here.py', line: 1 })).content[0].text).toBe(fileRefused());
    expect((await call('search', { query: 'session', directory: '../project-other' })).content[0].text).toBe(`BAD_FLAG: directory must be an existing directory inside the server's root ${root}; pass a path relative to the root`);
  });
});
