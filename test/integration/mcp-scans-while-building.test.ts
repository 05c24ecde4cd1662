// The answers while the MCP engine's background index build runs (issue 30, branch build30): a search after
// the first one is still a scan, but the chunks of the files the build already pooled are scored from the
// sums it keeps (src/pipeline/kept-files.ts) instead of being tokenized and pooled again. Asked through the
// MCP SDK's own client and the real MCP server and tool runner: the answer is the plain scan's and the
// index's, and a file changed after the build read it is scored as it is now, not from the build's sums.
// The prose documents (docs/) the build kept are bounded by their counted line terms instead of counted.
import { readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createActionEngine, type ActionEngine } from '../../src/actions/engine.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { createToolRunner, type ToolRunner } from '../../src/mcp/tools.js';
import { createSearcher } from '../../src/searcher.js';
import { pooledFilesOf, pooledSumsUsed } from '../../src/searcher/seams.js';
import { isolatedHome } from '../helpers/isolated-home.js';
import { makeTree } from '../helpers/tree.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const QUERIES = ['bounded top-k heap', 'how are token rows pooled into a vector', 'walk the directory tree and skip ignored files', 'retry a failed request', 'the first answer from nothing while the index builds'];
/** What the changed file says once changed: no file of the tree holds these words. */
const CHANGED = 'export function zebraMigrationAcrossTheSavanna(herd: number) { return herd * 2; }\n';

type Answer = { index: string; matches: { path: string; match_line: number; score: number; code?: string }[] };

let home: ReturnType<typeof isolatedHome>;
let tree: Awaited<ReturnType<typeof makeTree>>;
let engine: ActionEngine;
let runner: ToolRunner;
let client: Client;
const plain = createSearcher({ concurrency: 1 });

/** The repository's own sources and docs (~300 files): a build that takes a while, long enough to search under. */
function sources(dir: string, out: Record<string, string> = {}): Record<string, string> {
  for (const name of readdirSync(path.join(repo, dir))) {
    const rel = path.join(dir, name);
    if (statSync(path.join(repo, rel)).isDirectory()) sources(rel, out);
    else if (name.endsWith('.ts') || name.endsWith('.md')) out[rel] = readFileSync(path.join(repo, rel), 'utf8');
  }
  return out;
}

const search = async (query: string): Promise<Answer> => {
  const r = await client.callTool({ name: 'search', arguments: { query, k: 5 } }) as { isError?: boolean; structuredContent?: Answer };
  expect(r.isError).toBeUndefined();
  return r.structuredContent!;
};

beforeAll(async () => {
  home = isolatedHome();
  tree = await makeTree({ ...sources('src'), ...sources('docs') });
  engine = createActionEngine({ concurrency: 1, resident: true });
  const real = realpathSync(tree.dir);
  runner = createToolRunner(engine, { real, given: real });
  const [ours, theirs] = InMemoryTransport.createLinkedPair();
  await createMcpServer({ tools: runner, version: '0.0.0' }).connect(ours);
  client = new Client({ name: 'scans-while-building', version: '0.0.0' });
  await client.connect(theirs);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await runner?.settled?.();
  await engine?.close();
  await plain.close();
  await tree?.cleanup();
  home?.restore();
});

it('a search while the index builds scores the pooled files from their sums, answers as a plain scan and the index do, and sees a file changed since the build read it', async () => {
  expect((await search(QUERIES[0])).index).toBe('building');
  // The build starts once that first answer is out: wait for it to pool its first files.
  const pooled = pooledFilesOf(engine.searcher);
  const pooledCode = () => [...pooled.keys()].find((p) => p.endsWith('.ts'));
  for (let i = 0; pooledCode() === undefined; i++) {
    if (i > 60_000) throw new Error('the background build pooled no file in 60 s');
    await new Promise((r) => setTimeout(r, 1));
  }
  // A file the build has read and pooled changes: a scan must read it as it is now.
  const changed = pooledCode()!;
  writeFileSync(changed, CHANGED + readFileSync(changed, 'utf8'));
  const usedBefore = pooledSumsUsed(engine.searcher);
  const during: Answer[] = [];
  for (const q of [...QUERIES, 'zebra migration across the savanna']) during.push(await search(q));
  expect(during[0].index).toBe('building');
  // Chunks of the files already pooled were scored from the build's sums (0 without them).
  expect(pooledSumsUsed(engine.searcher)).toBeGreaterThan(usedBefore);
  const zebra = during[during.length - 1].matches[0];
  expect([zebra.path, zebra.match_line]).toEqual([changed, 1]);

  // The same answers from a plain scan (a searcher that pooled nothing), through the pipeline alone.
  const options = (query: string) => ({ query, paths: [tree.dir], topK: 10 });
  for (const q of QUERIES) {
    const [kept, read] = [await engine.searcher.search(options(q)), await plain.search(options(q))];
    expect(JSON.stringify(kept.results)).toBe(JSON.stringify(read.results));
  }

  // ... and from the index, once it is fresh (the changed file re-read).
  await runner.settled!();
  const fresh: Answer[] = [];
  for (const q of [...QUERIES, 'zebra migration across the savanna']) fresh.push(await search(q));
  expect(fresh.map((a) => a.index)).toEqual(fresh.map(() => 'fresh'));
  expect(fresh.map((a) => a.matches)).toEqual(during.map((a) => a.matches));
  // The build's files are no longer keyed once its index answers.
  expect(pooled.size).toBe(0);
}, 180_000);
