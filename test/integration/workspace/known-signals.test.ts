// A resident workspace's hybrid search scores a term chunk whose lexical signal and symbol the index knows
// exactly (workspace/search/candidates.ts termSignals) by its kept sum's cosine alone: its lines are not
// counted, unless it is shown (pipeline/scoring.ts withBestLines), and the answer is the scan's, bit for bit.
// A file changed unseen (its size, mtime and ctime as indexed: an edit after the stale check) has signals
// that no longer hold: the shown hit's lines tell, and the candidates' lines are then counted as read (the
// scan's answer). A changed chunk that is not shown, which no shown line tells of, is caught by the file's
// hash as the search reads it whole (kept-text.ts readWhole). The edits below keep size and mtime only:
// since ctime46 the stale check sees them by their ctime, so these tests pin the answers, not that net.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { chunkScoringWork } from '../../../src/embed/chunk-scoring.js';
import { createSearcher } from '../../../src/searcher.js';
import { type SearchOptions } from '../../../src/searcher/api.js';
import { chunksWarmed } from '../../../src/workspace/search/warm-chunks.js';
import { createWorkspace } from '../../../src/workspace/workspace.js';
import { makeTree } from '../../helpers/tree.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const SOURCES = ['src/rank/topk.ts', 'src/embed/static.ts', 'src/workspace/search/candidates.ts', 'src/embed/kept-scoring.ts', 'src/rank/diversify.ts'];
const QUERIES = ['bounded top-k heap offer', 'how are token rows pooled into a vector', 'spread results across files with a decay', 'the worst guaranteed case among the candidates'];

const scan = createSearcher({ concurrency: 0 });
const trees: Awaited<ReturnType<typeof makeTree>>[] = [];
afterAll(async () => {
  await scan.close();
  for (const t of trees) await t.cleanup();
});

/** A resident workspace over `files`, every code chunk's sum warmed (as the MCP engine's after its build). */
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
  // Lexical: it scores no chunk's embedding, so every sum a later search takes comes from the warm-up.
  await ws.search({ query: 'warm up', paths: [tree.dir], mode: 'lexical' });
  await chunksWarmed(searcher);
  return { tree, ws, close: async () => { await ws.close(); await searcher.close(); } };
}

/** Rewrites a file with its old mtime to the nanosecond (touch -r; Node's utimes keeps less): only its ctime and hash tell. */
function keepingMtime(file: string, change: (text: string) => string): void {
  writeFileSync(`${file}.ref`, '');
  execFileSync('touch', ['-r', file, `${file}.ref`]);
  const old = readFileSync(file, 'utf8');
  const text = change(old);
  expect(Buffer.byteLength(text)).toBe(Buffer.byteLength(old));
  writeFileSync(file, text);
  execFileSync('touch', ['-r', `${file}.ref`, file]);
  rmSync(`${file}.ref`);
}

it('scores the candidates whose signals the index knows by their sums alone, answering as the scan does', async () => {
  const { tree, ws, close } = await warmed(Object.fromEntries(SOURCES.map((f) => [f, readFileSync(path.join(repo, f), 'utf8')])));
  try {
    let known = 0;
    let counted = 0;
    for (const query of QUERIES) {
      const o: SearchOptions = { query, paths: [tree.dir], topK: 5, nLines: 2 };
      const before = chunkScoringWork();
      const indexed = await ws.search(o);
      const after = chunkScoringWork();
      expect(indexed.stats.index?.workspace).toBeDefined();
      expect(indexed.results.length).toBeGreaterThan(0);
      expect(indexed.results).toEqual((await scan.search(o)).results);
      expect(after.known - before.known).toBeGreaterThan(0);
      known += after.known - before.known;
      counted += after.counted - before.counted;
    }
    // Most candidates are term chunks known from the index (on this small tree the heap's 30 take chunks with
    // no term too): their lines are counted only where shown (withBestLines), not by the scorer.
    expect(known).toBeGreaterThan(counted);
  } finally {
    await close();
  }
});

it('a same-size, same-mtime edit: the shown hit\'s lines tell, and the index answers as a scan does', async () => {
  const lines = Array.from({ length: 48 }, (_, i) => (i === 30 ? '  castle river bridge' : `  const v${i} = ${i};`));
  const files = { 'a.ts': lines.join('\n') + '\n', 'b.ts': 'const castle = 1;\nexport const bridge = castle;\n' };
  const { tree, ws, close } = await warmed(files, (dir) => {
    keepingMtime(path.join(dir, 'a.ts'), (text) => text.replace('castle river bridge', 'xxxxxx xxxxx xxxxxx'));
  });
  try {
    const o: SearchOptions = { query: 'castle river bridge', paths: [tree.dir], topK: 3, nLines: 0 };
    const scanned = await scan.search(o);
    const indexed = await ws.search(o);
    expect(indexed.stats.index?.workspace).toBeDefined();
    expect(indexed.results).toEqual(scanned.results);
  } finally {
    await close();
  }
});

it('a same-size same-mtime edit that adds the query\'s words to a chunk not shown: the resident answer is the scan\'s', async () => {
  const filler = (i: number) => `  const v${String(i).padStart(2, '0')} = ${String(i).padStart(2, '0')};`;
  const a = Array.from({ length: 48 }, (_, i) => (i === 30 ? '  const river = 0;' : filler(i)));
  const files: Record<string, string> = { 'a.ts': a.join('\n') + '\n' };
  for (const f of ['b', 'c', 'd']) files[`${f}.ts`] = `// where is the ${f} castle\nexport const ${f}x = 1;\n`;
  const { tree, ws, close } = await warmed(files, (dir) => keepingMtime(path.join(dir, 'a.ts'), (text) => {
    // Six filler lines become castle/river/bridge lines of the same byte length.
    for (let i = 31; i <= 36; i++) { const f = filler(i); text = text.replace(f, ('  castle river bridge castle' + ' '.repeat(f.length)).slice(0, f.length)); }
    return text;
  }));
  const one = createWorkspace({ dir: path.join(tree.dir, '.ws'), concurrency: 0 });
  try {
    const o: SearchOptions = { query: 'where is the castle river bridge', paths: [tree.dir], topK: 2, nLines: 0 };
    const scanned = await scan.search(o);
    const indexed = await ws.search(o);
    const oneShot = await one.search(o);
    expect(indexed.stats.index?.workspace).toBeDefined();
    expect(oneShot.results).toEqual(scanned.results);
    expect(scanned.results.map((r) => path.basename(r.filename))).toContain('a.ts');
    expect(indexed.results).toEqual(scanned.results);
  } finally { await one.close(); await close(); }
});
