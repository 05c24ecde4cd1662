// A CLI search with --timeout whose ranking snapshot must be rebuilt from the store (its file lost) stops at the
// deadline, and the rebuild with it (the built CLI, a real LanceDB index). Before trust44 the search gave the
// rebuild no signal, and the rebuild never let the event loop turn (a small file's read ends in microtasks), so
// the deadline's timer fired only after it had read every file: the answer came after the whole rebuild, which
// was saved. Now the rebuild stops at the deadline and nothing is saved: the next search rebuilds it.
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { isolatedHome } from '../helpers/isolated-home.js';

const DIRS = 100;
const PER_DIR = 30;
let home: ReturnType<typeof isolatedHome>;
let tree = '';
let index = '';
const snapshotFiles = () => readdirSync(index).filter((f) => /^snapshot\b(?!\.prose)/.test(f));

beforeAll(async () => {
  home = isolatedHome();
  tree = path.join(home.dir, 'tree');
  index = path.join(home.dir, 'index');
  for (let d = 0; d < DIRS; d++) {
    mkdirSync(path.join(tree, `d${d}`), { recursive: true });
    for (let f = 0; f < PER_DIR; f++) writeFileSync(path.join(tree, `d${d}`, `f${f}.ts`), Array.from({ length: 40 }, (_, j) => `export const upload${d}x${f}x${j} = retry(${d}, ${f}, ${j}); // retry failed uploads`).join('\n') + '\n');
  }
  const built = await runCli(['index', tree, '--index-dir', index], { env: home.env });
  expect(built.code, built.stderr).toBe(0);
  expect(snapshotFiles().length).toBeGreaterThan(0);
}, 300_000);
afterAll(() => home.restore());

it('a search cut by its --timeout while the snapshot is rebuilt from the store stops the rebuild; the next search rebuilds it', async () => {
  for (const f of snapshotFiles()) rmSync(path.join(index, f));
  const began = performance.now();
  const cut = await runCli(['retry failed uploads', tree, '--index-dir', index, '--timeout', '1', '--stats', '--top-k', '3'], { env: home.env });
  const cutMs = performance.now() - began;
  expect(cut.code, cut.stderr).toBe(2);
  // mend44: it said only `stopped after the --timeout of 1 s: the results found so far are shown` (none), and a
  // script that always passes a short --timeout was answered empty every time, told nothing of why.
  expect(cut.stderr).toMatch(/^simgrep: stopped after the --timeout of 1 s: the results found so far are shown; workspace \S+'s ranking snapshot \(its file lost or damaged\) was being rebuilt from the index, and a rebuild cut short is not saved: run simgrep index to rebuild it \(or one search without --timeout; over MCP, the index tool\), else every search with as short a --timeout stops here$/m);
  // Before: the rebuild ran to its end (all 3,000 files) and was saved, the answer after it.
  expect(snapshotFiles()).toEqual([]);
  const again = performance.now();
  const full = await runCli(['retry failed uploads', tree, '--index-dir', index, '--stats', '--top-k', '3'], { env: home.env });
  const fullMs = performance.now() - again;
  expect(full.code, full.stderr).toBe(0);
  expect(full.stderr).toMatch(/searched 3,000 files, 120,000 lines, .* from workspace/);
  expect(existsSync(path.join(index, 'snapshot.bin'))).toBe(true);
  console.log(`cut search ${cutMs.toFixed(0)} ms; ${cut.stderr.trim().split('\n').pop()}; the next (the whole rebuild) ${fullMs.toFixed(0)} ms`);
}, 120_000);
