// Property test (fast-check) for ignore rules of outside input against the `ignore` package: a rule
// file read from disk (any patterns, negations, comments, CRLF) and one nested below it give, for any
// path, the verdict git's precedence gives from the package's own per-file verdicts.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import ignore from 'ignore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IgnoreStack } from '../../../src/sources/ignore-rules.js';

const SEGMENTS = ['a', 'b', 'sub', 'x.js', 'y.md', '.hidden', 'node_modules', 'a b', 'ü', '[x]', 'foo!'];
const segment = fc.constantFrom(...SEGMENTS);
const relPath = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));
const pattern = fc.tuple(
  fc.constantFrom('', '', '!', '/', '**/', '\\#', '\\!'),
  fc.array(fc.oneof(segment, fc.constantFrom('*', '**', '*.js', '?', 'x.*', '[ab]', 'sub/**')), { minLength: 1, maxLength: 3 }).map((s) => s.join('/')),
  fc.constantFrom('', '', '/', '/**', ' ', '\\ '),
).map(([pre, body, post]) => pre + body + post);
const ruleFile = fc.tuple(fc.array(fc.oneof(pattern, fc.constantFrom('# comment', '', '   ')), { maxLength: 6 }), fc.constantFrom('\n', '\r\n'))
  .map(([lines, eol]) => lines.join(eol));

let root: string;
let n = 0;
beforeAll(async () => { root = await mkdtemp(path.join(os.tmpdir(), 'simgrep-ignore-prop-')); });
afterAll(async () => { await rm(root, { recursive: true, force: true }); });

/** The package's verdict for one rule file, as git reads it: the deeper file's opinion wins. */
function verdict(rules: string, rel: string, isDir: boolean): { ignored: boolean; unignored: boolean } {
  return ignore().add(rules).test(isDir ? `${rel}/` : rel);
}

describe('ignore rules (property)', () => {
  it('a rule file and a nested one give git\'s precedence over the ignore package\'s verdicts, for any path', async () => {
    await fc.assert(fc.asyncProperty(ruleFile, ruleFile, fc.array(fc.tuple(relPath, fc.boolean()), { minLength: 1, maxLength: 8 }), async (top, nested, paths) => {
      const dir = path.join(root, String(n++));
      await mkdir(path.join(dir, 'sub'), { recursive: true });
      await writeFile(path.join(dir, '.gitignore'), top);
      await writeFile(path.join(dir, 'sub', '.gitignore'), nested);
      const stack = await (await IgnoreStack.empty().enter(dir)).enter(path.join(dir, 'sub'));
      for (const [rel, isDir] of paths) {
        let expected = false;
        const inner = rel.startsWith('sub/') ? verdict(nested, rel.slice(4), isDir) : { ignored: false, unignored: false };
        if (inner.ignored) expected = true;
        else if (!inner.unignored) expected = verdict(top, rel, isDir).ignored;
        expect(stack.ignores(path.join(dir, rel), isDir), `${JSON.stringify(rel)} (dir: ${isDir}) under ${JSON.stringify(top)} and sub/ ${JSON.stringify(nested)}`).toBe(expected);
      }
    }), { numRuns: 200 });
  });
});
