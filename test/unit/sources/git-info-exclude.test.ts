// .git/info/exclude is read as ripgrep and git read it: rules of the repository's root, under that
// root's own .gitignore / .ignore (which win where they have an opinion), whether the walk starts at
// the root or below it; and a recorded walk is not used once the exclude file is created or edited.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
});
