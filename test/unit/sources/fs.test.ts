import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createFsSource, type FsSourceOptions } from '../../../src/sources/fs.js';
import { makeTree } from '../../helpers/tree.js';

let dir = '';
let cleanup = async () => {};

beforeAll(async () => {
  ({ dir, cleanup } = await makeTree({
    '.gitignore': 'build/\n*.log\n',
    'a.ts': 'a', 'b.py': 'b', 'notes.MD': 'n', 'x.log': 'log',
    'build/out.js': 'o',
    '.hidden/h.ts': 'h', '.env': 'e',
    'sub/.gitignore': '*.tmp\n!keep.log\n', 'sub/c.ts': 'c', 'sub/d.tmp': 'd', 'sub/keep.log': 'k',
    'big.txt': 'x'.repeat(5000),
  }));
  await mkdir(path.join(dir, '.git'));
  await writeFile(path.join(dir, '.git', 'config'), 'x');
});
afterAll(() => cleanup());

async function list(opts: Partial<FsSourceOptions> & { paths?: string[] } = {}) {
  const src = createFsSource({ paths: [dir], ...opts });
  const out: string[] = [];
  for await (const e of src.list()) out.push(path.relative(dir, e.path).split(path.sep).join('/'));
  return { files: out, warnings: src.drainWarnings!().map((w) => w.code) };
}

describe('fs source', () => {
  it('walks sorted, honouring nested .gitignore (with negation), skipping hidden and .git', async () => {
    expect((await list()).files).toEqual(['a.ts', 'b.py', 'big.txt', 'notes.MD', 'sub/c.ts', 'sub/keep.log']);
  });

  it('--hidden and --no-ignore widen the walk but never enter .git', async () => {
    const { files } = await list({ hidden: true, noIgnore: true });
    expect(files).toEqual(['.env', '.gitignore', '.hidden/h.ts', 'a.ts', 'b.py', 'big.txt', 'build/out.js', 'notes.MD', 'sub/.gitignore', 'sub/c.ts', 'sub/d.tmp', 'sub/keep.log', 'x.log']);
  });

  it('filters by extension (case-insensitive, with or without dot) and size', async () => {
    expect((await list({ extensions: ['ts', '.md'] })).files).toEqual(['a.ts', 'notes.MD', 'sub/c.ts']);
    const capped = await list({ maxFileBytes: 100 });
    expect(capped.files).not.toContain('big.txt');
    expect(capped.warnings).toEqual(['TOO_LARGE']);
  });

  it('always lists files named explicitly, and expands quoted globs', async () => {
    expect((await list({ paths: [path.join(dir, 'x.log')] })).files).toEqual(['x.log']);
    expect((await list({ paths: [`${dir}/**/*.ts`] })).files).toEqual(['a.ts', 'sub/c.ts']);
  });

  it('a glob root [!a]* leaves .env out without --hidden (a class first matched dot names)', async () => {
    expect((await list({ paths: [`${dir}/[!a]*`] })).files).toEqual(['b.py', 'big.txt', 'notes.MD']);
    expect((await list({ paths: [`${dir}/[!a]*`], hidden: true })).files).toEqual(['.env', '.gitignore', 'b.py', 'big.txt', 'notes.MD']);
  });

  it('a glob root of more than 1,024 brace alternatives is that root\'s warning; the other paths are still searched (it aborted the search)', async () => {
    const src = createFsSource({ paths: [`${dir}/${'{a,b}'.repeat(11)}*`, path.join(dir, 'a.ts')] });
    const out: string[] = [];
    for await (const e of src.list()) out.push(path.relative(dir, e.path));
    expect(out).toEqual(['a.ts']);
    expect(src.drainWarnings!().map((w) => [w.code, w.message.replace(dir, 'DIR')])).toEqual([
      ['BAD_FLAG', `glob "${'{a,b}'.repeat(11)}*" has more than 1024 alternatives in its braces; use fewer braces or escape them as \\{; this path was not searched`],
    ]);
  });

  it('--no-recursive lists a directory\'s own files (docs/cli.md, as a prefix\'s), reports missing paths and keeps going', async () => {
    const r = await list({ paths: [path.join(dir, 'nope.txt'), path.join(dir, 'sub'), path.join(dir, 'a.ts')], recursive: false });
    expect(r.files).toEqual(['sub/c.ts', 'sub/keep.log', 'a.ts']);
    expect(r.warnings).toEqual(['PATH_NOT_FOUND']);
    expect((await list({ recursive: false })).files).toEqual(['a.ts', 'b.py', 'big.txt', 'notes.MD']);
  });
});
