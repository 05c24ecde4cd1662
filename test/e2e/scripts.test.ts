// Issue 31: a question in Arabic, Chinese, Hindi or Russian over a small document of that language
// finds the answering line in the lexical and the default (hybrid) mode, through the built CLI with the
// bundled model; none is refused. (Before, the lexical side saw no word outside the Latin alphabet and
// a query the model knew no token of was refused.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeTree } from '../helpers/tree.js';
import { SCRIPT_FILES, SCRIPT_QUERIES } from '../helpers/scripts-fixture.js';

// Tamazight in Tifinagh: a script the bundled model has no piece of (version 8 appended Han, Arabic,
// Devanagari and 30-odd more, so a Chinese query is no longer one the model cannot embed).
const UNKNOWN_SCRIPT_FILE = 'ber/tamazight.txt';
const UNKNOWN_SCRIPT_LINES = 'ⴰⵣⵓⵍ ⴼⴻⵍⵍⴰⵡⴻⵏ\nⵜⴰⵎⴰⵣⵉⵖⵜ ⴷ ⵜⵓⵜⵍⴰⵢⵜ ⵏ ⵉⵎⴰⵣⵉⵖⵏ\nⴰⵙⵙ ⴰⴷ ⵢⵍⴰ ⵓⵏⵣⴰⵔ\n';

let dir = '';
let cleanup = async () => {};

beforeAll(async () => {
  ({ dir, cleanup } = await makeTree({ ...SCRIPT_FILES, [UNKNOWN_SCRIPT_FILE]: UNKNOWN_SCRIPT_LINES }));
});
afterAll(() => cleanup());

describe('questions in every script', () => {
  for (const mode of ['lexical', 'hybrid'] as const) {
    for (const { query, file, line } of SCRIPT_QUERIES) {
      it(`${mode}: "${query}" finds line ${line + 1} of ${file}`, async () => {
        const r = await runCli(['--jsonl', '--top-k', '1', '-n', '0', '--no-merge', '--mode', mode, query, file], { cwd: dir });
        expect(r.code).toBe(0);
        expect(JSON.parse(r.stdout)).toMatchObject({ filename: file, match_line: line + 1, content: SCRIPT_FILES[file].split('\n')[line] });
      });
    }
  }

  it('a query the model knows no token of is searched by its words, with a warning (not refused)', async () => {
    const r = await runCli(['--jsonl', '--top-k', '1', '-n', '0', '--mode', 'semantic', 'ⵜⴰⵎⴰⵣⵉⵖⵜ ⵜⵓⵜⵍⴰⵢⵜ', '.'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('simgrep: the model knows no token of the query "ⵜⴰⵎⴰⵣⵉⵖⵜ ⵜⵓⵜⵍⴰⵢⵜ": it was searched by its words alone (as --mode lexical)\n');
    expect(JSON.parse(r.stdout)).toMatchObject({ filename: `./${UNKNOWN_SCRIPT_FILE}`, match_line: 2 });
  });

  it('a query with no letter or number is refused with a message that says so', async () => {
    const r = await runCli(['--mode', 'lexical', '?!…', '.'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('has no word to look for');
  });

  it('... in the default (hybrid) mode too, where the model has tokens for it (before: chance hunks at ~0.99, exit 0); --mode semantic answers', async () => {
    for (const query of ['...', '=>', '?.']) {
      const r = await runCli([query, '.'], { cwd: dir });
      expect(r.code, query).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('has no letter or number to look for');
    }
    const semantic = await runCli(['--mode', 'semantic', '--top-k', '1', '=>', '.'], { cwd: dir });
    expect(semantic.code).toBe(0);
    expect(semantic.stdout).not.toBe('');
  });
});
