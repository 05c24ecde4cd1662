// The engine's background build runs its made-up searches (mcp/warm-searches.ts) before the index answers,
// and the index then answers as the scan did.
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActionEngine, type ActionEngine } from '../../src/actions/engine.js';
import { createToolRunner, type ToolRunner } from '../../src/mcp/tools.js';
import { WARM_QUERIES, warmSearchesRun } from '../../src/mcp/warm-searches.js';
import { isolatedHome } from '../helpers/isolated-home.js';

let home: ReturnType<typeof isolatedHome>;
let engine: ActionEngine;
let runner: ToolRunner;

type Answer = { index: string; matches: { path: string; match_line: number; score: number }[] };
const search = async (query: string) => {
  const r = await runner.call('search', { query });
  expect(r.isError, JSON.stringify(r.content)).toBeUndefined();
  return r.structuredContent as Answer;
};

beforeAll(() => {
  home = isolatedHome();
  const tree = path.join(home.dir, 'tree');
  mkdirSync(tree);
  for (let i = 0; i < 6; i++) writeFileSync(path.join(tree, `upload${i}.ts`), `export function retryUpload${i}(n: number) {\n  // retry failed uploads, then read the input file\n  return n + ${i};\n}\n`);
  writeFileSync(path.join(tree, 'README.md'), '# Uploads\n\nFailed uploads are retried three times.\n');
  engine = createActionEngine({ concurrency: 0, resident: true });
  const real = realpathSync(tree);
  runner = createToolRunner(engine, { real, given: real });
});

afterAll(async () => {
  await engine.close();
  home.restore();
});

describe('the background build warms the indexed search', () => {
  it('runs the made-up searches and find_related before the index answers, which answers as the scan did', async () => {
    const before = warmSearchesRun();
    const scanned = await search('retry failed uploads');
    expect(scanned.index).toBe('building');
    await runner.settled!();
    // Every made-up search, and find_related on the top hits of the first three (each finds an upload file).
    expect(warmSearchesRun() - before).toBe(WARM_QUERIES.length + 3);
    const fresh = await search('retry failed uploads');
    expect(fresh.index).toBe('fresh');
    expect(fresh.matches).toEqual(scanned.matches);
  });
});
