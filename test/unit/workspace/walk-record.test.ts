// The recorded walk is used only while no directory it listed and no ignore file changed: each kind of
// change that alters a walk's file list must make it walk again.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFsSource } from '../../../src/sources/fs.js';
import { loadWalkRecord, packBasics, saveWalkRecord, unpackBasics } from '../../../src/workspace/changes/walk-record.js';
import { pathBasics } from '../../../src/workspace/snapshot/path-info.js';
import type { Walk } from '../../../src/workspace/changes/walk-cache.js';

let tmp = '';
let tree = '';
let record = '';


/**
 * Walks and records. ctime cannot be set in the past, so the tests shrink the racy window to 20 ms and
 * wait it out first (a change within one filesystem timestamp tick of the record is what it guards).
 */
async function walkAndSave(noIgnore = false, racyMs = 20): Promise<Walk> {
  await new Promise((r) => setTimeout(r, racyMs + 15));
  const startedMs = Date.now();
  const listed: string[] = [];
  const source = createFsSource({ paths: [tree], noIgnore, onListed: (d) => listed.push(d) });
  const entries = [];
  for await (const e of source.list()) entries.push(e);
  const walk = { entries, keys: entries.map((e) => path.resolve(e.path)), warnings: source.drainWarnings?.() ?? [] };
  saveWalkRecord(record, walk, { roots: [tree], listed, rules: !noIgnore, startedMs, racyMs });
  return walk;
}

const names = (w: Walk | null) => w?.entries.map((e) => e.path).sort() ?? null;

beforeEach(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-walk-record-'));
  tree = path.join(tmp, 'tree');
  mkdirSync(path.join(tree, 'a', 'b'), { recursive: true });
  writeFileSync(path.join(tree, 'a', 'one.ts'), 'one');
  writeFileSync(path.join(tree, 'a', 'b', 'two.ts'), 'two');
  writeFileSync(path.join(tree, 'a', 'skip.log'), 'log');
  writeFileSync(path.join(tree, '.gitignore'), '*.log\n');
  record = path.join(tmp, 'cache', 'walk.json');
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

describe('walk records', () => {
  it('give back the walk while nothing changed', async () => {
    const walk = await walkAndSave();
    expect(names(walk)).toEqual([path.join(tree, 'a', 'b', 'two.ts'), path.join(tree, 'a', 'one.ts')]);
    const back = loadWalkRecord(record);
    expect(names(back)).toEqual(names(walk));
    expect(back!.keys).toEqual(walk.keys);
  });

  // A `..` in a root (mend45c): the rank paths were worked out again from the roots' spelling, and a file
  // of tree/a/b/../../a was given to tree/a/b, whose spelling starts its path: ../../a/one.ts.
  it('give back each file\'s rank path as the walk gave it, below the outermost root, however the roots are spelled (score45; a .. in a root)', async () => {
    const cwd = process.cwd();
    process.chdir(tmp);
    try {
      for (const roots of [[tree], ['tree'], ['./tree/'], ['tree/a', 'tree'], [path.join(tree, 'a', 'b'), 'tree/a'], ['tree/a/one.ts', 'tree/a'], ['tree/a/b', 'tree/a/b/../../a']]) {
        rmSync(record, { force: true });
        await new Promise((r) => setTimeout(r, 35));
        const startedMs = Date.now();
        const listed: string[] = [];
        const source = createFsSource({ paths: roots, unique: (p) => path.resolve(p), onListed: (d) => listed.push(d) });
        const entries = [];
        for await (const e of source.list()) entries.push(e);
        const ranks = entries.map((e) => [e.path, e.rank]);
        // (A walk from tree/a reads no .gitignore above it where no .git marks a repository: skip.log is listed then.)
        expect(ranks.map(([, r]) => r!).filter((r) => !r.endsWith('.log')).sort(), roots.join(' ')).toEqual(roots.length === 1 || roots[1] === 'tree' ? ['a/b/two.ts', 'a/one.ts'] : ['b/two.ts', 'one.ts']);
        saveWalkRecord(record, { entries, keys: entries.map((e) => path.resolve(e.path)), warnings: [] }, { roots, listed, rules: true, startedMs, racyMs: 20 });
        const back = loadWalkRecord(record);
        // A root that is a file is never recorded (walk-record.ts).
        if (roots.some((r) => r.endsWith('.ts'))) expect(back).toBeNull();
        else expect(back?.entries.map((e) => [e.path, e.rank]), roots.join(' ')).toEqual(ranks);
      }
    } finally {
      process.chdir(cwd);
    }
  });

  it('are not used after a file is added, removed or renamed anywhere in the tree', async () => {
    await walkAndSave();
    writeFileSync(path.join(tree, 'a', 'b', 'three.ts'), 'three');
    expect(loadWalkRecord(record)).toBeNull();
    rmSync(record, { force: true });
    const listed: string[] = [];
    const entries = [];
    const startedMs = Date.now();
    for await (const e of createFsSource({ paths: [tree], onListed: (d) => listed.push(d) }).list()) entries.push(e);
    saveWalkRecord(record, { entries, keys: entries.map((e) => path.resolve(e.path)), warnings: [] }, { roots: [tree], listed, rules: true, startedMs });
    expect(existsSync(record)).toBe(false); // the default window: a directory changed in the 2 s before the walk

    await walkAndSave();
    expect(names(loadWalkRecord(record))).toContain(path.join(tree, 'a', 'b', 'three.ts'));
    unlinkSync(path.join(tree, 'a', 'one.ts'));
    expect(loadWalkRecord(record)).toBeNull();
    await walkAndSave();
    renameSync(path.join(tree, 'a', 'b', 'two.ts'), path.join(tree, 'a', 'b', 'deux.ts'));
    expect(loadWalkRecord(record)).toBeNull();
  });

  it('are not used after an ignore file is edited in place or created above the tree', async () => {
    await walkAndSave();
    writeFileSync(path.join(tree, '.gitignore'), '*.ts\n'); // same directory entries, new rules
    expect(loadWalkRecord(record)).toBeNull();
    await walkAndSave();
    expect(loadWalkRecord(record)).not.toBeNull();
    writeFileSync(path.join(tmp, '.ignore'), 'b/\n'); // the parent directory gains a rule file
    expect(loadWalkRecord(record)).toBeNull();
  });

  it('are not used after a directory\'s permissions change (its ctime moves)', async () => {
    await walkAndSave();
    chmodSync(path.join(tree, 'a', 'b'), 0o700);
    expect(loadWalkRecord(record)).toBeNull();
  });

  it('are not kept for a walk with warnings or of a file', async () => {
    const listed: string[] = [];
    const file = path.join(tree, 'a', 'one.ts');
    saveWalkRecord(record, { entries: [{ path: file, named: true }], keys: [file], warnings: [] }, { roots: [file], listed, rules: true, startedMs: Date.now() });
    expect(loadWalkRecord(record)).toBeNull();
    saveWalkRecord(record, { entries: [], keys: [], warnings: [{ path: tree, code: 'PATH_UNREADABLE', message: 'x' }] }, { roots: [tree], listed: [tree], rules: true, startedMs: Date.now() });
    expect(loadWalkRecord(record)).toBeNull();
  });

  it('are kept for a walk of more than 100,000 files (without the path facts), and not past 1,000,000', async () => {
    await new Promise((r) => setTimeout(r, 35));
    const big = (n: number): Walk => {
      const entries = Array.from({ length: n }, (_, i) => ({ path: path.join(tree, 'a', `f${i}.ts`) }));
      return { entries, keys: entries.map((e) => e.path), warnings: [] };
    };
    const listed = [tree, path.join(tree, 'a'), path.join(tree, 'a', 'b')];
    const save = (w: Walk) => saveWalkRecord(record, w, { roots: [tree], listed, rules: true, startedMs: Date.now(), racyMs: 20, pathFacts: true });
    save(big(150_000));
    const back = loadWalkRecord(record);
    expect(back?.entries.length).toBe(150_000);
    expect(back!.keys[149_999]).toBe(path.join(tree, 'a', 'f149999.ts'));
    expect(JSON.parse(readFileSync(record, 'utf8')).basics).toBeUndefined();
    rmSync(record);
    save(big(1_000_001));
    expect(existsSync(record)).toBe(false);
  });

  it('keep each path\'s facts packed in columns and give back exactly what the ranker works out', () => {
    const paths = [
      'src/upload/retryUpload.ts', 'tests/test_upload.py', 'pkg/__init__.py', 'types/index.d.ts', 'examples/demo/main.go',
      'a/b/c/d/HTTPServer2.java', 'README', './x/.hidden.rc', 'İstanbul/Ünïcode/çalış.rs', 'vendor/lib/file-768.py', 'x.y.z',
      'src/model/bundled/lexicon.tsv', 'tests/fixtures/yarn.lock',
    ];
    const basics = paths.map(pathBasics);
    const packed = JSON.parse(JSON.stringify(packBasics(basics)));
    expect(paths.map((_, i) => unpackBasics(packed, i))).toEqual(basics);
    expect(basics.some((b) => b.facts.test) && basics.some((b) => b.facts.side) && basics.some((b) => b.facts.init) && basics.some((b) => b.facts.dts) && basics.some((b) => b.facts.data)).toBe(true);
  });
});
