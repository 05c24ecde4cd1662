// A document's line terms from the index's statistics file with its lines' grams counted from its bytes
// (ProseIndexLines.linesRead, issue 30): the bound on its best line is then exactly what counting the
// document whole gives, where the file alone takes each gram at its most in every line (a long query's
// ~100 grams lifted most documents within reach of the results, and each was read and scored).
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan } from '../../../src/rank/plan.js';
import { proseBest, ProseLinesBuilder } from '../../../src/rank/prose-lines.js';
import { addCounted, countDocument } from '../../../src/workspace/prose-stats.js';
import { ProseIndexLines } from '../../../src/workspace/search/prose-index.js';
import { ProseStatsCollector } from '../../../src/workspace/snapshot/prose-stats-collect.js';
import { documentState, writeProseStatsFile } from '../../../src/workspace/snapshot/prose-stats-file.js';
import { openProseStats } from '../../../src/workspace/snapshot/prose-stats-layers.js';
import { openChunks } from '../../../src/workspace/build/file-chunks.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const lexicon = parseLexicon('#docs\t1000\ncastle\t10\nthe\t900\nindex\t100\n');
const texts = [
  ...['workspace.md', 'cli.md'].map((f) => readFileSync(path.join(root, 'docs', f), 'utf8')),
  'Run parseConfig on 2025 and 25px, then retry_failed uploads.\n\nUploadS of RETRIES\ncafé 25 uploads\r\nretrying the upload\r\n',
  'Die Straße führt zum Schloß 1850er\nभारत की राजधानी नई दिल्ली है\n政府间气候变化专门委员会主席\n药房技术员与药剂师\n\n药剂 食べる',
];
const pasted = readFileSync(path.join(root, 'src/workspace/search/prose-index.ts'), 'utf8');
// A pasted paragraph keeps its kept words' grams (up to RANK_DEFAULTS.maxGramTerms terms); a pasted file has none.
const queries = ['retry failed uploads', 'the index format version', 'schlosses straße', '药房的药剂', pasted.slice(0, 600), pasted.slice(0, 3000), pasted];
const tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-prose-read-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const bytesOf = (text: string) => new TextEncoder().encode(text);
const stateOf = (i: number, bytes: Uint8Array) => documentState({ key: `/docs/doc-${i}.md`, size: bytes.length, mtime: 1, hash: createHash('sha256').update(bytes).digest('hex') });

/** The document counted whole, as a resident process counts it (its grams exact in every line). */
async function counted(bytes: Uint8Array) {
  const opened = await openChunks((async function* () { yield bytes; })(), 64);
  const b = new ProseLinesBuilder();
  for await (const chunk of opened.chunks) for (const line of chunk.lines) b.add(line);
  return b.done()!;
}

describe('a document\'s grams counted from its bytes (linesRead)', () => {
  it('bound its best line exactly as counting it whole does, at least as high as the file\'s grams at their most, and tighter for a pasted file', async () => {
    const bytes = texts.map(bytesOf);
    const states = bytes.map((b, i) => stateOf(i, b));
    const c = new ProseStatsCollector();
    for (const [i, b] of bytes.entries()) addCounted(c, (await countDocument(states[i], b))!);
    const file = path.join(tmp, 'snapshot.prose.bin');
    writeProseStatsFile(file, c.body());
    const whole = await Promise.all(bytes.map(counted));
    let tighter = 0;
    let floored = 0;
    for (const query of queries) {
      for (const mode of ['hybrid', 'lexical'] as const) {
        // A fresh reader per query: linesRead keeps the exact grams for the rest of the query.
        const index = new ProseIndexLines(openProseStats(file));
        const plan = buildRankPlan(query, mode, lexicon);
        for (let i = 0; i < texts.length; i++) {
          const where = `${query.slice(0, 40)} / ${mode} / text ${i}`;
          const p = `docs/doc-${i}.md`;
          const most = proseBest(index.linesOf(states[i], plan)!, plan, p);
          const read = await index.linesRead(states[i], plan, bytes[i]);
          expect(read, where).not.toBeNull();
          const exact = proseBest(read!, plan, p);
          expect(exact, where).toBe(proseBest(whole[i], plan, p));
          expect(exact, where).toBeGreaterThanOrEqual(most);
          // linesOf gives the exact grams for the rest of the query.
          expect(proseBest(index.linesOf(states[i], plan)!, plan, p), where).toBe(exact);
          if (exact > most) tighter++;
          // With a floor just past the document's best line, as the pipeline asks (a few lines left within
          // it, their grams searched for in each gram's lines): never past the floor, so never skipped.
          const floor = exact * (1 + 1e-6);
          if (Number.isFinite(exact)) {
            const again = await new ProseIndexLines(openProseStats(file)).linesRead(states[i], plan, bytes[i]);
            expect(proseBest(again!, plan, p, undefined, floor), where).toBeLessThanOrEqual(floor);
            floored++;
          }
        }
      }
    }
    expect(tighter).toBeGreaterThan(6);
    expect(floored).toBeGreaterThan(20);
  });

  it('keeps the file\'s bound when the bytes are not the indexed document\'s (another hash, or other lines under the same hash)', async () => {
    const text = 'retry the failed uploads\nuploads retried\n';
    const b = bytesOf(text);
    const state = stateOf(0, b);
    const c = new ProseStatsCollector();
    addCounted(c, (await countDocument(state, b))!);
    const file = path.join(tmp, 'one.prose.bin');
    writeProseStatsFile(file, c.body());
    const index = new ProseIndexLines(openProseStats(file));
    const plan = buildRankPlan('retry failed uploads', 'hybrid', lexicon);
    expect(await index.linesRead(state, plan, bytesOf(text.replace('failed', 'FAILED')))).toBeNull();
    // The same hash given with other bytes (a state that lies): the lines' lengths differ, nothing is taken.
    const lying = documentState({ key: '/docs/doc-0.md', size: 3, mtime: 1, hash: createHash('sha256').update(bytesOf('retry\n')).digest('hex') });
    const c2 = new ProseStatsCollector();
    addCounted(c2, (await countDocument(lying, b))!);
    const file2 = path.join(tmp, 'lying.prose.bin');
    writeProseStatsFile(file2, c2.body());
    expect(await new ProseIndexLines(openProseStats(file2)).linesRead(lying, plan, bytesOf('retry\n'))).toBeNull();
    expect(await index.linesRead('another state', plan, b)).toBeNull();
  });
});
