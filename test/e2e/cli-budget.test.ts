// simgrep --json/--jsonl --max-tokens and --per-file (issue 30): the printed answer never passes the
// budget (characters / 4), a cut answer says what it cut, and one result per file means one.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { isolatedHome } from '../helpers/isolated-home.js';

let home: ReturnType<typeof isolatedHome>;
let dir = '';

beforeAll(() => {
  home = isolatedHome('simgrep-budget-');
  dir = path.join(home.dir, 'tree');
  mkdirSync(dir);
  for (const t of ['upload', 'download', 'cache', 'socket']) {
    for (let f = 0; f < 3; f++) {
      const methods = ['start', 'retry', 'finish'].flatMap((m) => [`  ${m}${t}(input) {`, `    // ${m} the ${t}, attempt ${f}`, `    return this.store.${m}(input, ${f});`, '  }', '']);
      writeFileSync(path.join(dir, `${t}-${f}.ts`), [`export class ${t}Service${f} {`, ...methods, '}', ''].join('\n'));
    }
  }
});
afterAll(() => home.restore());

const search = (args: string[]) => runCli([...args, '--no-index', '-J', '0'], { env: home.env });

describe('--max-tokens', () => {
  it.each([['--json', 120], ['--json', 400], ['--jsonl', 120], ['--jsonl', 400]] as const)('%s within %i tokens, the cut reported', async (format, maxTokens) => {
    for (const query of ['retry the upload', 'finish the socket']) {
      const r = await search([format, '--max-tokens', String(maxTokens), '--top-k', '12', '-n', '4', query, dir]);
      expect(r.code, r.stderr).toBe(0);
      expect(Math.ceil(r.stdout.length / 4)).toBeLessThanOrEqual(maxTokens);
      const budget = format === '--json' ? JSON.parse(r.stdout).budget : JSON.parse(r.stdout.trim().split('\n').at(-1)!).budget;
      expect(budget.max_tokens).toBe(maxTokens);
      expect(budget.used_tokens).toBeLessThanOrEqual(maxTokens);
      // What was printed, measured (it counted the budget object at its longest: over by ~10 tokens).
      expect(Math.abs(budget.used_tokens - Math.ceil(r.stdout.length / 4))).toBeLessThanOrEqual(1);
      // Twelve 9-line hunks never fit 400 tokens: something is always cut, and compact before dropped.
      expect(budget.compacted + budget.dropped).toBeGreaterThan(0);
      const results = format === '--json' ? JSON.parse(r.stdout).results : r.stdout.trim().split('\n').slice(0, -1).map((l) => JSON.parse(l));
      expect(results.length).toBe(12 - budget.dropped);
      if (budget.dropped > 0) expect(results.every((x: { compact?: boolean }) => x.compact)).toBe(true);
    }
  });

  it('is refused without --json or --jsonl, with the fix in the message', async () => {
    const r = await search(['--max-tokens', '500', 'retry', dir]);
    expect([r.code, r.stderr]).toEqual([2, 'simgrep: --max-tokens caps a JSON answer: add --json or --jsonl\n']);
  });
});

describe('--per-file', () => {
  it('1 gives one result per file, K of them', async () => {
    const r = await search(['--jsonl', '--per-file', '1', '--top-k', '6', 'retry the upload', dir]);
    const files = r.stdout.trim().split('\n').map((l) => JSON.parse(l).filename);
    expect(files.length).toBe(6);
    expect(new Set(files).size).toBe(6);
  });
});
