// A query of stop words ("the of and a") over a file whose line contains "the" printed a result at
// distance 0.99 and exited 0 (issue 28): such a hit is chance, of negligible relevance, so it is no
// match (exit 1), from a scan and from the index alike. --mode semantic still gives the nearest lines.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

let tmp = '';
let tree = '';
let env: Record<string, string> = {};

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-stopwords-'));
  tree = path.join(tmp, 'tree');
  mkdirSync(tree);
  writeFileSync(path.join(tree, 'notes.txt'), 'the quick brown fox\nnothing else here\n');
  env = { SIMGREP_HOME: path.join(tmp, 'home'), SIMGREP_CACHE_DIR: path.join(tmp, 'cache') };
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('a query of stop words', () => {
  it('a query of stop words prints a result at distance 0.99 and exits 0: no match, exit 1, from the scan and the index alike', async () => {
    expect((await runCli(['index', tree, '-w', 'stop'], { env })).code).toBe(0);
    const note = 'simgrep: the query "the of and a" has only common words (stop words), which match any line by chance: no match; use identifiers or words, or --mode semantic for the nearest lines anyway\n';
    for (const where of [['--no-index'], ['-w', 'stop']]) {
      const r = await runCli(['the of and a', tree, ...where], { env });
      expect([where, r.code, r.stdout, r.stderr]).toEqual([where, 1, '', note]);
      // A query with a content word still matches; semantic mode is nearest lines by design.
      expect((await runCli(['the fox', tree, ...where], { env })).code).toBe(0);
      expect((await runCli(['the of and a', tree, '--mode', 'semantic', ...where], { env })).code).toBe(0);
    }
  });

  it('a query of numbers alone ("1964") is no match in hybrid mode, and the note says so, not "only common words" (trial35)', async () => {
    writeFileSync(path.join(tmp, 'dates.txt'), 'Le pont a été inauguré en 1964 après six ans de travaux.\nLa tour fut achevée en 1889.\n');
    const r = await runCli(['1964', path.join(tmp, 'dates.txt'), '--no-index'], { env });
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toBe('simgrep: the query "1964" has numbers but no word: a number is looked up only beside a query\'s words; add a word beside it, or use --mode lexical for the lines that hold it (--mode line for the nearest lines)\n');
    expect((await runCli(['en 1964', path.join(tmp, 'dates.txt'), '--no-index'], { env })).code).toBe(0);
  });
});
