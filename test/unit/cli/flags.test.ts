import { describe, expect, it } from 'vitest';
import { FLAGS, SEMTOOLS_FLAGS, parseArgs } from '../../../src/cli/flags.js';

describe('parseArgs', () => {
  it('parses long, short, inline, negated and clustered flags', () => {
    const { flags, positionals } = parseArgs(['q', '--top-k', '5', '-n2', '-m=0.3', '--no-ignore', '-ir', '--ext=.py,.md', '--max-filesize', '10M', 'dir']);
    expect(positionals).toEqual(['q', 'dir']);
    expect(flags).toEqual({ 'top-k': 5, 'n-lines': 2, 'max-distance': 0.3, ignore: false, 'ignore-case': true, recursive: true, ext: ['.py,.md'], 'max-filesize': 10 * 1024 * 1024 });
  });

  it('rejects unknown flags and bad values with a fix', () => {
    expect(() => parseArgs(['--topk', '3'])).toThrow(/unknown option --topk; run simgrep --help/);
    expect(() => parseArgs(['--top-k', 'x'])).toThrow(/--top-k needs a whole number \(got "x"\)/);
    expect(() => parseArgs(['--embedder', 'gpu'])).toThrow(/must be one of static, onnx/);
    expect(() => parseArgs(['--model'])).toThrow(/--model needs a value/);
  });

  it('keeps negative numbers as values and everything after -- as positionals', () => {
    expect(parseArgs(['-m', '-1', '--', '--weird-file']).flags['max-distance']).toBe(-1);
    expect(parseArgs(['-m', '-1', '--', '--weird-file']).positionals).toEqual(['--weird-file']);
  });
});

describe('parseArgs with SEMTOOLS_FLAGS (the semtools personality)', () => {
  it('takes semtools\' clap names and aliases: -n/--n-lines/--context, -m/--max-distance/--threshold, -j/--json, -w, --output', () => {
    expect(parseArgs(['q', 'a.txt', '--context', '2', '--threshold=0.3', '-ij', '-w', 'ws', '--output', 'json'], SEMTOOLS_FLAGS, 'semtools search')).toEqual({
      flags: { 'n-lines': 2, 'max-distance': 0.3, 'ignore-case': true, json: true, workspace: 'ws', output: 'json' },
      positionals: ['q', 'a.txt'],
    });
    expect(parseArgs(['-n5', '-m', '0.5'], SEMTOOLS_FLAGS).flags).toEqual({ 'n-lines': 5, 'max-distance': 0.5 });
  });

  it('refuses simgrep-only flags and bad values, naming the program to ask for help', () => {
    expect(() => parseArgs(['--mode', 'line'], SEMTOOLS_FLAGS, 'semtools search')).toThrow(/unknown option --mode; run semtools search --help/);
    expect(() => parseArgs(['--output', 'yaml'], SEMTOOLS_FLAGS)).toThrow(/--output must be one of json, text/);
    expect(() => parseArgs(['--context'], FLAGS)).toThrow(/unknown option --context/);
  });
});
