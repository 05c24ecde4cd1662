// A pool thread starts before the first answer's batches and must be ready for them (issue 30): each worker
// entry is bundled with what it imports into one file in dist/workers (src/cli/bundle.mjs), where tsc's output
// had each thread resolve, read and link 57 module files after Node's own start of it. A search through the
// built CLI's pool, with a load hook in every thread that notes the files it loads: the worker threads load
// one file of simgrep's own, the embed worker, and the worker files import no other.
import { appendFileSync, mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { isolatedHome } from '../helpers/isolated-home.js';
import { repoRoot } from '../helpers/shared.js';

let home: ReturnType<typeof isolatedHome>;
let tree = '';

beforeAll(() => {
  home = isolatedHome('simgrep-worker-bundle-');
  tree = path.join(home.dir, 'tree');
  mkdirSync(tree, { recursive: true });
  // Over the searcher's 2 MiB in-process limit, so the scan runs on the pool's threads.
  for (let f = 0; f < 24; f++) {
    const lines: string[] = [];
    for (let i = 0; i < 1500; i++) lines.push(`export function step${f}_${i}(input) { return retryUpload(input, ${i}) + queue${i % 7}.size; } // upload ${i}`);
    writeFileSync(path.join(tree, `mod${f}.ts`), lines.join('\n') + '\n');
  }
  appendFileSync(path.join(tree, 'mod3.ts'), 'export function retryFailedUpload(file) {\n  // retry the upload after a failure\n  return store.save(file);\n}\n');
});
afterAll(() => home.restore());

it('a pool thread loads simgrep\'s worker code as one file', async () => {
  const log = path.join(home.dir, 'loads.log');
  const hook = path.join(home.dir, 'hook.mjs');
  const register = path.join(home.dir, 'register.mjs');
  // Every module file a thread loads, noted with the thread's id (0: the main thread).
  writeFileSync(hook, `import { appendFileSync } from 'node:fs';\nlet thread = 0;\nexport function initialize(d) { thread = d.thread; }\nexport async function load(u, c, n) { if (u.startsWith('file:')) appendFileSync(${JSON.stringify(log)}, thread + ' ' + u + '\\n'); return n(u, c); }\n`);
  writeFileSync(register, `import { register } from 'node:module';\nimport { threadId } from 'node:worker_threads';\nregister(${JSON.stringify(new URL(`file://${hook}`).href)}, import.meta.url, { data: { thread: threadId } });\n`);
  const r = await runCli(['--no-server', '--no-index', '-J', '2', '--json', '--top-k', '3', 'retry the failed upload', tree], {
    env: { ...home.env, NODE_OPTIONS: `--import ${register}` },
  });
  expect(r.code, r.stderr).toBe(0);
  expect((JSON.parse(r.stdout) as { results: unknown[] }).results.length).toBeGreaterThan(0);
  const lines = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [];
  const threads = new Set(lines.map((l) => l.split(' ')[0]).filter((t) => t !== '0'));
  // The scan ran on the pool: both its threads loaded their code.
  expect(threads.size, lines.join('\n')).toBe(2);
  const dist = `file://${path.join(repoRoot, 'dist')}/`;
  for (const t of threads) {
    const own = lines.filter((l) => l.startsWith(`${t} ${dist}`)).map((l) => l.slice(`${t} ${dist}`.length));
    expect(own).toEqual(['workers/embed.worker.js']);
  }
}, 120_000);

it('the worker files import no module file of simgrep\'s own', () => {
  for (const f of ['embed.worker.js', 'stat.worker.js']) {
    const text = readFileSync(path.join(repoRoot, 'dist', 'workers', f), 'utf8');
    expect(text.match(/(?:from|import\()\s*["']\.{1,2}\/[^"']*["']/g) ?? [], f).toEqual([]);
  }
});
