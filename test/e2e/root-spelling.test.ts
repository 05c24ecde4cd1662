// One answer whichever way the root is named: `simgrep Q tree`, `simgrep Q /abs/tree` and `cd tree &&
// simgrep Q .` rank the same files in the same order at the same distances, scanned or from the index.
// Before score45 the ranking read each file's path as spelled (its last three directory names are BM25
// terms, its last directory's name a path word, a test or example directory anywhere in it a prior), so
// the distances moved in the 4th decimal with the spelling, and a directory above the root named like
// a query word (here `upload/`) lifted every file in the tree (audit44).
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { isolatedHome } from '../helpers/isolated-home.js';

let home: ReturnType<typeof isolatedHome>;
let above = '';
let tree = '';

const pad = (n: number, tag: string): string => Array.from({ length: n }, (_, i) => `const ${tag}_${i} = ${i} * width;`).join('\n');
const fn = (name: string, body: string): string => `export async function ${name}(part) {\n  ${body}\n}`;

beforeAll(() => {
  home = isolatedHome('simgrep-root-spelling-');
  // The tree sits in directories named like the query's words and like a test directory.
  above = path.join(home.dir, 'upload', 'tests');
  tree = path.join(above, 'tree');
  mkdirSync(path.join(tree, 'src'), { recursive: true });
  writeFileSync(path.join(tree, 'src', 'upload.ts'), [
    fn('retryFailedUpload', 'for (let attempt = 0; attempt < 3; attempt++) await sendUpload(part); // retry the failed upload'), pad(50, 'a'),
    fn('uploadPart', 'return sendUpload(part); // upload one part, retried on failure'), pad(10, 'b'),
  ].join('\n') + '\n');
  writeFileSync(path.join(tree, 'retry.py'), 'def retry_failed_upload(part):\n    """Retry a failed upload with backoff."""\n    return send(part)\n');
  writeFileSync(path.join(tree, 'backoff.ts'), fn('backoff', 'return 2 ** attempt * 100; // delay before the next attempt after a failure') + '\n');
  writeFileSync(path.join(tree, 'src', 'send.go'), 'func sendUpload(p Part) error {\n\t// send one part of an upload\n\treturn client.Put(p)\n}\n');
  writeFileSync(path.join(tree, 'notes.md'), '# Uploads\n\nA failed upload is retried three times.\n\nThe width of the page is fixed.\n');
});
afterAll(() => home.restore());

type Shown = [file: string, line: number, distance: number];

/** The answer with each file named relative to the tree (links resolved), whatever the root's spelling. */
async function answer(root: string | string[], cwd: string, args: string[]): Promise<Shown[]> {
  const r = await runCli(['retry failed upload', ...[root].flat(), '--jsonl', '--top-k', '5', ...args], { cwd, env: home.env });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim().split('\n').map((l) => {
    const x = JSON.parse(l) as { filename: string; match_line: number; distance: number };
    return [path.relative(realpathSync(tree), realpathSync(path.resolve(cwd, x.filename))), x.match_line, x.distance] as Shown;
  });
}

describe('the same root named three ways gives one answer (audit44: scores moved with the spelling)', () => {
  for (const mode of ['hybrid', 'lexical']) {
    it(`--mode ${mode}: tree, /abs/tree and . in tree, scanned and from the index`, async () => {
      const spellings: Array<[string, string]> = [['tree', above], [tree, home.dir], ['.', tree], ['./tree/', above]];
      const scanned = await answer(spellings[0][0], spellings[0][1], ['--mode', mode, '--no-index']);
      expect(scanned.length).toBeGreaterThanOrEqual(4);
      for (const [root, cwd] of spellings.slice(1)) expect(await answer(root, cwd, ['--mode', mode, '--no-index']), `${root} in ${cwd}`).toEqual(scanned);
      expect((await runCli(['index', tree], { env: home.env })).code).toBe(0);
      // Twice each: the second search reads the walk its first recorded (walk-record.ts), with the rank paths it kept.
      for (const [root, cwd] of [...spellings, ...spellings]) expect(await answer(root, cwd, ['--mode', mode, '--index']), `${root} in ${cwd}, indexed`).toEqual(scanned);
    });
  }

  // A root below another spelled with `..` (mend45c): the walk ranks tree/src/../retry.py as retry.py (below
  // tree/src/.., the outermost), but a recorded walk worked the rank paths out again from the spellings and
  // gave it to tree/src, whose spelling starts it: src/../retry.py, so the second indexed search differed.
  it('roots tree/src and tree/src/..: scanned, indexed and from the recorded walk, the answer of tree alone', async () => {
    const alone = await answer('tree', above, ['--no-index']);
    const roots = ['tree/src', 'tree/src/..'];
    expect(await answer(roots, above, ['--no-index'])).toEqual(alone);
    expect((await runCli(['index', tree], { env: home.env })).code).toBe(0);
    for (const run of ['first', 'second']) expect(await answer(roots, above, ['--index']), `${run} indexed search`).toEqual(alone);
  });

  // A glob's walk had no rank prefix (mend45c): 'tree/src/*.ts' tree ranked src/upload.ts as upload.ts, tree
  // 'tree/src/*.ts' as src/upload.ts. A glob now ranks below its base, and its base below the outermost root.
  // Roots are compared as real paths: tree/src before a link to the tree ranked its files as upload.ts.
  it('a glob root, or a link to the tree, beside the tree or its src: the answer of tree alone', async () => {
    symlinkSync(tree, path.join(above, 'link'));
    const alone = await answer('tree', above, ['--no-index']);
    for (const roots of [['tree/src/*.ts', 'tree'], ['tree', 'tree/src/*.ts'], ['tree/src', 'link'], ['link', 'tree/src']]) {
      expect(await answer(roots, above, ['--no-index']), roots.join(' ')).toEqual(alone);
    }
  });
});
