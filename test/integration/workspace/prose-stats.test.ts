// Regression (issue 30/31, cold CLI query 305 -> 2,365 ms): a process that had not counted the prose
// documents (a cold CLI search, a fresh library handle) read and counted every Markdown file holding a
// query word, to rank their lines with their own BM25 statistics. The index now keeps those statistics
// (snapshot.prose.bin): a cold process skips documents out of reach unread, answers as the scan does,
// keeps them right across edits, additions and deletions, and a damaged file is found and rebuilt.
import { appendFileSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSearcher } from '../../../src/searcher.js';
import { type SearchOptions, type SearchResponse } from '../../../src/searcher/api.js';
import { openProseStatsFile, otherProseStatsFormat } from '../../../src/workspace/snapshot/prose-stats-file.js';
import { writeSectionFile } from '../../../src/workspace/snapshot/section-file.js';
import { createWorkspace } from '../../../src/workspace/workspace.js';
import { indexedTree } from '../../helpers/indexed-tree.js';
import { rounded } from '../../helpers/rounded.js';

/** Paths the workspaces' readers were asked for (read or stream). */
const reads: string[] = [];
vi.mock('../../../src/sources/path-reader.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../src/sources/path-reader.js')>();
  return {
    createPathReader: (...args: Parameters<typeof real.createPathReader>) => {
      const r = real.createPathReader(...args);
      return {
        ...r,
        list: r.list.bind(r),
        read: (e: { path: string }, s?: AbortSignal) => { reads.push(e.path); return r.read(e as never, s); },
        ...(r.stream && { stream: (e: { path: string }, s?: AbortSignal) => { reads.push(e.path); return r.stream!(e as never, s); } }),
      };
    },
  };
});

/** How often a workspace opened its statistics files (prose-stats-layers.ts openProseStats). */
const opens = { count: 0 };
vi.mock('../../../src/workspace/snapshot/prose-stats-layers.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../src/workspace/snapshot/prose-stats-layers.js')>();
  return { ...real, openProseStats: (file: string) => { opens.count++; return real.openProseStats(file); } };
});

const WORDS = ['garden', 'tomato', 'soil', 'water', 'sunlight', 'compost', 'seed', 'harvest', 'weed', 'mulch', 'orchard', 'pruning'];
const garden = (n: number) => Array.from({ length: 20 }, (_, i) => `The ${WORDS[(n + i) % WORDS.length]} needs ${WORDS[(n * 3 + i) % WORDS.length]} in spring ${n}.`).join('\n');
const FILES: Record<string, string> = {
  'docs/uploads.md': ['# Uploads', '', 'Failed uploads are retried three times.', 'The garden is watered daily.', 'Retry after a failed upload waits a second.'].join('\n'),
  'notes/README': 'How to retry an upload that failed.\nNothing else.\n',
  'src/upload.ts': 'export async function retryUpload(file: string) {\n  // retry failed uploads with a backoff\n  return upload(file);\n}\n',
};
/** Code that retries failed uploads, in many chunks (it fills the top-k). */
for (let n = 0; n < 8; n++) {
  FILES[`src/upload-${n}.ts`] = Array.from({ length: 4 }, (_, i) => [
    `export async function retryUpload${n}x${i}(file: string, attempts = ${i + 2}) {`,
    `  // retry failed uploads with a backoff (${n}.${i})`,
    '  for (let a = 0; a < attempts; a++) { if (await upload(file)) return true; }',
    '  throw new Error(`upload failed: ${file}`);',
    '}',
    ...Array.from({ length: 43 }, () => ''),
  ].join('\n')).join('\n');
}
/** Documents that hold a query word once, in a long line among gardening: their best line is weak. */
for (let n = 0; n < 10; n++) FILES[`docs/weak-${n}.md`] = `${garden(n)}\nThe ${WORDS[n % WORDS.length]} shed got a new upload of seed catalogues, the compost was turned and the orchard pruned (${n}).`;
const WEAK = Object.keys(FILES).filter((f) => f.includes('weak-'));

let tree: { dir: string; cleanup: () => Promise<void> };
let dir = '';
const scan = createSearcher({ concurrency: 0 });
const shape = rounded;
const statsFile = () => path.join(dir, 'snapshot.prose.bin');

beforeAll(async () => {
  ({ tree, dir } = await indexedTree(FILES));
});
afterAll(async () => {
  await scan.close();
  await tree?.cleanup();
});

/** A fresh handle's answer (one-shot as the CLI's, or a library handle), which must be the scan's, and the weak documents it read. */
async function cold(o: Omit<SearchOptions, 'paths'>, oneShot: boolean): Promise<{ r: SearchResponse; weakReads: number }> {
  const opts = { ...o, paths: [tree.dir] };
  const expected = await scan.search(opts);
  const ws = createWorkspace({ dir, concurrency: 0, oneShot });
  try {
    reads.length = 0;
    const r = await ws.search(opts);
    expect(r.stats.index?.workspace).toBeDefined();
    expect(shape(r)).toEqual(shape(expected));
    return { r, weakReads: reads.filter((p) => WEAK.some((w) => p.endsWith(w))).length };
  } finally {
    await ws.close();
  }
}

/** The statistics file's documents, by path: every prose file indexed, each in its indexed state. */
function documents(): string[] {
  const f = openProseStatsFile(statsFile())!;
  try {
    // Documents dropped since the file was last compacted leave empty slots (state '').
    return Array.from({ length: f.docCount }, (_, d) => f.stateOf(d)).filter((s) => s !== '').map((s) => path.relative(tree.dir, s.split('\0')[0])).sort();
  } finally {
    f.close();
  }
}

describe('prose statistics in the index (a cold process read and counted every Markdown file)', () => {
  it('a cold CLI search and a fresh library handle answer as the scan, reading no document out of reach', async () => {
    for (const oneShot of [true, false]) {
      for (const o of [{ query: 'retry failed uploads', topK: 3 }, { query: 'where do we retry a failed upload', topK: 2, nLines: 1 }, { query: 'retry failed uploads', mode: 'lexical' as const, topK: 3 }]) {
        const { r, weakReads } = await cold(o, oneShot);
        expect(r.results.length).toBeGreaterThan(0);
        expect({ oneShot, o, weakReads }).toEqual({ oneShot, o, weakReads: 0 });
      }
    }
    // Within reach, the documents are read and ranked by their lines, as a scan ranks them.
    const { r } = await cold({ query: 'new seed catalogues in the shed', topK: 5 }, true);
    expect(r.results.some((x) => /weak-\d\.md$/.test(x.filename))).toBe(true);
    expect(documents()).toEqual(Object.keys(FILES).filter((f) => !f.endsWith('.ts')).sort());
  });

  it('after a document is edited, one added and one deleted, a re-index keeps the statistics right', async () => {
    appendFileSync(path.join(tree.dir, 'docs/weak-3.md'), '\nA failed upload of tomato seed catalogues is retried at dawn.\n');
    writeFileSync(path.join(tree.dir, 'docs/weak-new.md'), `${garden(77)}\nAnother upload of seed lists.`);
    rmSync(path.join(tree.dir, 'docs/weak-5.md'));
    const ws = createWorkspace({ dir, concurrency: 0 });
    await ws.index([tree.dir]);
    await ws.close();
    const expected = Object.keys(FILES).filter((f) => !f.endsWith('.ts') && !f.endsWith('weak-5.md')).concat('docs/weak-new.md').sort();
    expect(documents()).toEqual(expected);
    for (const query of ['retry failed uploads', 'failed upload retried at dawn', 'another upload of seed lists']) {
      for (const oneShot of [true, false]) await cold({ query, topK: 3 }, oneShot);
    }
  });

  it('a damaged statistics file is found: the search counts the documents (the scan\'s answer, said), simgrep index rebuilds it', async () => {
    const file = statsFile();
    const sound = readFileSync(file);
    const header = sound.readUInt32LE(0);
    for (const at of [sound.length - 64, 8 + header + 16]) {
      const bad = Buffer.from(sound);
      bad[at] ^= 0xff;
      writeFileSync(file, bad);
      const { r } = await cold({ query: 'retry failed uploads', topK: 3 }, true);
      expect(r.warnings.map((w) => w.code), `byte ${at}`).toContain('PROSE_STATS_DAMAGED');
      const ws = createWorkspace({ dir, concurrency: 0 });
      const report = await ws.index([tree.dir]);
      await ws.close();
      expect(report.warnings.map((w) => w.code), `byte ${at}`).toContain('PROSE_STATS_REBUILT');
      expect(readFileSync(file).equals(bad)).toBe(false);
      const again = await cold({ query: 'retry failed uploads', topK: 3 }, true);
      expect(again.r.warnings.map((w) => w.code)).not.toContain('PROSE_STATS_DAMAGED');
      expect(again.weakReads).toBe(0);
    }
    expect(statSync(file).size).toBeGreaterThan(0);
  });

  it('a statistics file in an older simgrep\'s format is not read: the search counts the documents (the scan\'s answer, said), simgrep index writes it again', async () => {
    const file = statsFile();
    // What an earlier simgrep left: a sound section file under the format before this one.
    writeSectionFile(file, { magic: 'simgrep-prose-stats-3' }, [{ name: 'docDocs', array: Int32Array.of(1) }]);
    expect(otherProseStatsFormat(file)).toBe('simgrep-prose-stats-3');
    const { r } = await cold({ query: 'retry failed uploads', topK: 3 }, true);
    const outdated = r.warnings.find((w) => w.code === 'PROSE_STATS_OUTDATED');
    expect(outdated?.message).toMatch(/older simgrep's format \(simgrep-prose-stats-3; this one reads simgrep-prose-stats-\d+\).*simgrep index rebuilds it/);
    expect(r.warnings.map((w) => w.code)).not.toContain('PROSE_STATS_DAMAGED');
    // Found once: a resident handle does not open the outdated file again each search (it did, ~2 ms a
    // search), still says so in every answer, and looks again once the file is replaced.
    const resident = createWorkspace({ dir, concurrency: 0 });
    try {
      const opts = { query: 'retry failed uploads', topK: 3, paths: [tree.dir] };
      const expected = shape(await scan.search(opts));
      opens.count = 0;
      for (let i = 0; i < 3; i++) {
        const again = await resident.search(opts);
        expect(again.warnings.map((w) => w.code)).toContain('PROSE_STATS_OUTDATED');
        expect(shape(again)).toEqual(expected);
      }
      expect(opens.count).toBe(1);
      writeSectionFile(file, { magic: 'simgrep-prose-stats-4' }, [{ name: 'docDocs', array: Int32Array.of(1, 2) }]);
      const replaced = await resident.search(opts);
      expect(opens.count).toBe(2);
      expect(replaced.warnings.find((w) => w.code === 'PROSE_STATS_OUTDATED')?.message).toMatch(/simgrep-prose-stats-4/);
    } finally {
      await resident.close();
    }
    const ws = createWorkspace({ dir, concurrency: 0 });
    await ws.index([tree.dir]);
    await ws.close();
    expect(otherProseStatsFormat(file)).toBeNull();
    expect(openProseStatsFile(file)).not.toBeNull();
    const again = await cold({ query: 'retry failed uploads', topK: 3 }, true);
    expect(again.r.warnings.map((w) => w.code)).not.toContain('PROSE_STATS_OUTDATED');
    expect(again.weakReads).toBe(0);
  });

  it('an index made before the statistics existed gets them from simgrep index, with nothing else changed', async () => {
    rmSync(statsFile());
    const ws = createWorkspace({ dir, concurrency: 0 });
    const report = await ws.index([tree.dir]);
    await ws.close();
    expect(report.indexed).toBe(0);
    expect(documents().length).toBeGreaterThan(5);
    expect((await cold({ query: 'retry failed uploads', topK: 3 }, true)).weakReads).toBe(0);
  });
});
