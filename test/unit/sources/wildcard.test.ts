// wildcard.ts and gitignore-rules.ts, case by case: git's .gitignore syntax and -g's globs (ripgrep's
// meaning), including where git and the `ignore` package part (the property tests skip those).
import { describe, expect, it } from 'vitest';
import { checkGlob } from '../../../src/sources/glob-filter.js';
import { GitignoreRules } from '../../../src/sources/gitignore-rules.js';
import { compileGlob, expandBraces, globBase, MAX_BRACE_ALTERNATIVES, MAX_BRACE_DEPTH } from '../../../src/sources/wildcard.js';

/** Which of these paths (a directory's ends in '/') the rule file ignores. */
const ignored = (rules: string, paths: string[]) => paths.filter((p) => new GitignoreRules().add(rules).test(p).ignored);

describe('gitignore rules', () => {
  it.each([
    ['a comment and a blank line are no rules; \\# is a literal #', '# x\n\n   \n\\#x', ['# x', '#x', 'x'], ['#x']],
    ['\\! is a literal !', '\\!x', ['!x', 'x'], ['!x']],
    ['trailing spaces go, an escaped one stays', 'a  \nb\\ ', ['a', 'a ', 'b', 'b '], ['a', 'b ']],
    ['! re-includes what an earlier line ignored; the last line that matches wins', '*.log\n!keep.log\nkeep*', ['a.log', 'keep.log', 'keeper'], ['a.log', 'keep.log', 'keeper']],
    ['nothing below an ignored directory comes back', 'build/\n!build/keep', ['build/', 'build/keep', 'x/build/keep'], ['build/', 'build/keep', 'x/build/keep']],
    ['a slash at the start or middle anchors', '/top\nsrc/gen', ['top', 'x/top', 'src/gen', 'x/src/gen'], ['top', 'src/gen']],
    ['a trailing slash: directories only', 'out/', ['out', 'out/', 'x/out/'], ['out/', 'x/out/']],
    ['**/ at the start: any depth; /** at the end: everything inside, not the directory', '**/cache\nlib/**', ['cache', 'a/b/cache', 'lib/', 'lib/x', 'lib/x/y'], ['cache', 'a/b/cache', 'lib/x', 'lib/x/y']],
    ['a/**/b: zero or more directories between', 'a/**/b', ['a/b', 'a/x/b', 'a/x/y/b', 'ab', 'x/a/b'], ['a/b', 'a/x/b', 'a/x/y/b']],
    ['* and ? never cross a slash; * matches dot files', '*.js\na?c', ['.js', 'x/.y.js', 'a/c', 'abc', 'a/b'], ['.js', 'x/.y.js', 'abc']],
    ['classes: ranges, [!...] and [^...] (git\'s negation), \\ escapes', '[a-c]1\n[!x]2\n[^y]3\n\\*4', ['b1', 'd1', 'x2', 'z2', 'y3', 'z3', '*4', 'a4'], ['b1', 'z2', 'z3', '*4']],
    ['an unclosed [ matches nothing; a trailing \\ drops the line', '[ab\nc\\', ['[ab', 'a', 'c', 'c\\'], []],
    ['case-insensitive, as the ignore package has always matched here', 'Foo', ['foo', 'FOO'], ['foo', 'FOO']],
  ])('%s', (_, rules, paths, expected) => {
    expect(ignored(rules, paths)).toEqual(expected);
  });

  it('a negation says unignored (the deeper rule file\'s opinion that wins over an outer one)', () => {
    expect(new GitignoreRules().add('*.md\n!README.md').test('README.md')).toEqual({ ignored: false, unignored: true });
    expect(new GitignoreRules().add('*.md').test('x.txt')).toEqual({ ignored: false, unignored: false });
  });
});

describe('globs', () => {
  it.each([
    ['*.ts', ['a.ts', '.a.ts', 'x/a.ts'], ['a.ts', '.a.ts']],
    ['src/**/*.ts', ['src/a.ts', 'src/x/y/a.ts', 'a.ts'], ['src/a.ts', 'src/x/y/a.ts']],
    ['{src,lib}/*.{ts,js}', ['src/a.ts', 'lib/b.js', 'doc/c.ts', 'src/d.md'], ['src/a.ts', 'lib/b.js']],
    ['{a,b/c}/x', ['a/x', 'b/c/x', 'b/x'], ['a/x', 'b/c/x']],
    ['\\{a,b\\}', ['{a,b}', 'a'], ['{a,b}']],
    ['[!a]?', ['ab', 'bb', 'b'], ['bb']],
    ['a/**', ['a', 'a/b', 'a/b/c', 'ab'], ['a', 'a/b', 'a/b/c']],
    ['a**b', ['ab', 'axxb', 'a/b', 'ax/yb'], ['ab', 'axxb']],
    ['**{x,y}.js', ['x.js', 'ay.js', 'a/x.js'], ['x.js', 'ay.js']],
  ])('%s', (glob, paths, expected) => {
    expect(paths.filter(compileGlob(glob, { dot: true }))).toEqual(expected);
  });

  it('dot: false keeps wildcards off dot names, as a glob root without --hidden wants', () => {
    expect(['.a', 'a', 'x/.b/c', 'x/b/c'].filter(compileGlob('**/*', { dot: false }))).toEqual(['a', 'x/b/c']);
    expect(['.a', 'a'].filter(compileGlob('.*', { dot: false }))).toEqual(['.a']);
    // A class first, negated or not, is no dot: a glob root [!a]* searched .env without --hidden.
    const names = ['.env', 'x/.env', 'b', 'x/b', '.'];
    expect(['[!a]*', '[^a]*', '[.]*', 'x/[!a]*'].map((g) => names.filter(compileGlob(g, { dot: false })))).toEqual([['b'], ['b'], [], ['x/b']]);
  });

  it('braces are expanded up front with a bound: more alternatives are refused, saying how to fix it', () => {
    expect(expandBraces('{a,b}{c,d}')).toEqual(['ac', 'ad', 'bc', 'bd']);
    expect(expandBraces('x{a}y')).toEqual(['x{a}y']);
    const many = '{a,b}'.repeat(11); // 2,048 alternatives
    expect(() => compileGlob(many, { dot: true })).toThrow(`has more than ${MAX_BRACE_ALTERNATIVES} alternatives in its braces; use fewer braces or escape them as \\{`);
    expect(() => checkGlob(many)).toThrow(`-g/--glob ${JSON.stringify(many)} has more than ${MAX_BRACE_ALTERNATIVES} alternatives in its braces; use fewer braces or escape them as \\{`);
  });

  it('a 60 KB glob of nested braces is refused at once, not expanded (the old expansion: 9.8 s and a stack overflow, reported as too many alternatives)', () => {
    const nested = '{a,'.repeat(20000) + '}'.repeat(20000);
    const started = performance.now();
    const start = JSON.stringify(nested.slice(0, 200));
    expect(() => checkGlob(nested)).toThrow(`-g/--glob ${start}... (80000 characters) nests braces more than ${MAX_BRACE_DEPTH} deep; use fewer nested {a,b}, or escape a brace as \\{`);
    expect(() => compileGlob(nested, { dot: false })).toThrow(`glob ${start}... (80000 characters) nests braces more than ${MAX_BRACE_DEPTH} deep`);
    // Wide, not deep: 20,001 alternatives in one group, counted before any is made.
    const wide = '{' + 'a,'.repeat(20000) + 'b}';
    expect(() => compileGlob(wide, { dot: false })).toThrow(`has more than ${MAX_BRACE_ALTERNATIVES} alternatives in its braces`);
    expect(performance.now() - started).toBeLessThan(500);
    // The bounds themselves still expand.
    expect(expandBraces('{a,'.repeat(MAX_BRACE_DEPTH) + 'b' + '}'.repeat(MAX_BRACE_DEPTH))).toHaveLength(MAX_BRACE_DEPTH + 1);
    expect(expandBraces('{a,b}'.repeat(10))).toHaveLength(MAX_BRACE_ALTERNATIVES);
  });

  it('a glob root\'s base is its leading segments without a wildcard', () => {
    expect(globBase('./src/**/*.ts')).toEqual({ base: 'src', glob: '**/*.ts' });
    expect(globBase('/abs/*.md')).toEqual({ base: '/abs', glob: '*.md' });
    expect(globBase('/*.md')).toEqual({ base: '/', glob: '*.md' });
    expect(globBase('*.md')).toEqual({ base: '', glob: '*.md' });
  });
});
