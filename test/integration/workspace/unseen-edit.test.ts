// A file edited so that its size and mtime stay the same (`touch -r`) is one the index cannot see has
// changed. A resident process's search scores an indexed chunk from the signals the index knows
// (known-signals.test.ts) and counts only the shown hits' lines; a chunk whose new text would enter the
// answer is never shown, so nothing would catch it. Reading such a file whole, the search hashes its bytes:
// not the indexed hash, its chunks are scored from their lines as read, as a scan scores them.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createSearcher, type SearchOptions } from '../../../src/searcher.js';
import { chunksWarmed } from '../../../src/workspace/search/warm-chunks.js';
import { createWorkspace } from '../../../src/workspace/workspace.js';
import { makeTree } from '../../helpers/tree.js';

const scan = createSearcher({ concurrency: 0 });
const trees: Awaited<ReturnType<typeof makeTree>>[] = [];
afterAll(async () => { await scan.close(); for (const t of trees) await t.cleanup(); });

async function warmed(files: Record<string, string>, edit?: (dir: string) => void) {
  const tree = await makeTree(files);
  trees.push(tree);
  const dir = path.join(tree.dir, '.ws');
  const builder = createWorkspace({ dir, concurrency: 0 });
  await builder.index([tree.dir]);
  await builder.close();
  edit?.(tree.dir);
  const searcher = createSearcher({ concurrency: 0 });
  const ws = createWorkspace({ dir, resident: true, searcher });
  await ws.search({ query: 'warm up', paths: [tree.dir], mode: 'lexical' });
  await chunksWarmed(searcher);
  const one = createWorkspace({ dir, concurrency: 0 });
  return { tree, ws, one, close: async () => { await ws.close(); await one.close(); await searcher.close(); } };
}

it('a same-size same-mtime edit that adds the query\'s words to a chunk not shown: the resident answer is the scan\'s', async () => {
  const filler = (i: number) => `  const v${String(i).padStart(2, '0')} = ${String(i).padStart(2, '0')};`;
  const a = Array.from({ length: 48 }, (_, i) => (i === 30 ? '  const river = 0;' : filler(i)));
  const files: Record<string, string> = { 'a.ts': a.join('\n') + '\n' };
  for (const f of ['b', 'c', 'd']) files[`${f}.ts`] = `// where is the ${f} castle\nexport const ${f}x = 1;\n`;
  const { tree, ws, one, close } = await warmed(files, (dir) => {
    const p = path.join(dir, 'a.ts');
    writeFileSync(`${p}.ref`, '');
    execFileSync('touch', ['-r', p, `${p}.ref`]);
    const old = readFileSync(p, 'utf8');
    // same byte length: six filler lines become castle/river/bridge lines
    let text = old;
    for (let i = 31; i <= 36; i++) { const f = filler(i); const rep = ('  castle river bridge castle' + ' '.repeat(f.length)).slice(0, f.length); text = text.replace(f, rep); }
    expect(Buffer.byteLength(text)).toBe(Buffer.byteLength(old));
    writeFileSync(p, text);
    execFileSync('touch', ['-r', `${p}.ref`, p]);
    rmSync(`${p}.ref`);
  });
  try {
    const o: SearchOptions = { query: 'where is the castle river bridge', paths: [tree.dir], topK: 2, nLines: 0 };
    const scanned = await scan.search(o);
    const indexed = await ws.search(o);
    const oneShot = await one.search(o);
    expect(indexed.stats.index?.workspace).toBeDefined();
    expect(oneShot.results).toEqual(scanned.results);
    expect(scanned.results.map((r) => path.basename(r.filename))).toContain('a.ts');
    expect(indexed.results).toEqual(scanned.results);
  } finally { await close(); }
});
