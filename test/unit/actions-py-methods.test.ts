// Python's str and list answers of the workflow templates (py-methods.ts, py-text.ts), each row checked
// against jinja2 3.1.6: slices and lengths by code point, on long text without copying it whole.
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { condition, renderValue } from '../../src/actions/workflow/templates.js';

const ctx = (state: Record<string, unknown>) => ({ state, variables: {}, settings: {}, env: {} });

describe('strings by code point, as Python', () => {
  const rows: [string, unknown][] = [
    ['{{ state.s[1:3] }}', '😀b'],
    ['{{ state.s[::-1] }}', 'cb😀a'],
    ['{{ state.s[-2:] }}', 'bc'],
    ['{{ state.s[::2] }}', 'ab'],
    ['{{ state.s | count }}', 4],
    ['{{ state.s.count("") }}', 5],
    ['{{ state.s | truncate(3, true, "..", 0) }}', 'a..'],
    ['{{ "%.2s" % state.s }}', 'a😀'],
    ['{{ state.s.strip("ac") }}', '😀b'],
    ['{{ (state.s * 3)[4:7] }}', 'a😀b'],
    ['{{ state.dense[2:4] }}|{{ state.dense[-2:] }}|{{ state.dense[1:] | count }}|{{ state.dense[:3] }}', '😀🎉|🎉x|6|😀🎉😀'],
    ['{{ state.ascii[2:4] }}|{{ state.ascii[-3:-1] }}|{{ state.ascii[5:2] }}|{{ state.ascii[::-2] }}', 'cd|de||fdb'],
  ];
  it.each(rows)('%s is %j', (template, want) => {
    expect(renderValue(template, ctx({ s: 'a😀bc', ascii: 'abcdef', dense: '😀🎉😀🎉😀🎉x' }))).toEqual(want);
  });

  // state.s[:30] on 50 MB copied the text into an array of 50 million characters first (4 s, ~1 GB);
  // so did truncate, count and "%.30s".
  it('a slice, truncate, count and %.30s of 50 MB of text take the part they need, not a copy of it all', () => {
    const big = 'retry the upload '.repeat(3_000_000);
    const c = ctx({ big, emoji: `😀${big}` });
    const t0 = performance.now();
    expect(renderValue('{{ state.big[:30] }}|{{ state.big | truncate(20) }}|{{ "%.5s" % state.big }}', c)).toBe('retry the upload retry the upl|retry the upload...|retry');
    expect(renderValue('{{ state.big | count }}', c)).toBe(big.length);
    expect(renderValue('{{ state.emoji[:7] }}|{{ state.emoji[-3:] }}|{{ state.emoji.count("") }}', c)).toBe(`😀retry |ad |${big.length + 2}`);
    expect(performance.now() - t0).toBeLessThan(3000);
  });
});

describe('==, != and in as Python compares', () => {
  // A YAML alias can make a value that holds itself; comparing it with itself recursed until
  // "Maximum call stack size exceeded". Python answers True at once (the same object).
  it('a cyclic YAML alias equals itself', () => {
    const state = parseYaml('a: &x {self: *x, n: 1}\nb: &y [1, *y]\n') as Record<string, unknown>;
    const c = ctx(state);
    expect(condition('state.a == state.a', c)).toBe(true);
    expect(condition('state.b != state.b', c)).toBe(false);
    expect(renderValue('{{ state.a in [state.b, state.a] }}|{{ state.a.self == state.a }}', c)).toBe('True|True');
  });
});

describe('strip() on hostile text (trust47)', () => {
  // `/\s+$/` tried every run of white space to its end: a file's text of 50,000 spaces and a word took 8 s to
  // rstrip, 100,000 four times that, in the workflow's one thread.
  it('strips a 50,000-space run inside the text at once, as Python does', () => {
    const text = `a${' '.repeat(50_000)}b`;
    const started = performance.now();
    expect(renderValue('{{ state.t.strip() | count }}|{{ state.t.rstrip() | count }}|{{ state.t.lstrip() | count }}', ctx({ t: text }))).toBe('50002|50002|50002');
    expect(renderValue('{{ state.u.strip() }}|{{ state.u.lstrip() }}|{{ state.u.rstrip() }}', ctx({ u: ' \t\n x y \r\n' }))).toBe('x y|x y \r\n| \t\n x y');
    expect(performance.now() - started).toBeLessThan(500);
  });
});
