// Issue 31, "no query refused in any language" (trial35): a decimal digit of any script is the number its
// ASCII digits write (Arabic-Indic `١٩٦٤`, Devanagari `१९६४` and `1964` are one term), and an emoji
// (with its ZWJ sequence, as ICU keeps it; its skin tone folded away, zh36) is a word the lexical side finds. A query of
// them alone, which the bundled model knows no token of, is searched by its words in the default mode
// and `--mode line`, through the CLI, the library and the MCP server alike. (Before: `١٩٦٤`, `🔥` and
// `👩‍💻` refused in every mode, "has no word to look for"; `جسر 1964` missed the Arabic line's `١٩٦٤`.)
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { mcpClient } from '../helpers/mcp-client.js';
import { isolatedHome } from '../helpers/isolated-home.js';
import { createSearcher } from '../../src/searcher.js';
import { type SearchResponse } from '../../src/searcher/api.js';
import { createWorkspace } from '../../src/workspace/workspace.js';
import { rounded } from '../helpers/rounded.js';

const LINES = [
  'La tour fut achevée en 1889 pour l\'Exposition universelle.',
  'تم افتتاح الجسر في عام ١٩٦٤ بعد ست سنوات من العمل.',
  'the release was cut on a quiet Tuesday morning',
  'the deploy failed because the disk was full 👩‍💻🔥',
  'पुल का उद्घाटन १९६४ में हुआ था।',
  'nothing else happened that week',
];
const TEXT = LINES.join('\n') + '\n';

let home: ReturnType<typeof isolatedHome>;
let root = '';
let file = '';
let client: Client;
type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, unknown> };

beforeAll(async () => {
  home = isolatedHome('simgrep-digits-emoji-');
  root = path.join(home.dir, 'project');
  mkdirSync(root, { recursive: true });
  file = path.join(root, 'notes.txt');
  writeFileSync(file, TEXT);
  client = await mcpClient(root, home.env);
}, 60_000);
afterAll(async () => {
  await client?.close();
  home.restore();
});

/** The 1-based lines a CLI run's JSONL names. */
async function cliLines(args: string[]): Promise<{ code: number; lines: number[]; stderr: string }> {
  const r = await runCli(['--jsonl', '--no-merge', '-n', '0', '--top-k', '10', '--no-index', ...args, file], { env: home.env });
  const lines = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l).match_line as number).sort((a, b) => a - b);
  return { code: r.code, lines, stderr: r.stderr };
}

describe('digits of every script and emoji (CLI)', () => {
  for (const mode of ['hybrid', 'line'] as const) {
    it(`${mode}: "١٩٦٤" alone finds the lines of 1964 in Arabic-Indic and Devanagari digits, with the words-only warning`, async () => {
      const r = await cliLines(['--mode', mode, '١٩٦٤']);
      expect(r.code).toBe(0);
      expect(r.stderr).toContain('it was searched by its words alone');
      expect(r.lines).toEqual([2, 5]);
    });
    for (const emoji of ['🔥', '👩‍💻']) {
      it(`${mode}: "${emoji}" finds the line that holds it`, async () => {
        const r = await cliLines(['--mode', mode, emoji]);
        expect(r.code).toBe(0);
        expect(r.lines).toEqual([4]);
      });
    }
  }

  it('lexical: an ASCII number in the query meets the Arabic-Indic and Devanagari digits of a line', async () => {
    const r = await cliLines(['--mode', 'lexical', 'عام 1964']);
    expect(r.code).toBe(0);
    expect(r.lines.slice(0, 2)).toEqual([2, 5]);
  });
});

describe('digits of every script and emoji (library, MCP)', () => {
  it('the library finds them the same', async () => {
    const s = createSearcher({ concurrency: 0 });
    try {
      // 0-based lines (the library's match_line).
      for (const [query, lines] of [['١٩٦٤', [1, 4]], ['🔥', [3]], ['👩‍💻', [3]]] as const) {
        const r = await s.searchContent({ query, content: TEXT, name: 'notes.txt', topK: 10, merge: false, nLines: 0 });
        expect(r.results.map((x) => x.match_line).sort((a, b) => a - b), query).toEqual(lines);
      }
    } finally { await s.close(); }
  });

  it('an emoji\'s skin tone is folded as a letter\'s case (👍 and 👍🏽 find each other), Arabic\'s ٫ and ٬ join a number as . and , do (zh36)', async () => {
    const s = createSearcher({ concurrency: 0 });
    const content = 'thumbs 👍 up\nthumbs 👍🏽 up\nno thumbs here\nweighed ١٬٩٦٤٫٥ kg\nweighed 1,964.5 kg\nweighed 964 kg\n';
    try {
      for (const [query, mode, lines] of [['👍', 'hybrid', [0, 1]], ['👍🏽', 'hybrid', [0, 1]], ['👍🏿', 'lexical', [0, 1]], ['١٬٩٦٤٫٥', 'lexical', [3, 4]], ['1,964.5', 'lexical', [3, 4]]] as const) {
        const r = await s.searchContent({ query, content, name: 'notes.txt', mode, topK: 10, merge: false, nLines: 0 });
        expect(r.results.map((x) => x.match_line).sort((a, b) => a - b), query).toEqual(lines);
      }
    } finally { await s.close(); }
  });

  it('a toned ZWJ emoji and its untoned spelling find each other, as a ZWJ sequence with and without its selector do, in a scan and an index alike (mend36b)', async () => {
    // Before: the scan's pre-check folded the line with its tone (or FE0F) kept, and the query's term had none:
    // `👩‍💻` missed the line of `👩🏽‍💻` (the index, which counts the words, found it: its answer was not the scan's).
    const lines = [
      'the night shift 👩🏽\u200d💻 fixed the build', 'the day shift 👩\u200d💻 wrote the docs', 'a couple 👩\u200d❤️\u200d👨 at the party',
      'another couple 👩\u200d❤\u200d👨 at home', 'nothing else happened that week', 'the release was cut on a quiet Tuesday morning',
    ];
    const tree = path.join(home.dir, 'tones');
    mkdirSync(tree, { recursive: true });
    writeFileSync(path.join(tree, 'team.txt'), lines.join('\n') + '\n');
    writeFileSync(path.join(tree, '👩🏽\u200d💻 guide.md'), '# guide\n\nhow the shift works\n');
    const s = createSearcher({ concurrency: 0 });
    const ws = createWorkspace({ dir: path.join(home.dir, 'tones-ws'), concurrency: 0 });
    try {
      await ws.index([tree]);
      const cases = [['👩\u200d💻', [0, 1]], ['👩🏽\u200d💻', [0, 1]], ['👩🏿\u200d💻', [0, 1]], ['👩\u200d❤️\u200d👨', [2, 3]], ['👩\u200d❤\u200d👨', [2, 3]]] as const;
      for (const [query, want] of cases) {
        for (const mode of ['lexical', 'hybrid'] as const) {
          const opts = { query, paths: [tree], mode, topK: 10, merge: false, nLines: 0 };
          const scan: SearchResponse = await s.search(opts);
          const indexed = await ws.search(opts);
          expect(indexed.stats.index?.workspace, `${mode} ${query}`).toBeDefined();
          expect(rounded(indexed), `${mode} ${query}`).toEqual(rounded(scan));
          const team = scan.results.filter((x) => x.filename.endsWith('team.txt')).map((x) => x.match_line);
          expect(team.slice(0, want.length).sort((a, b) => a - b), `${mode} ${query}`).toEqual(want);
          const r = await s.searchContent({ query, content: lines.join('\n') + '\n', name: 'team.txt', mode, topK: 10, merge: false, nLines: 0 });
          // The two lines first (the hybrid mode may add lines the model finds near `❤`, below them).
          expect(r.results.slice(0, want.length).map((x) => x.match_line).sort((a, b) => a - b), `${mode} ${query}`).toEqual(want);
        }
      }
    } finally {
      await ws.close();
      await s.close();
    }
  }, 60_000);

  it('the MCP search finds them the same', async () => {
    for (const [query, lines] of [['١٩٦٤', [2, 5]], ['🔥', [4]]] as const) {
      const r = await client.callTool({ name: 'search', arguments: { query, k: 5 } }) as ToolResult;
      expect(r.isError, query).toBeUndefined();
      const text = r.content[0].text;
      for (const l of lines) expect(text, query).toContain(LINES[l - 1]);
      expect(text, query).toContain('it was searched by its words alone');
    }
  }, 60_000);
});
