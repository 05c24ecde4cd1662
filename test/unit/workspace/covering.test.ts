// Which named workspace covers a path (registry.ts findCovering): the deepest covering roots win, paths are
// judged on their real paths (a link into a root is covered), and `rootsWithin` keeps only workspaces whose every
// root lies inside it. Guards coveringAll's one-realpath-per-call form (branch hop40) against the rule it had.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findCovering } from '../../../src/workspace/registry.js';

const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'covering-')));
const env = { SIMGREP_HOME: path.join(base, 'home') };
const tree = path.join(base, 'tree');
const sub = path.join(tree, 'sub');
const other = path.join(base, 'other');
for (const d of [sub, path.join(sub, 'deep'), other]) mkdirSync(d, { recursive: true });
symlinkSync(sub, path.join(base, 'link'));
const add = (name: string, roots: string[]) => {
  mkdirSync(path.join(env.SIMGREP_HOME, 'workspaces', name), { recursive: true });
  writeFileSync(path.join(env.SIMGREP_HOME, 'workspaces', name, 'workspace.json'), JSON.stringify({ name, roots, model: 'm', updated: '' }));
};
add('a-tree', [tree]);
add('b-sub', [sub]);
add('c-wide', [sub, other]);
mkdirSync(path.join(env.SIMGREP_HOME, 'workspaces', 'd-broken'));

afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('findCovering', () => {
  it('picks the workspace whose covering roots are deepest, on real paths', () => {
    expect(findCovering([path.join(sub, 'deep')], env)?.name).toBe('b-sub');
    expect(findCovering([path.join(base, 'link', 'deep')], env)?.name).toBe('b-sub');
    expect(findCovering([tree], env)?.name).toBe('a-tree');
    expect(findCovering([path.join(tree, 'sub-not')], env)?.name).toBe('a-tree');
    expect(findCovering([other], env)?.name).toBe('c-wide');
    expect(findCovering([sub, other], env)?.name).toBe('c-wide');
    expect(findCovering([base], env)).toBeNull();
    expect(findCovering([], env)).toBeNull();
  });

  it('keeps to workspaces whose every root lies inside rootsWithin', () => {
    expect(findCovering([path.join(sub, 'deep')], env, { rootsWithin: tree })?.name).toBe('b-sub');
    expect(findCovering([other], env, { rootsWithin: tree })).toBeNull();
    expect(findCovering([other], env, { rootsWithin: base })?.name).toBe('c-wide');
    expect(findCovering([sub], env, { rootsWithin: sub })?.name).toBe('b-sub');
    expect(findCovering([tree], env, { rootsWithin: sub })).toBeNull();
  });
});
