// .git/info/exclude is read as ripgrep and git read it: rules of the repository's root, under that
// root's own .gitignore / .ignore (which win where they have an opinion), whether the walk starts at
// the root or below it; and a recorded walk is not used once the exclude file is created or edited.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFsSource } from '../../../src/sources/fs.js';
import { loadWalkRecord, saveWalkRecord } from '../../../src/workspace/changes/walk-record.js';

let tmp = '';
let repo = '';

async function list(root: string, noIgnore = false, listed: string[] = []): Promise<string[]> {
  const out: string[] = [];
  for await (const e of createFsSource({ paths: [root], noIgnore, onListed: (d) => listed.push(d) }).list()) out.push(path.relative(repo, e.path).split(path.sep).join('/'));
  return out;
}

beforeEach(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-git-exclude-'));
  repo = path.join(tmp, 'repo');
  mkdirSync(path.join(repo, '.git', 'info'), { recursive: true });
  mkdirSync(path.join(repo, 'src', 'gen'), { recursive: true });
  for (const f of ['a.ts', 'notes.scratch', 'keep.scratch', 'src/b.ts', 'src/c.scratch', 'src/gen/g.ts']) writeFileSync(path.join(repo, f), 'x');
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

describe('.git/info/exclude', () => {
  it('hides what it names from a walk of the repository or of a directory inside it; .gitignore wins over it; --no-ignore reads neither', async () => {
    expect(await list(repo)).toEqual(['a.ts', 'keep.scratch', 'notes.scratch', 'src/b.ts', 'src/c.scratch', 'src/gen/g.ts']);
    writeFileSync(path.join(repo, '.git', 'info', 'exclude'), '# local\n*.scratch\nsrc/gen/\n');
    writeFileSync(path.join(repo, '.gitignore'), '!keep.scratch\n');
    expect(await list(repo)).toEqual(['a.ts', 'keep.scratch', 'src/b.ts']);
    expect(await list(path.join(repo, 'src'))).toEqual(['src/b.ts']);
    expect(await list(repo, true)).toEqual(['a.ts', 'keep.scratch', 'notes.scratch', 'src/b.ts', 'src/c.scratch', 'src/gen/g.ts']);
  });

  it('makes a recorded walk stale when it is created or edited, in the walked root or above it', async () => {
    for (const root of [repo, path.join(repo, 'src')]) {
      const record = path.join(tmp, `walk-${path.basename(root)}.json`);
      rmSync(path.join(repo, '.git', 'info', 'exclude'), { force: true });
      const save = async () => {
        await new Promise((r) => setTimeout(r, 40));
        const listed: string[] = [];
        const startedMs = Date.now();
        const files = await list(root, false, listed);
        const entries = files.map((f) => ({ path: path.join(repo, f) }));
        saveWalkRecord(record, { entries, keys: entries.map((e) => e.path), warnings: [] }, { roots: [root], listed, rules: true, startedMs, racyMs: 20 });
        expect(loadWalkRecord(record)).not.toBeNull();
      };
      await save();
      writeFileSync(path.join(repo, '.git', 'info', 'exclude'), '*.scratch\n'); // created
      expect(loadWalkRecord(record)).toBeNull();
      await save();
      writeFileSync(path.join(repo, '.git', 'info', 'exclude'), '*.ts\n'); // edited in place
      expect(loadWalkRecord(record)).toBeNull();
    }
  });

  it('of an outer repository does not reach into a nested one; nor does its .gitignore, while its .ignore does (as git and ripgrep)', async () => {
    const home = path.join(tmp, 'home');
    const proj = path.join(home, 'proj');
    mkdirSync(proj, { recursive: true });
    git(home, 'init', '-q');
    git(proj, 'init', '-q');
    for (const f of ['a.log', 'b.tmp', 'c.bak', 'keep.ts']) writeFileSync(path.join(proj, f), 'x');
    writeFileSync(path.join(home, '.git', 'info', 'exclude'), '*.log\n');
    writeFileSync(path.join(home, '.gitignore'), '*.tmp\n');
    writeFileSync(path.join(home, '.ignore'), '*.bak\n');
    const names = async (root: string) => {
      const out: string[] = [];
      for await (const e of createFsSource({ paths: [root] }).list()) out.push(path.relative(home, e.path).split(path.sep).join('/'));
      return out.sort();
    };
    // git itself: the nested repository's a.log and b.tmp are untracked, not ignored.
    expect(git(proj, 'status', '--porcelain', '--untracked-files=all').split('\n').filter(Boolean).sort()).toEqual(['?? a.log', '?? b.tmp', '?? c.bak', '?? keep.ts']);
    expect(await names(proj)).toEqual(['proj/a.log', 'proj/b.tmp', 'proj/keep.ts']);
    expect(await names(home)).toEqual(['proj/a.log', 'proj/b.tmp', 'proj/keep.ts']);
  });

  it('a linked worktree reads its repository\'s exclude (the common dir\'s info/exclude, as git does); a recorded walk of it goes stale when that file is edited', async () => {
    const main = path.join(tmp, 'main');
    const linked = path.join(tmp, 'linked');
    mkdirSync(main);
    git(main, 'init', '-q');
    writeFileSync(path.join(main, 'a.ts'), 'x');
    git(main, 'add', 'a.ts');
    git(main, '-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'a');
    git(main, 'worktree', 'add', '-q', linked);
    writeFileSync(path.join(linked, 'b.log'), 'x');
    writeFileSync(path.join(main, '.git', 'info', 'exclude'), '*.log\n');
    expect(git(linked, 'status', '--porcelain', '--ignored')).toContain('!! b.log');
    const walk = async (listed: string[] = []) => {
      const out: string[] = [];
      for await (const e of createFsSource({ paths: [linked], onListed: (d) => listed.push(d) }).list()) out.push(e.path);
      return out;
    };
    expect((await walk()).map((p) => path.basename(p))).toEqual(['a.ts']);
    await new Promise((r) => setTimeout(r, 40));
    const listed: string[] = [];
    const startedMs = Date.now();
    const entries = (await walk(listed)).map((p) => ({ path: p }));
    const record = path.join(tmp, 'walk-linked.json');
    saveWalkRecord(record, { entries, keys: entries.map((e) => e.path), warnings: [] }, { roots: [linked], listed, rules: true, startedMs, racyMs: 20 });
    expect(loadWalkRecord(record)).not.toBeNull();
    writeFileSync(path.join(main, '.git', 'info', 'exclude'), '*.md\n');
    expect(loadWalkRecord(record)).toBeNull();
  });

  it('a linked worktree (.git a file) and a tree holding sub/.git as a file: walked, and its walk recorded, without a crash', async () => {
    const main = path.join(tmp, 'main');
    const linked = path.join(tmp, 'linked');
    mkdirSync(path.join(main, 'sub'), { recursive: true });
    git(main, 'init', '-q');
    writeFileSync(path.join(main, 'a.ts'), 'x');
    git(main, 'add', 'a.ts');
    git(main, '-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'a');
    git(main, 'worktree', 'add', '-q', linked);
    expect(readFileSync(path.join(linked, '.git'), 'utf8')).toMatch(/^gitdir: /);
    writeFileSync(path.join(main, 'sub', '.git'), 'gitdir: ../.git/modules/sub\n'); // as a submodule's
    writeFileSync(path.join(main, 'sub', 's.ts'), 'x');
    mkdirSync(path.join(linked, 'deeper'));
    writeFileSync(path.join(linked, 'deeper', 'd.ts'), 'x');
    await new Promise((r) => setTimeout(r, 40));
    for (const [root, want] of [[linked, ['a.ts', 'deeper/d.ts']], [path.join(linked, 'deeper'), ['d.ts']], [main, ['a.ts', 'sub/s.ts']]] as const) {
      const listed: string[] = [];
      const startedMs = Date.now();
      const entries: { path: string }[] = [];
      for await (const e of createFsSource({ paths: [root], onListed: (d) => listed.push(d) }).list()) entries.push({ path: e.path });
      expect(entries.map((e) => path.relative(root, e.path).split(path.sep).join('/')).sort()).toEqual(want);
      const record = path.join(tmp, `walk-${path.basename(root)}.json`);
      saveWalkRecord(record, { entries, keys: entries.map((e) => e.path), warnings: [] }, { roots: [root], listed, rules: true, startedMs, racyMs: 20 });
      expect(loadWalkRecord(record)?.entries).toEqual(entries);
    }
  });
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: tmp } });
}
