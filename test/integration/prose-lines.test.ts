// Prose is ranked line by line (rank/prose.ts). Bug pinned: over a document, the default mode ranked
// 48-line chunks, so a chunk that repeats the query's words in many lines beat the one line that
// answers the question (issue 31). Also: the workspace index answers a prose search exactly as a scan,
// and a line's window (its neighbours' words, rank/prose.ts) counts alike at every piece boundary.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearcher } from '../../src/searcher.js';
import { type SearchOptions, type SearchResponse } from '../../src/searcher/api.js';
import { createWorkspace, type Workspace } from '../../src/workspace/workspace.js';

let tmp = '';
let tree = '';
let story = '';
let ws: Workspace;
const searcher = createSearcher({ concurrency: 0 });
/** The line that answers "who built the castle" (0-based). */
const ANSWER = 70;

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-prose-'));
  tree = path.join(tmp, 'tree');
  mkdirSync(tree);
  const lines: string[] = [];
  // The first chunk (lines 0-47) names the castle and building in many lines, never together.
  for (let i = 0; i < 48; i++) lines.push(i % 2 === 0 ? `The castle wall number ${i} faces the river and the old town.` : `Houses were built along street ${i} in the same years.`);
  // The second chunk: one line answers; the others are about something else.
  for (let i = 48; i < 96; i++) lines.push(i === ANSWER ? 'The castle was built by King Henry in 1120 on the hill.' : `Merchants sold wool and salt at the market on day ${i}.`);
  story = path.join(tree, 'story.txt');
  writeFileSync(story, `${lines.join('\n')}\n`);
  // Chinese lines: a Han character is a gram by itself (lexical/grams.ts), found alike through the index's kept line terms.
  writeFileSync(path.join(tree, 'pharmacy.md'), '药房技术员在医院工作。\n药剂师配药。\n\n城堡建在山上。\n技术员与药药房\n');
  // Numbers: the query's are prose terms (rank/prose.ts proseTermCount); census.md holds one and no query word.
  writeFileSync(path.join(tree, 'rebuilt.md'), 'The castle was rebuilt.\nThe old castle on the hill was rebuilt in 1964.\n\nSheep grazed in the fields.\nThe river runs past the town.\nMarkets opened on Mondays.\n');
  writeFileSync(path.join(tree, 'census.md'), 'Farms were counted.\n\nThe census of 1964 counted the farms.\n');
  writeFileSync(path.join(tree, 'castle.py'), 'def build_castle(walls):\n    """Builds a castle from walls."""\n    return sum(walls)\n');
  ws = createWorkspace({ dir: path.join(tmp, 'ws'), concurrency: 0 });
  await ws.index([tree]);
});
afterAll(async () => {
  await ws?.close();
  await searcher.close();
  rmSync(tmp, { recursive: true, force: true });
});

const shape = (r: SearchResponse) => r.results.map((x) => ({ path: x.filename, line: x.match_line, distance: Math.round(x.distance * 1e6) / 1e6 }));

describe('prose lines', () => {
  it('a document ranked by 48-line chunks shows a line of the chunk that repeats the words, not the line that answers', async () => {
    const r = await searcher.search({ query: 'who built the castle', paths: [story], topK: 1, nLines: 0, merge: false });
    expect(r.results.map((x) => x.match_line)).toEqual([ANSWER]);
  });

  it('the workspace index answers a prose search exactly as a scan, beside code', async () => {
    for (const query of ['who built the castle', 'wool market', 'build_castle', '药剂技术员是谁']) {
      for (const mode of ['hybrid', 'lexical', 'semantic'] as const) {
        const o: SearchOptions = { query, mode, paths: [tree], topK: 5, nLines: 1 };
        const [scan, indexed] = [await searcher.search(o), await ws.search(o)];
        expect(indexed.stats.index?.workspace).toBeDefined();
        expect([query, mode, shape(indexed)]).toEqual([query, mode, shape(scan)]);
      }
    }
  });

  it('a number in the query ranks the line that holds it first; the index answers as a scan, a file holding the number and no query word too', async () => {
    const rebuilt = path.join(tree, 'rebuilt.md');
    for (const mode of ['hybrid', 'lexical'] as const) {
      // Without the number the short line ranks first (the same words, in fewer characters).
      const words = await searcher.search({ query: 'castle rebuilt', mode, paths: [rebuilt], topK: 2, nLines: 0, merge: false });
      expect(words.results.map((x) => x.match_line)).toEqual([0, 1]);
      const r = await searcher.search({ query: 'castle rebuilt in 1964', mode, paths: [rebuilt], topK: 2, nLines: 0, merge: false });
      expect(r.results.map((x) => x.match_line)).toEqual([1, 0]);
    }
    for (const query of ['which castle was rebuilt in 1964?', 'farms 1964', '1,964 castles']) {
      for (const mode of ['hybrid', 'lexical'] as const) {
        const o: SearchOptions = { query, mode, paths: [tree], topK: 40, nLines: 0, merge: false };
        const [scan, indexed] = [await searcher.search(o), await ws.search(o)];
        expect(indexed.stats.index?.workspace).toBeDefined();
        expect([query, mode, shape(indexed)]).toEqual([query, mode, shape(scan)]);
        // The census line holds the number alone (no query word): it is found, by the index too.
        if (query.startsWith('which') && mode === 'lexical') expect(shape(indexed).map((x) => `${path.basename(x.path)}:${x.line}`)).toContain('census.md:2');
      }
    }
  });

  it('a line whose neighbours hold the other query words ranks above a line holding the same word alone', async () => {
    const doc = path.join(tmp, 'window.md');
    writeFileSync(doc, [
      'A founder: Anna.', '', 'Bread is sold daily.', '',
      'Dunmore is a castle in the north.', 'Its founder was Henry.', 'Visitors come in summer.', '',
      'The Dunmore river is far away.',
    ].join('\n'));
    const r = await searcher.search({ query: 'Dunmore castle founder', mode: 'lexical', paths: [doc], topK: 10, nLines: 0, merge: false });
    const lines = r.results.map((x) => x.match_line);
    // Line 5 holds "founder" beside the line naming Dunmore castle; line 0 holds it alone, in a shorter
    // line (which ranks first on the line's own BM25).
    expect(lines.indexOf(5)).toBeLessThan(lines.indexOf(0));
    // A line without a query word is not lifted by its neighbours' (line 6, after line 5), and a blank
    // line is never a result (line 7).
    expect(lines).not.toContain(6);
    expect(lines).not.toContain(7);
  });

  it('a file of one line is found by its words (its window is the line alone)', async () => {
    const one = path.join(tmp, 'one.txt');
    writeFileSync(one, 'Dunmore castle stands on the hill.');
    for (const mode of ['hybrid', 'lexical'] as const) {
      const r = await searcher.search({ query: 'Dunmore castle', mode, paths: [one], topK: 3, nLines: 0 });
      expect(r.results.map((x) => x.match_line)).toEqual([0]);
    }
  });

  it('prose lines at piece boundaries score as inside a piece: windows read the pieces\' context lines', async () => {
    // Regression: with nLines 0 a piece carried no context, so a line at a piece's edge lost its
    // neighbour's words and ranked differently with another batch size.
    const lines: string[] = [];
    for (let i = 0; i < 150; i++) lines.push(i % 3 === 0 ? `The castle tower ${i} was built of stone.` : `Sheep grazed in field ${i}; the king came by.`);
    const doc = path.join(tmp, 'pieces.txt');
    writeFileSync(doc, `${lines.join('\n')}\n`);
    for (const mode of ['hybrid', 'lexical'] as const) {
      const o: SearchOptions = { query: 'king castle stone', mode, paths: [doc], topK: 150, nLines: 0, merge: false };
      const whole = await searcher.search(o);
      // Pieces of 48 lines (the smallest: batches are cut at chunk lines): edges at lines 48, 96 and 144.
      const pieces = await searcher.search({ ...o, batchLines: 1 });
      expect(shape(pieces)).toEqual(shape(whole));
      expect(whole.results.length).toBe(150);
    }
  });
});
