// -L (followSymlinks) over a workspace's paths answers as the scan does: the files reached through a
// link to a directory and the loop it reports (trial32: the index answered -L searches from its own walk,
// which follows no link, so those files were missing and the loop unreported, exit 0 instead of 2).
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearcher } from '../../../src/searcher.js';
import { type SearchOptions } from '../../../src/searcher/api.js';
import { createWorkspace, type Workspace } from '../../../src/workspace/workspace.js';
import { rounded } from '../../helpers/rounded.js';

let tmp = '';
let tree = '';
let ws: Workspace;
const oneShot = createSearcher({ concurrency: 0 });

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-follow-'));
  tree = path.join(tmp, 'tree');
  mkdirSync(path.join(tree, 'src'), { recursive: true });
  mkdirSync(path.join(tmp, 'shared'), { recursive: true });
  writeFileSync(path.join(tree, 'src', 'upload.ts'), 'export async function uploadWithRetry(file) {\n  // retry failed uploads with backoff\n  return send(file);\n}\n');
  writeFileSync(path.join(tmp, 'shared', 'config.py'), 'def parse_config(path):\n    """Parse the config file."""\n    return json.load(open(path))\n');
  symlinkSync(path.join(tmp, 'shared'), path.join(tree, 'src', 'shared'));
  symlinkSync('..', path.join(tree, 'src', 'up'));
  ws = createWorkspace({ dir: path.join(tmp, 'ws'), concurrency: 0 });
  await ws.index([tree]);
});
afterAll(async () => {
  await ws?.close();
  await oneShot.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('-L over a workspace', () => {
  it('finds the files behind a link and reports the loop, as the scan does', async () => {
    const o: SearchOptions = { query: 'parse the config file', paths: [tree], topK: 5, followSymlinks: true };
    const scan = await oneShot.search(o);
    const indexed = await ws.search(o);
    expect(scan.results.map((r) => r.filename)).toContain(path.join(tree, 'src', 'shared', 'config.py'));
    expect(rounded(indexed)).toEqual(rounded(scan));
    expect(indexed.stats.files).toBe(scan.stats.files);
    expect(indexed.warnings.map((w) => w.code)).toEqual(scan.warnings.map((w) => w.code));
    expect(scan.warnings.map((w) => w.code)).toContain('SYMLINK_LOOP');
    // Without -L the index answers, and neither sees the link.
    const plain = await ws.search({ ...o, followSymlinks: false });
    expect(plain.stats.index?.workspace).toBeDefined();
    expect(plain.results.map((r) => r.filename)).not.toContain(path.join(tree, 'src', 'shared', 'config.py'));
  });
});
