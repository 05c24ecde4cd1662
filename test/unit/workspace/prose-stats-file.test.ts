// The index's prose statistics (snapshot/prose-stats-file.ts) stand in for a counted document exactly:
// for any query, a document's line terms packed from the file's postings of the query's keys and grams
// (search/prose-index.ts) give the statistics and the bound visiting no line that the document counted
// whole gives (rank/prose-lines.ts), and a bound from its lines between that one and the counted one's
// (the grams' part at their most in a line), so a cold process ranks documents as a scan does and skips
// them on a bound that never passes a line that could enter the results.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan } from '../../../src/rank/plan.js';
import { proseBest, proseLineStats, ProseLinesBuilder, proseReach } from '../../../src/rank/prose-lines.js';
import { addCounted, countDocument, countProseAhead, updateProseStats } from '../../../src/workspace/prose-stats.js';
import { PROSE_DF_LINES } from '../../../src/rank/prose.js';
import type { Snapshot } from '../../../src/workspace/snapshot/snapshot.js';
import { ProseIndexLines } from '../../../src/workspace/search/prose-index.js';
import { ProseStatsCollector } from '../../../src/workspace/snapshot/prose-stats-collect.js';
import { decodeGramPostings, decodePostings, documentState, gramName, openProseStatsFile, writeProseStatsFile } from '../../../src/workspace/snapshot/prose-stats-file.js';
import { gramKey } from '../../../src/rank/lexical/grams.js';
import { openChunks } from '../../../src/workspace/build/file-chunks.js';
import { writeSectionFile } from '../../../src/workspace/snapshot/section-file.js';
import { sweepTempFiles } from '../../../src/workspace/snapshot/temp-files.js';
import { openProseStats, proseStatsDeltaPathOf } from '../../../src/workspace/snapshot/prose-stats-layers.js';

/** Each document of a name's postings with its flat (line, count) pairs, through the decoder searches use. */
function eachPosting(bytes: Uint8Array, each: (doc: number, pairs: number[]) => void): void {
  const d = decodePostings(bytes);
  for (let k = 0; k < d.docs.length; k++) each(d.docs[k], Array.from(d.pairs.subarray(d.start[k], d.start[k + 1])));
}

const root = fileURLToPath(new URL('../../../', import.meta.url));
const lexicon = parseLexicon('#docs\t1000\ncastle\t10\nthe\t900\nindex\t100\n');
const texts = [
  ...['workspace.md', 'models.md', 'cli.md'].map((f) => readFileSync(path.join(root, 'docs', f), 'utf8')),
  'Run parseConfig on 2025 and 25px, then retry_failed uploads.\n\nUploadS of RETRIES\ncafé 25 uploads',
  'castle\ncastle king\n\n\nking\n   \n\t\ncastle',
  'والمدينة القاهرة عاصمة مصر\nمدينة القاهرة\nDie Straße führt zum Schloß 1850er\nभारत की राजधानी नई दिल्ली है\n政府间气候变化专门委员会主席\n𠀋𠀌𠀍 a 𝐀𝐁𝐂𝐃 ok İstanbul ǅemal ﬁle',
  '药房技术员与药剂师\n药药房 東京タワーの食べ物\n\n药剂 食べる 𠀋𠀌药',
];
const queries = [
  'retry failed uploads', 'parseConfig', 'which mode should I use to search a document', 'the index format version', 'castle king',
  'مدينة القاهرة', 'schlosses straße', 'दिल्ली राजधानी', '气候变化委员会', '药房的药剂', '𝐀𝐁𝐂 ok istanbul file', 'uploading retries',
];
const tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-prose-stats-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The document counted whole, as a resident process counts it. */
async function counted(text: string) {
  const opened = await openChunks((async function* () { yield new TextEncoder().encode(text); })(), 64);
  const b = new ProseLinesBuilder();
  for await (const chunk of opened.chunks) for (const line of chunk.lines) b.add(line);
  return b.done()!;
}

describe('prose statistics kept in the index', () => {
  it('give each document exactly what counting it gives, for every query: statistics and the bound visiting no line; the bound from its lines between those two bounds', async () => {
    const c = new ProseStatsCollector();
    for (const [i, text] of texts.entries()) addCounted(c, (await countDocument(`doc-${i}`, new TextEncoder().encode(text)))!);
    const file = path.join(tmp, 'snapshot.prose.bin');
    writeProseStatsFile(file, c.body());
    const index = new ProseIndexLines(openProseStats(file));
    const whole = await Promise.all(texts.map(counted));
    let compared = 0;
    let bounded = 0;
    let tighter = 0;
    for (const query of queries) {
      for (const mode of ['hybrid', 'lexical'] as const) {
        const plan = buildRankPlan(query, mode, lexicon);
        for (let i = 0; i < texts.length; i++) {
          const where = `${query} / ${mode} / text ${i}`;
          const fromIndex = index.linesOf(`doc-${i}`, plan)!;
          const p = `docs/doc-${i}.md`;
          expect({ where, stats: proseLineStats(fromIndex, plan), reach: proseReach(fromIndex, plan, p) })
            .toEqual({ where, stats: proseLineStats(whole[i], plan), reach: proseReach(whole[i], plan, p) });
          const best = proseBest(fromIndex, plan, p);
          expect(best, where).toBeLessThanOrEqual(proseBest(whole[i], plan, p));
          expect(best, where).toBeGreaterThanOrEqual(proseReach(whole[i], plan, p));
          if (best > proseReach(whole[i], plan, p)) tighter++;
          compared++;
          if (proseBest(fromIndex, plan, p) < 1) bounded++;
        }
      }
    }
    expect(compared).toBe(queries.length * 2 * texts.length);
    expect(bounded).toBeGreaterThan(30);
    expect(tighter).toBeGreaterThan(30);
    expect(index.linesOf('another state', buildRankPlan('castle', 'hybrid', lexicon))).toBeNull();
  });

  for (const how of ['addFrom', 'addWhole'] as const) it(`copies the records of documents it keeps, byte for byte, and drops the others (${how})`, async () => {
    const c = new ProseStatsCollector();
    for (const [i, text] of texts.entries()) addCounted(c, (await countDocument(`doc-${i}`, new TextEncoder().encode(text)))!);
    const first = path.join(tmp, 'first.bin');
    writeProseStatsFile(first, c.body());
    const a = openProseStatsFile(first)!;
    const again = new ProseStatsCollector();
    expect(again[how](a, (state) => state !== 'doc-1')).toBe(texts.length - 1);
    addCounted(again, (await countDocument('doc-new', new TextEncoder().encode('castle keep\nthe castle')))!);
    const second = path.join(tmp, 'second.bin');
    writeProseStatsFile(second, again.body());
    const b = openProseStatsFile(second)!;
    expect(b.docOf('doc-1')).toBeUndefined();
    expect(b.docCount).toBe(how === 'addWhole' ? texts.length + 1 : texts.length);
    const lines = (f: typeof a, name: string, state: string) => {
      const out: number[][] = [];
      const i = f.find(name);
      if (i >= 0) eachPosting(f.postingsAt(i), (doc, pairs) => { if (f.stateOf(doc) === state) out.push(pairs); });
      return out;
    };
    for (const name of ['wcastle', 'sindex', 'wقاهرة', 'supload']) {
      for (const state of ['doc-0', 'doc-4', 'doc-5']) expect({ name, state, l: lines(b, name, state) }).toEqual({ name, state, l: lines(a, name, state) });
    }
    expect(lines(b, 'wcastle', 'doc-new')).toEqual([[0, 1, 1, 1]]);
    // A gram's records: its document frequency and most in a line, per document.
    const grams = (f: typeof a, state: string) => {
      const d = decodeGramPostings(f.postingsAt(f.find('g' + gramName(gramKey('cas')))));
      const k = Array.from(d.docs).findIndex((doc) => f.stateOf(doc) === state);
      return k < 0 ? null : [d.df[k], d.most[k]];
    };
    expect(grams(b, 'doc-new')).toEqual([2, 1]);
    for (const state of ['doc-0', 'doc-4']) expect(grams(b, state)).toEqual(grams(a, state));
    expect(grams(b, 'doc-1')).toBeNull();
    a.close();
    b.close();
  });
});

describe('keeping the statistics file up to date', () => {
  it('a document that keeps no statistics (longer than they count) is held as such: not counted again by the next run, and read by searches', async () => {
    const file = path.join(tmp, 'up-to-date.prose.bin');
    const doc = (key: string, text: string) => ({ f: { key, size: text.length, mtime: 1, hash: key, kind: 'text' as const, lines: 0, firstChunk: 0, chunkCount: 0 }, bytes: new TextEncoder().encode(text) });
    const docs = [doc('/t/a.md', 'castle keep\nthe castle'), doc('/t/long.md', 'castle\n'.repeat(PROSE_DF_LINES + 1))];
    const snap = { files: docs.map((d) => d.f) } as unknown as Snapshot;
    const given = new Map(docs.map((d) => [documentState(d.f), d.bytes]));
    expect(await updateProseStats(file, snap, { given, readMissing: false })).toEqual({ counted: 2, copied: 0, left: 0, written: true });
    expect(await updateProseStats(file, snap, { given, readMissing: false })).toEqual({ counted: 0, copied: 2, left: 0, written: false });
    const index = new ProseIndexLines(openProseStats(file));
    const plan = buildRankPlan('castle', 'hybrid', lexicon);
    expect(index.linesOf(documentState(docs[0].f), plan)).not.toBeNull();
    expect(index.linesOf(documentState(docs[1].f), plan)).toBeNull();
    index.file!.close();
  });

  it('a few documents counted go to a delta beside the base, read with it as one; past 1/8 of the base both are folded into it; a damaged delta is counted again', async () => {
    const file = path.join(tmp, 'layers.prose.bin');
    const deltaFile = proseStatsDeltaPathOf(file);
    const text = (i: number, take = 0) => `castle ${i} keep\nthe castle of king ${i}\n\nretry ${take} failed uploads ${i % 5}`;
    const docOf = (i: number, take = 0) => ({ key: `/t/d${i}.md`, size: text(i, take).length, mtime: take, hash: `${i}-${take}`, kind: 'text' as const, lines: 0, firstChunk: 0, chunkCount: 0 });
    let docs = Array.from({ length: 24 }, (_, i) => ({ i, take: 0 }));
    const update = () => {
      const snap = { files: docs.map((d) => docOf(d.i, d.take)) } as unknown as Snapshot;
      return updateProseStats(file, snap, { given: new Map(docs.map((d) => [documentState(docOf(d.i, d.take)), new TextEncoder().encode(text(d.i, d.take))])), readMissing: false });
    };
    const plans = ['castle king', 'retry failed uploads', 'keep'].map((q) => buildRankPlan(q, 'hybrid', lexicon));
    /** Every document's statistics from the two files, which must be what counting it gives. */
    const check = async () => {
      const index = new ProseIndexLines(openProseStats(file));
      for (const d of docs) {
        const whole = await counted(text(d.i, d.take));
        for (const plan of plans) expect(proseLineStats(index.linesOf(documentState(docOf(d.i, d.take)), plan)!, plan)).toEqual(proseLineStats(whole, plan));
      }
      index.file!.close();
    };
    expect(await update()).toEqual({ counted: 24, copied: 0, left: 0, written: true });
    const base = readFileSync(file);
    // Two documents: one edited, one added. The base stays as it was.
    docs[3] = { i: 3, take: 1 };
    docs.push({ i: 24, take: 0 });
    expect(await update()).toEqual({ counted: 2, copied: 23, left: 0, written: true, delta: true });
    expect(readFileSync(file).equals(base)).toBe(true);
    expect(openProseStatsFile(deltaFile)!.docCount).toBe(2);
    await check();
    // Two more: the delta's four would pass 1/8 of the base's 23 live documents: folded.
    docs[5] = { i: 5, take: 1 };
    docs.push({ i: 25, take: 0 });
    expect(await update()).toEqual({ counted: 2, copied: 24, left: 0, written: true });
    expect(existsSync(deltaFile)).toBe(false);
    // (The base's two dead documents keep their slots, empty: copied whole.)
    const folded = openProseStatsFile(file)!;
    expect(Array.from({ length: folded.docCount }, (_, d) => folded.stateOf(d)).filter((x) => x !== '').length).toBe(26);
    folded.close();
    await check();
    // A delta damaged on disk: a search is told (it counts the documents), the next run counts its documents again.
    docs[7] = { i: 7, take: 1 };
    expect((await update()).delta).toBe(true);
    const sound = readFileSync(deltaFile);
    const bad = Buffer.from(sound);
    bad[8 + sound.readUInt32LE(0) + 16] ^= 0xff;
    writeFileSync(deltaFile, bad);
    expect(() => openProseStats(file)).toThrow(/checksum/);
    const r = await update();
    expect({ ...r, damaged: typeof r.damaged }).toEqual({ counted: 1, copied: 25, left: 0, written: true, delta: true, damaged: 'string' });
    await check();
  });

  it('documents counted ahead of the snapshot (their bytes let go) make the file counting them after makes, byte for byte, and leave no temp file', async () => {
    const text = (i: number) => `castle ${i} keep\nthe castle of king ${i}\n\nretry failed uploads ${i % 5}`;
    const docOf = (i: number) => ({ key: `/t/d${String(i).padStart(2, '0')}.md`, size: text(i).length, mtime: 1, hash: `h${i}`, kind: 'text' as const, lines: 0, firstChunk: 0, chunkCount: 0 });
    const files = [5, 1, 12, 3, 0, 9, 7, 2, 11, 4, 6, 8, 10].map(docOf);
    // The snapshot lists its files by key; a run reads them in its own order.
    const snap = { files: [...files].sort((a, b) => (a.key < b.key ? -1 : 1)) } as unknown as Snapshot;
    const given = () => new Map(files.map((f) => [documentState(f), new TextEncoder().encode(text(Number(f.hash.slice(1))))]));
    const after = path.join(tmp, 'after', 'snapshot.prose.bin');
    const ahead = path.join(tmp, 'ahead', 'snapshot.prose.bin');
    for (const f of [after, ahead]) mkdirSync(path.dirname(f), { recursive: true });
    expect(await updateProseStats(after, snap, { given: given(), readMissing: false })).toEqual({ counted: 13, copied: 0, left: 0, written: true });
    const read = given();
    const countedFile = await countProseAhead(ahead, read);
    expect(read.size).toBe(0);
    expect(await updateProseStats(ahead, snap, { ahead: countedFile, readMissing: false })).toEqual({ counted: 13, copied: 0, left: 0, written: true });
    expect(readFileSync(ahead).equals(readFileSync(after))).toBe(true);
    // One document edited: counted ahead, it goes to the delta.
    const edited = { ...files[2], hash: 'h12b' };
    const snap2 = { files: snap.files.map((f) => (f.key === edited.key ? edited : f)) } as unknown as Snapshot;
    const countedFile2 = await countProseAhead(ahead, new Map([[documentState(edited), new TextEncoder().encode('castle moat\nking')]]));
    expect(await updateProseStats(ahead, snap2, { ahead: countedFile2, readMissing: false })).toEqual({ counted: 1, copied: 12, left: 0, written: true, delta: true });
    expect(readdirSync(path.dirname(ahead)).sort()).toEqual(['snapshot.prose.bin', 'snapshot.prose.delta.bin']);
    const index = new ProseIndexLines(openProseStats(ahead));
    const plan = buildRankPlan('castle moat', 'hybrid', lexicon);
    expect(proseLineStats(index.linesOf(documentState(edited), plan)!, plan)).toEqual(proseLineStats(await counted('castle moat\nking'), plan));
    index.file!.close();
  });

  it('a collector whose counted records go to a spill file in small pieces makes the body memory makes, and leaves no temp file', async () => {
    const inMemory = new ProseStatsCollector();
    const spill = path.join(tmp, 'snapshot.prose.bin.spill.1.tmp');
    const spilled = new ProseStatsCollector(spill, 64);
    for (const c of [inMemory, spilled]) for (const [i, text] of texts.entries()) addCounted(c, (await countDocument(`doc-${i}`, new TextEncoder().encode(text)))!);
    expect(existsSync(spill)).toBe(true);
    const [a, b] = [inMemory.body(), spilled.body()];
    expect(existsSync(spill)).toBe(false);
    expect(b.post.length).toBeGreaterThan(64 * 4);
    const shape = (x: typeof a) => ({ names: Array.from({ length: x.names.length }, (_, i) => x.names.at(i)), start: [...x.start], post: Buffer.from(x.post).toString('hex') });
    expect(shape(b)).toEqual(shape(a));
    // A spill left by a process that died is swept by the next writer of the file.
    const dead = path.join(tmp, 'snapshot.prose.bin.spill.999999999.tmp');
    writeFileSync(dead, 'x');
    sweepTempFiles(path.join(tmp, 'snapshot.prose.bin'));
    expect(existsSync(dead)).toBe(false);
  });

  it('a name whose postings equal an earlier name\'s is kept once (an alias), read and copied as its own', () => {
    const pairs = Array.from({ length: 40 }, (_, k) => [3 * k, 1 + (k % 3)]).flat();
    const c = new ProseStatsCollector();
    for (let d = 0; d < 3; d++) {
      const doc = c.addDocument({ state: `doc-${d}`, lengths: new Uint16Array(130).fill(10), docs: 130, chars: 1300 });
      c.addPairs('wcastles', doc, pairs);
      c.addPairs('scastl', doc, pairs);
      c.addPairs('wkeep', doc, pairs.slice(0, 20 + d * 2));
    }
    const body = c.body();
    const whole = body.post.length;
    const file = path.join(tmp, 'alias.bin');
    writeProseStatsFile(file, body);
    const f = openProseStatsFile(file)!;
    const bytes = (g: typeof f, name: string) => Buffer.from(g.postingsAt(g.find(name))).toString('hex');
    expect(bytes(f, 'scastl')).toBe(bytes(f, 'wcastles'));
    expect(bytes(f, 'wkeep')).not.toBe(bytes(f, 'wcastles'));
    // The shared postings are on disk once.
    expect(f.allPostings().post.length).toBe(whole - f.postingsAt(f.find('wcastles')).length);
    for (const how of ['addFrom', 'addWhole'] as const) {
      const again = new ProseStatsCollector();
      again[how](f, (state) => state !== 'doc-1');
      const copy = path.join(tmp, `alias-${how}.bin`);
      writeProseStatsFile(copy, again.body());
      const g = openProseStatsFile(copy)!;
      const docsOf = (name: string) => { const out: string[] = []; eachPosting(g.postingsAt(g.find(name)), (doc) => { if (g.stateOf(doc) !== '') out.push(g.stateOf(doc)); }); return out; };
      // (addWhole keeps the dropped document's slot, empty, and its records, unread.)
      expect({ how, s: docsOf('scastl'), w: docsOf('wcastles') }).toEqual({ how, s: ['doc-0', 'doc-2'], w: ['doc-0', 'doc-2'] });
      expect(bytes(g, 'scastl')).toBe(bytes(g, 'wcastles'));
      g.close();
    }
    f.close();
  });

  it('a file of the format before (3: no numbers\' postings) is not read: the index run counts its documents again', () => {
    const file = path.join(tmp, 'old-format.prose.bin');
    writeSectionFile(file, { magic: 'simgrep-prose-stats-3' }, [{ name: 'start', array: new Int32Array(1) }]);
    expect(openProseStatsFile(file)).toBeNull();
  });
});
