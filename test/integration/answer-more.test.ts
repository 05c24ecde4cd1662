// The answer's `more` (MCP's `truncated`) says whether more results exist than came back (trial39; its
// review): a query of stop words only answers no match and no more; with perFile or filesWithMatches, every
// file already shown is not "more" though the ranked pool overflowed with their other chunks.
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSearcher } from '../../src/searcher.js';

let tmp = '';
const searcher = createSearcher({ concurrency: 0 });
const pad = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = compute(${i});`).join('\n');

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'simgrep-more-'));
  mkdirSync(path.join(tmp, 'two'));
  // Two files of twelve matching chunks each: a pool of 4K candidates overflows with the two files alone.
  // One file of eighty matching functions beside three files of one weaker match each: a pool of 4K holds the
  // first file's chunks alone.
  mkdirSync(path.join(tmp, 'one-big'));
  writeFileSync(path.join(tmp, 'one-big', 'big.ts'), Array.from({ length: 80 }, (_, c) => `export function big${c}() {\n  // retry the upload ${c}\n${pad(30)}\n}`).join('\n') + '\n');
  for (const f of ['c', 'd', 'e']) writeFileSync(path.join(tmp, 'one-big', `${f}.ts`), `export function ${f}() {\n  // send the upload again later\n${pad(30)}\n}\n`);
  for (const f of ['a', 'b']) {
    writeFileSync(path.join(tmp, 'two', `${f}.ts`), Array.from({ length: 12 }, (_, c) => `export function ${f}${c}() {\n  // retry the upload ${c}\n${pad(30)}\n}`).join('\n') + '\n');
  }
});
afterAll(async () => {
  await searcher.close();
  await rm(tmp, { recursive: true, force: true });
});

it('per file: more is false when every file came back, true when topK cut a file', async () => {
  const paths = [path.join(tmp, 'two')];
  const one = await searcher.search({ query: 'retry the upload', paths, perFile: 1, topK: 3 });
  expect([one.results.length, one.more]).toEqual([2, false]);
  const files = await searcher.search({ query: 'retry the upload', paths, filesWithMatches: true, topK: 3 });
  expect([files.files?.length, files.more]).toEqual([2, false]);
  const cut = await searcher.search({ query: 'retry the upload', paths, perFile: 1, topK: 1 });
  expect([cut.results.length, cut.more]).toEqual([1, true]);
  // Without perFile the same pool is cut by topK: more.
  const plain = await searcher.search({ query: 'retry the upload', paths, topK: 3 });
  expect([plain.results.length, plain.more]).toEqual([3, true]);
});

it('per file: K files come back when K files match, though one file fills the first pool', async () => {
  const paths = [path.join(tmp, 'one-big')];
  // Line mode ranks lines with no diversity across files: big.ts's eighty lines fill a pool of 4K.
  const all = await searcher.search({ query: 'retry the upload', paths, topK: 100, mode: 'line' });
  expect(new Set(all.results.map((r) => path.basename(r.filename))).size).toBe(4);
  const first = await searcher.search({ query: 'retry the upload', paths, topK: 12, mode: 'line' });
  expect(first.results.map((r) => path.basename(r.filename))).toEqual(Array(12).fill('big.ts'));
  const one = await searcher.search({ query: 'retry the upload', paths, perFile: 1, topK: 3, mode: 'line' });
  expect(one.results.map((r) => path.basename(r.filename))[0]).toBe('big.ts');
  expect([one.results.length, new Set(one.results.map((r) => r.filename)).size, one.more]).toEqual([3, 3, true]);
  const files = await searcher.search({ query: 'retry the upload', paths, filesWithMatches: true, topK: 5, mode: 'line' });
  expect([files.files?.length, files.more]).toEqual([4, false]);
});

it('a query of stop words only: no match, and no more', async () => {
  const r = await searcher.search({ query: 'the of and', paths: [path.join(tmp, 'two')], topK: 3 });
  expect(r.results).toEqual([]);
  expect(r.warnings.map((w) => w.code)).toContain('QUERY_STOP_WORDS');
  expect(r.more).toBe(false);
});
