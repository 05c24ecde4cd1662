// One action engine over an isolated home and a folder of files, for the action tests.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createActionEngine, createActions, type Action, type ActionEngine } from '../../src/index.js';
import { isolatedHome } from './isolated-home.js';

export interface ActionFixture {
  home: ReturnType<typeof isolatedHome>;
  engine: ActionEngine;
  actions: Record<string, Action>;
  /** The folder holding `files`. */
  dir: string;
  close(): Promise<void>;
}

export function createActionFixture(folder: string, files: Record<string, string | Uint8Array>): ActionFixture {
  const home = isolatedHome();
  const dir = path.join(home.dir, folder);
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), content);
  }
  const engine = createActionEngine({ concurrency: 0 });
  return { home, engine, actions: createActions(engine), dir, close: async () => { await engine.close(); home.restore(); } };
}
