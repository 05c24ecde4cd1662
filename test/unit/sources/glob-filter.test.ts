// -g/--glob's meaning (ripgrep's): gitignore-style globs relative to the root, the last matching glob
// decides, `!` excludes, any including glob makes the rest excluded; excluded directories are pruned.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFsSource } from '../../../src/sources/fs.js';
import { compileGlobs } from '../../../src/sources/glob-filter.js';
import { checkFilterValues } from '../../../src/sources/filter-options.js';

const TREE = ['a.ts', 'a.py', 'src/b.ts', 'src/lib/c.ts', 'src/lib/d.py', 'x/src/e.ts', 'gen/f.ts', 'gen/sub/g.ts', 'gen/keep.ts', '.env'];

/** The files of TREE a flat listing keeps with these globs. */
const kept = (globs: string[]) => TREE.filter((f) => compileGlobs(globs)!.listed(f));

describe('-g/--glob', () => {
  it.each([
    ['a glob without a slash matches the name at any depth', ['*.ts'], ['a.ts', 'src/b.ts', 'src/lib/c.ts', 'x/src/e.ts', 'gen/f.ts', 'gen/sub/g.ts', 'gen/keep.ts']],
    ['a glob with a slash is anchored at the root', ['src/*.ts'], ['src/b.ts']],
    ['a leading / or ./ anchors it too', ['/*.ts', './src/*.ts'], ['a.ts', 'src/b.ts']],
    ['** crosses directories, and matches none', ['src/**/*.ts'], ['src/b.ts', 'src/lib/c.ts']],
    ['! alone excludes, the rest stays', ['!*.py'], ['a.ts', 'src/b.ts', 'src/lib/c.ts', 'x/src/e.ts', 'gen/f.ts', 'gen/sub/g.ts', 'gen/keep.ts', '.env']],
    ['!dir/ excludes everything under a directory of that name', ['!src/', '!gen/'], ['a.ts', 'a.py', '.env']],
    ['a later glob wins over an earlier one', ['*.ts', '!src/**', 'src/b.ts'], ['a.ts', 'src/b.ts', 'x/src/e.ts', 'gen/f.ts', 'gen/sub/g.ts', 'gen/keep.ts']],
    ['an earlier glob loses to a later one', ['src/lib/c.ts', '!src/**'], []],
    ['nothing below an excluded directory comes back, as in ripgrep', ['*.ts', '!gen/sub/', 'gen/sub/g.ts'], ['a.ts', 'src/b.ts', 'src/lib/c.ts', 'x/src/e.ts', 'gen/f.ts', 'gen/keep.ts']],
    ['* matches dotfiles (hidden files are left out by --hidden\'s rule, not the glob)', ['.*'], ['.env']],
  ])('%s: %j', (_, globs, files) => {
    expect(kept(globs)).toEqual(files);
  });

  it('directories excluded by !dir/ or !dir/** are not entered; an including glob never prunes', () => {
    expect(compileGlobs(['!gen/'])!.dir('gen')).toBe(false);
    expect(compileGlobs(['!gen/**'])!.dir('gen')).toBe(false);
    expect(compileGlobs(['!gen/**', 'gen/keep.ts'])!.dir('gen')).toBe(true); // a later glob may keep a file in it
    expect(compileGlobs(['!gen/**', 'gen/keep.ts'])!.listed('gen/keep.ts')).toBe(true);
    expect(compileGlobs(['src/**/*.ts'])!.dir('docs')).toBe(true);
  });

  it('a walk lists no directory a glob excludes, and keeps what a flat listing keeps', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'simgrep-globs-'));
    try {
      for (const f of TREE) { mkdirSync(path.dirname(path.join(root, f)), { recursive: true }); writeFileSync(path.join(root, f), 'x\n'); }
      for (const globs of [['!gen/', '*.ts'], ['!gen/**', '!src/lib/**'], ['*.ts', '!src/**', 'src/b.ts']]) {
        const listed: string[] = [];
        const found: string[] = [];
        for await (const e of createFsSource({ paths: [root], globs, hidden: true, onListed: (d) => listed.push(path.relative(root, d)) }).list()) found.push(path.relative(root, e.path));
        expect(found.sort(), globs.join(' ')).toEqual(kept(globs).sort());
        for (const d of listed) expect(compileGlobs(globs)!.enters(d || '.'), `${d} listed with ${globs.join(' ')}`).toBe(true);
        if (globs[0].startsWith('!gen')) expect(listed.some((d) => d.startsWith('gen'))).toBe(false);
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('a bad glob or type is refused saying how to fix it, named as each surface spells it', () => {
    expect(() => checkFilterValues({ globs: ['!'] }, 'cli')).toThrow('-g/--glob "!" is empty; give a pattern such as "*.ts", "src/**" or "!vendor/"');
    expect(() => checkFilterValues({ globs: ['src/{a,b'] }, 'param')).toThrow('globs "src/{a,b" has a { without its }; escape it as \\{');
    expect(() => checkFilterValues({ typesNot: ['cobol'] }, 'library')).toThrow(/^unknown file type "cobol" \(option typesNot\); known types: c, cpp, .*, yaml \(any case; also c\+\+, .*, python, .*\)$/);
    expect(() => checkFilterValues({ perFile: 0 }, 'param')).toThrow('per_file must be a whole number >= 1 (got 0); 1 gives one result per file');
  });
});
