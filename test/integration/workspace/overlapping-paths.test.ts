// A file that two of a search's paths reach (a directory and its parent, a file and its directory, one
// file named twice) is searched once, under the first path that reaches it, in a scan and in an index
// answer alike: the same results and counts, no hunk twice, and the other files' ranking as if each
// path were given once (trial32: the scan counted such a file twice, so its distances differed from the
// index's, and it could fill two of the top-k).
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearcher } from '../../../src/searcher.js';
import { type SearchOptions, type SearchResponse } from '../../../src/searcher/api.js';
import { createWorkspace, type Workspace } from '../../../src/workspace/workspace.js';
import { rounded } from '../../helpers/rounded.js';

let tmp = '';
let tree = '';
let ws: Workspace;
const oneShot = createSearcher({ concurrency: 0 });

const config = (name: string) => `import json\n\ndef parse_${name}(path):\n    """Parse the ${name} file and return a dict."""\n    with open(path) as f:\n        return json.load(f)\n`;

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-overlap-'));
  tree = path.join(tmp, 'tree');
  mkdirSync(path.join(tree, 'src', 'sub'), { recursive: true });
  mkdirSync(path.join(tree, 'docs'), { recursive: true });
  writeFileSync(path.join(tree, 'src', 'config.py'), config('config'));
  writeFileSync(path.join(tree, 'src', 'settings.py'), config('settings'));
  writeFileSync(path.join(tree, 'src', 'sub', 'loader.py'), config('loader'));
  writeFileSync(path.join(tree, 'src', 'upload.ts'), 'export async function uploadWithRetry(file) {\n  // retry failed uploads with backoff\n  return send(file);\n}\n');
  writeFileSync(path.join(tree, 'docs', 'guide.md'), '# Guide\n\nThe config file is parsed by parse_config.\n\nFailed uploads are retried with backoff.\n');
  ws = createWorkspace({ dir: path.join(tmp, 'ws'), concurrency: 0 });
  await ws.index([tree]);
});
afterAll(async () => {
  await ws?.close();
  await oneShot.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** The scan's and the index's answers, after checking they are the same. */
async function both(paths: string[], o: Omit<SearchOptions, 'paths' | 'query'> = {}): Promise<SearchResponse> {
  const opts: SearchOptions = { query: 'parse the config file', topK: 20, ...o, paths };
  const scan = await oneShot.search(opts);
  const indexed = await ws.search(opts);
  expect(indexed.stats.index?.workspace).toBeDefined();
  expect(rounded(indexed)).toEqual(rounded(scan));
  expect(indexed.stats.files).toBe(scan.stats.files);
  expect(indexed.stats.lines).toBe(scan.stats.lines);
  const hunks = scan.results.map((r) => `${path.resolve(r.filename)}:${r.start}`);
  expect(new Set(hunks).size).toBe(hunks.length);
  return scan;
}

describe('overlapping paths', () => {
  it('a directory and its parent: each file once, ranked as by the parent alone', async () => {
    const alone = await both([tree]);
    for (const paths of [[path.join(tree, 'src'), tree], [tree, path.join(tree, 'src')], [tree, path.join(tree, 'src', 'sub'), path.join(tree, 'src')]]) {
      const r = await both(paths);
      expect(rounded(r)).toEqual(rounded(alone));
      expect(r.stats.files).toBe(alone.stats.files);
    }
  });

  it('a file and its directory: searched once, under the first name given', async () => {
    const named = `${tree}/src/./config.py`;
    const r = await both([named, path.join(tree, 'src')]);
    expect(r.results.filter((x) => path.resolve(x.filename) === path.join(tree, 'src', 'config.py')).map((x) => x.filename)).toEqual([named]);
    // The other files rank as by the directory alone (the named file's own path signals read the name given).
    const others = (x: SearchResponse) => rounded(x).filter((h) => path.basename(h.filename) !== 'config.py');
    expect(others(r)).toEqual(others(await both([path.join(tree, 'src')])));
    await both([path.join(tree, 'src'), named]);
  });

  it('a named file kept after its walked twin is filtered out, in either order', async () => {
    const named = path.join(tree, 'src', 'config.py');
    for (const paths of [[tree, named], [named, tree]]) {
      const r = await both(paths, { globs: ['*.md'] });
      expect(r.results.map((x) => path.basename(x.filename)).sort()).toEqual(['config.py', 'guide.md']);
    }
  });

  it('one file named twice, and per-file answers', async () => {
    const named = path.join(tree, 'src', 'config.py');
    expect((await both([named, named])).results).toHaveLength(1);
    await both([path.join(tree, 'src'), tree], { perFile: 1 });
    await both([path.join(tree, 'src'), tree], { mode: 'lexical' });
  });

  it('a link to a directory and the directory: each file once, under the first name given', async () => {
    const link = path.join(tmp, 'link-to-src');
    symlinkSync(path.join(tree, 'src'), link);
    const alone = await both([path.join(tree, 'src')]);
    for (const [first, second] of [[link, path.join(tree, 'src')], [path.join(tree, 'src'), link]]) {
      const r = await both([first, second]);
      expect(r.stats.files).toBe(alone.stats.files);
      for (const x of r.results) expect(x.filename.startsWith(first + path.sep)).toBe(true);
    }
  });
});
