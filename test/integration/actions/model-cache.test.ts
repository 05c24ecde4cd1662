// The engine-level cache: the model is loaded lazily on the first action and shared by every later
// one (searches, vector collections and workspaces alike) — one load for many calls.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isolatedHome } from '../../helpers/isolated-home.js';

const loads = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../../src/model/load.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../src/model/load.js')>();
  return { ...real, loadModel: (...args: Parameters<typeof real.loadModel>) => { loads.count++; return real.loadModel(...args); } };
});

const { createActionEngine, createActions } = await import('../../../src/index.js');

let home: ReturnType<typeof isolatedHome>;
beforeAll(() => {
  home = isolatedHome();
  mkdirSync(path.join(home.dir, 'docs'), { recursive: true });
  writeFileSync(path.join(home.dir, 'docs', 'a.md'), 'retry the failed upload\nparse the config\n');
});
afterAll(() => home.restore());

describe('engine-level model cache', () => {
  it('loads the model once, on the first action, for all actions of an engine', async () => {
    const engine = createActionEngine({ concurrency: 0 });
    const actions = createActions(engine);
    const docs = path.join(home.dir, 'docs');
    expect(loads.count).toBe(0);
    const calls: [string, Record<string, unknown>][] = [
      ['semtools.search', { query: 'retry', files: path.join(docs, 'a.md') }],
      ['search.semantic', { query: 'retry', paths: [docs] }],
      ['search.semantic_content', { query: 'retry', content: 'retry it' }],
      ['vector.store', { texts: ['retry it'], ids: ['1'] }],
      ['vector.query', { query: 'retry' }],
      ['vector.index_files', { paths: docs }],
      ['search.workspace_create', { name: 'w', paths: [docs] }],
      ['search.workspace_search', { name: 'w', query: 'retry' }],
      ['search.workspace_stats', { name: 'w' }],
    ];
    for (const [name, params] of calls) {
      const r = await actions[name]({}, params);
      expect(r.success === false ? r : 'ok', name).toBe('ok');
    }
    expect(loads.count).toBe(1);
    await engine.close();
  });
});
