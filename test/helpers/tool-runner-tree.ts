// The MCP tools over a tree in a test's isolated home, as the server runs them (a resident action engine,
// `-J 0`), set up before a suite's tests and closed after them: the tree is not indexed, so the first search
// answers from a scan while its index builds in the background.
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createActionEngine, type ActionEngine } from '../../src/actions/engine.js';
import { createToolRunner, type ToolRunner } from '../../src/mcp/tools.js';
import { isolatedHome } from './isolated-home.js';

export interface ToolRunnerTree {
  readonly home: ReturnType<typeof isolatedHome>;
  /** The tree's directory (`tree` under the home). */
  readonly tree: string;
  readonly engine: ActionEngine;
  readonly runner: ToolRunner;
}

/** `files` (name -> text; a name may hold directories) written to the tree before the suite. */
export function toolRunnerTree(files: Record<string, string>): ToolRunnerTree {
  let home: ReturnType<typeof isolatedHome> | undefined;
  let tree = '';
  let engine: ActionEngine | undefined;
  let runner: ToolRunner | undefined;
  beforeAll(() => {
    home = isolatedHome();
    tree = path.join(home.dir, 'tree');
    mkdirSync(tree);
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(tree, name)), { recursive: true });
      writeFileSync(path.join(tree, name), text);
    }
    engine = createActionEngine({ concurrency: 0, resident: true });
    const real = realpathSync(tree);
    runner = createToolRunner(engine, { real, given: real });
  });
  afterAll(async () => {
    await engine?.close();
    home?.restore();
  });
  return {
    get home() { return home!; },
    get tree() { return tree; },
    get engine() { return engine!; },
    get runner() { return runner!; },
  };
}

/** `n` files upload0.ts .. upload{n-1}.ts, each a function whose comment is `comment(i)`. */
export function uploadFiles(n: number, comment: (i: number) => string): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) files[`upload${i}.ts`] = `export function retryUpload${i}(n: number) {\n  // ${comment(i)}\n  return n + ${i};\n}\n`;
  return files;
}
