// The built CLI, spawned in a temp dir: exact stdout and exit codes for each user-visible behaviour.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { makeTree } from '../helpers/tree.js';
import { writeTinyModel } from '../helpers/tiny-model.js';

let dir = '';
let model = '';
let cleanup = async () => {};

beforeAll(async () => {
  ({ dir, cleanup } = await makeTree({
    'src/net.ts': 'function send() {\n  // retry failed upload\n  return network timeout;\n}\n',
    'src/parse.py': 'def load():\n    # parse json config file\n    return yaml\n',
    'db/schema.sql': 'create table users;\n-- database index query\n',
    'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0x0a]),
  }));
  model = await writeTinyModel(path.join(dir, '.model'));
});
afterAll(() => cleanup());

const base = () => ['--model', model];

describe('simgrep CLI', () => {
  it('prints the best line with context in semtools text format, exit 0', async () => {
    const r = await runCli(['retry failed upload', 'src', '--mode', 'line', '--top-k', '1', '-n', '1', ...base()], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('src/net.ts:0::3 (0)\n   1: function send() {\n   2:   // retry failed upload\n   3:   return network timeout;\n\n');
    expect(r.code).toBe(0);
  });

  it('--mode semantic ranks chunks by their embedding alone and shows the closest line', async () => {
    const r = await runCli(['retry failed upload', 'src', 'db', '--mode', 'semantic', '--top-k', '1', '-n', '0', '--jsonl', ...base()], { cwd: dir });
    const [hit, ...rest] = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(rest).toEqual([]);
    expect([hit.filename, hit.match_line, hit.content]).toEqual(['src/net.ts', 2, '  // retry failed upload']);
    // distance = 1 / (1 + relevance), relevance = the chunk's cosine (plus the file-coherence boost)
    expect(hit.distance).toBeGreaterThan(0);
    expect(hit.distance).toBeLessThan(1);
    expect(r.code).toBe(0);
  });

  it('--json uses semtools\' schema with 0-based lines and an exclusive end', async () => {
    const r = await runCli(['parse json config file', '.', '--top-k', '1', '-n', '0', '--json', ...base()], { cwd: dir });
    expect(JSON.parse(r.stdout)).toEqual({
      results: [{ filename: './src/parse.py', start_line_number: 1, end_line_number: 2, match_line_number: 1, distance: expect.any(Number), content: '    # parse json config file' }],
    });
    expect(r.code).toBe(0);
  });

  it('--jsonl prints one object per line with 1-based lines', async () => {
    const r = await runCli(['database query', 'db', '--top-k', '1', '-n', '1', '--jsonl', ...base()], { cwd: dir });
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toEqual([{
      filename: 'db/schema.sql', start_line: 1, end_line: 2, match_line: 2, distance: expect.any(Number),
      content: 'create table users;\n-- database index query', matches: [{ line: 2, distance: expect.any(Number) }],
    }]);
  });

  it('searches stdin when no path is given', async () => {
    const r = await runCli(['button click', '-n', '0', '--top-k', '1', ...base()], { input: 'nothing here\nrender the button on click\n' });
    expect(r.stdout).toBe(`<stdin>:1::2 (${r.stdout.match(/\((.*)\)/)![1]})\n   2: render the button on click\n\n`);
    expect(r.code).toBe(0);
  });

  it('exits 1 and names the closest line when nothing is under --max-distance', async () => {
    const r = await runCli(['button click color', 'src/net.ts', '-m', '0.01', ...base()], { cwd: dir });
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^simgrep: no line is closer than --max-distance 0.01; the closest was src\/net.ts:\d+ \(distance [\d.]+\)\n$/);
    expect(r.code).toBe(1);
  });

  it('reports a missing path, still searches the others, and exits 2', async () => {
    const r = await runCli(['retry failed upload', 'nope.txt', 'src/net.ts', '--top-k', '1', '-n', '0', ...base()], { cwd: dir });
    expect(r.stdout).toMatch(/^src\/net.ts:1::2 /);
    expect(r.stderr).toContain('simgrep: nope.txt: no such file or directory');
    expect(r.code).toBe(2);
  });

  it('skips binary files silently, and counts them with --stats', async () => {
    const r = await runCli(['retry', '.', '--top-k', '50', '--json', ...base()], { cwd: dir });
    expect(JSON.parse(r.stdout).results.map((x: { filename: string }) => x.filename)).not.toContain('logo.png');
    expect(r.stderr).toBe('');
    const withStats = await runCli(['retry', '.', '--top-k', '50', '--json', '--stats', ...base()], { cwd: dir });
    expect(withStats.stdout).toBe(r.stdout);
    expect(withStats.stderr).toMatch(/^simgrep: searched \d+ files?, [\d,]+ lines?, [\d,]+ bytes? in \d+ ms; skipped 1 file \(1 binary\); 0 errors\n$/);
  });

  it.each([
    [['', 'src'], /the query is empty/],
    [['q', 'src', '--top-k', '0'], /--top-k must be a whole number >= 1 \(got 0\)/],
    [['q', 'src', '-m', '-1'], /--max-distance must be a number >= 0/],
    [['q', 'src', '--model', '/does/not/exist'], /does not exist|not found/i],
    [['q', 'src', '--bogus'], /unknown option --bogus/],
    [['q', 'src', '--mode', 'fuzzy'], /--mode must be one of hybrid, semantic, lexical, line/],
  ])('bad input %j gets a clear message and exit 2', async (args, message) => {
    const r = await runCli([...args, ...(args.includes('--model') ? [] : base())], { cwd: dir });
    expect(r.stderr).toMatch(message);
    expect(r.stderr.split('\n').length).toBeLessThanOrEqual(3);
    expect(r.code).toBe(2);
  });

  it('rejects a corrupt model file with a message that says how to fix it', async () => {
    const broken = path.join(dir, '.broken');
    await writeTinyModel(broken);
    await writeFile(path.join(broken, 'model.safetensors'), Buffer.from([1, 2, 3]));
    const r = await runCli(['q', 'src', '--model', broken], { cwd: dir });
    expect(r.stderr).toMatch(/model\.safetensors/);
    expect(r.code).toBe(2);
  });

  it('ranks by identifier parts and the defining line by default (hybrid), and says nothing matched in lexical mode', async () => {
    const tree = await makeTree({
      'lib/queue.js': 'const jobs = [];\n// network timeout\nfunction uploadRetryLimit() { return 3; }\n',
      'lib/files.js': 'function readConfig() {\n  return parse(json);\n}\n',
      'lib/upload.test.js': 'test("retry upload", () => {});\n',
    });
    try {
      const hybrid = await runCli(['upload retry limit', '.', '--top-k', '1', '-n', '0', '--jsonl', ...base()], { cwd: tree.dir });
      expect(JSON.parse(hybrid.stdout)).toMatchObject({ filename: './lib/queue.js', match_line: 3 });
      expect(hybrid.code).toBe(0);
      // --mode bm25 (the peers' name) is the lexical mode.
      const lexical = await runCli(['upload retry limit', '.', '--mode', 'lexical', '--jsonl', ...base()], { cwd: tree.dir });
      expect(lexical.stdout).toMatch(/queue\.js/);
      expect(await runCli(['upload retry limit', '.', '--mode', 'bm25', '--jsonl', ...base()], { cwd: tree.dir })).toMatchObject({ stdout: lexical.stdout, code: 0 });
      const none = await runCli(['database schema', '.', '--mode', 'lexical', ...base()], { cwd: tree.dir });
      expect(none.stdout).toBe('');
      expect(none.code).toBe(1);
    } finally { await tree.cleanup(); }
  });

  it('gives the same output with 0, 1 and 2 workers', async () => {
    const outs = await Promise.all(['0', '1', '2'].map((j) => runCli(['retry network', '.', '--top-k', '5', '-J', j, ...base()], { cwd: dir })));
    expect(outs[1].stdout).toBe(outs[0].stdout);
    expect(outs[2].stdout).toBe(outs[0].stdout);
  });
});

describe('simgrep CLI in a pipeline', () => {
  it('exits quietly with 0 when the reader closes the pipe early', async () => {
    const { spawnSync } = await import('node:child_process');
    const { cliPath } = await import('../helpers/cli.js');
    const big = path.join(dir, 'big.txt');
    await writeFile(big, Array.from({ length: 20000 }, (_, i) => `retry upload number ${i}`).join('\n'));
    const r = spawnSync('bash', ['-c', `set -o pipefail; node "${cliPath}" "retry upload" "${big}" --model "${model}" -m 2 -n 0 | head -n 1; echo "status=$?"`], { encoding: 'utf8' });
    expect(r.stdout).toMatch(/^.*big\.txt:\d+::\d+ \([\d.e-]+\)\nstatus=0\n$/);
    expect(r.stderr).toBe('');
  });
});

describe('the installed bin', () => {
  it('is executable after the build (npx simgrep failed with "Permission denied" in a fresh clone)', async () => {
    const { statSync } = await import('node:fs');
    const { cliPath } = await import('../helpers/cli.js');
    expect(statSync(cliPath).mode & 0o111).not.toBe(0);
  });
});
