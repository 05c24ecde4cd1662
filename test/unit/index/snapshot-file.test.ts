// The snapshot files: what a new process reads back equals what was written (term postings looked
// up one key at a time from disk, then all at once after many lookups), a snapshot of another
// version or a damaged file is refused (null: rebuilt), a reader keeps the file it opened when a
// writer replaces it, a patch appended (with its delta file) means the same as a compacted one, and a
// snapshot read ahead on another thread is the one read on this thread.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { emptySnapshot, liveChunks, patchSnapshot, type ChunkRow, type Snapshot, type SnapshotChanges } from '../../../src/index/snapshot.js';
import { deltaPathOf, readSnapshotFile, writeSnapshotDelta, writeSnapshotFile } from '../../../src/index/snapshot-file.js';
import { readSnapshotAhead } from '../../../src/index/snapshot-ahead.js';
import { TermCollector } from '../../../src/index/term-collector.js';
import { chunkFeatures } from '../../../src/index/chunk-features.js';
import type { Postings } from '../../../src/index/postings.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-snapfile-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const DIM = 4;

/** A snapshot of `files` files with two chunks each, identifiers and definitions in every chunk. */
function build(files: number, version: string, word = 'upload'): Snapshot {
  const terms = new TermCollector();
  const rows: ChunkRow[] = [];
  const states = [];
  for (let f = 0; f < files; f++) {
    const key = `/t/dir${f % 3}/file${String(f).padStart(3, '0')}.ts`;
    states.push({ key, size: 100 + f, mtime: 1000 + f, hash: `h${f}`, kind: 'text' as const, lines: 60 });
    for (const start of [0, 48]) {
      const defs = [`retry${f}`, `${word}Ünïcode${start}`];
      terms.add(rows.length, idents(terms, `retry${f} ${word}Unicode${start} ${word}Unicode${start} ${'sharedName '.repeat(1 + (f % 4))}`));
      terms.addDefs(rows.length, defs);
      rows.push({ path: key, start, end: start + (start ? 12 : 48), vector: Float32Array.from({ length: DIM }, (_, d) => ((f + d + start) % 5) / 5), hasTokens: true, chars: 40 + f, blank: false, defs });
    }
  }
  return patchSnapshot(emptySnapshot(DIM), { dropChunksOf: new Set(), dropFiles: new Set(), files: states, rows, terms }, version);
}

/** New contents for some files (new files among them): two chunks each, new and old terms. */
function edit(keys: string[], word: string): SnapshotChanges {
  const terms = new TermCollector();
  const rows: ChunkRow[] = [];
  const files = keys.map((key, f) => ({ key, size: 7 + f, mtime: 99 + f, hash: `${word}${f}`, kind: 'text' as const, lines: 50 }));
  for (const key of keys) {
    for (const start of [0, 48]) {
      const defs = [`${word}Def${start}`, 'sharedName'];
      terms.add(rows.length, idents(terms, `${word}Term ${word}Term sharedName retry3`));
      terms.addDefs(rows.length, defs);
      rows.push({ path: key, start, end: start + 2, vector: Float32Array.from({ length: DIM }, (_, d) => (d + start) / 64), hasTokens: true, chars: 11, blank: false, defs });
    }
  }
  return { dropChunksOf: new Set(keys), dropFiles: new Set(), files, rows, terms };
}

/** What a snapshot means, whatever its chunk numbering: per file its chunks, per term its (file, line, count) entries. */
function canonical(s: Snapshot): unknown {
  const chunk = (c: number) => ({
    start: s.start[c], end: s.end[c], chars: s.chars[c], flags: s.flags[c], vector: [...s.vectors.subarray(c * DIM, (c + 1) * DIM)].map((x) => x.toFixed(2)), // float16 at rest
    defs: Array.from({ length: s.defStart[c + 1] - s.defStart[c] }, (_, j) => [s.defNames.at(s.defStart[c] + j), s.defPlain[s.defStart[c] + j]]),
  });
  const files = s.files.map((f) => ({ ...f, firstChunk: 0, chunks: Array.from({ length: f.chunkCount }, (_, j) => chunk(f.firstChunk + j)) }));
  const postings = (p: Postings) => keysOf(p.flat()).map((k) => {
    const e = p.find(k)!;
    const live = [...e.chunk].map((c, j) => [s.chunkFile[c], c, e.count[j]]).filter(([f]) => f >= 0)
      .map(([f, c, n]) => `${s.files[f].key}:${s.start[c]}:${n}`).sort();
    return [k, live];
  }).filter(([, live]) => live.length > 0);
  return { files, byLower: postings(s.byLower), byStem: postings(s.byStem), byDefLower: postings(s.byDefLower), byDefStem: postings(s.byDefStem) };
}

/** A chunk's identifiers as the indexer counts them, from one line of text. */
function idents(terms: TermCollector, text: string) {
  return chunkFeatures([text], terms.identifiers).identifiers;
}

function keysOf(p: Postings): string[] {
  return Array.from({ length: p.keys.length }, (_, i) => p.keys.at(i)!);
}

function dump(s: Snapshot): unknown {
  const postings = (p: Postings) => keysOf(p).map((k) => { const e = p.find(k)!; return [k, [...e.chunk], [...e.count]]; });
  return {
    version: s.version, files: s.files, start: [...s.start], end: [...s.end], chars: [...s.chars], flags: [...s.flags], chunkFile: [...s.chunkFile],
    defStart: [...s.defStart], defNames: Array.from({ length: s.defNames.length }, (_, i) => s.defNames.at(i)), defPlain: [...s.defPlain],
    byLower: postings(s.byLower), byStem: postings(s.byStem), byDefLower: postings(s.byDefLower), byDefStem: postings(s.byDefStem),
  };
}

describe('snapshot file', () => {
  it('reads back what was written, key by key and after loading all entries', () => {
    const s = build(40, '3.2');
    const file = path.join(tmp, 'a.bin');
    writeSnapshotFile(file, s);
    const back = readSnapshotFile(file, '3.2')!;
    expect(back).not.toBeNull();
    // dump() looks up every key: the first lookups read from the file, later ones from memory.
    expect(keysOf(back.byLower).length).toBeGreaterThan(40);
    expect(dump(back)).toEqual(dump(s));
    // Vectors at rest are float16: within its rounding.
    for (let i = 0; i < s.vectors.length; i++) expect(Math.abs(back.vectors[i] - s.vectors[i])).toBeLessThanOrEqual(Math.abs(s.vectors[i]) * 2 ** -11);
    // Written again from what was read (packed names and file-backed postings), it is the same file.
    const again = path.join(tmp, 'b.bin');
    writeSnapshotFile(again, back);
    expect(readFileSync(again).equals(readFileSync(file))).toBe(true);
  });

  it('patches a snapshot read from a file like one built in memory', () => {
    const file = path.join(tmp, 'c.bin');
    writeSnapshotFile(file, build(12, '1.1'));
    const back = readSnapshotFile(file, '1.1')!;
    const gone = new Set(['/t/dir1/file004.ts']);
    const change = { dropChunksOf: gone, dropFiles: gone, files: [], rows: [], terms: new TermCollector() };
    expect(dump(patchSnapshot(back, change, '2.2'))).toEqual(dump(patchSnapshot(build(12, '1.1'), change, '2.2')));
    // A changed file and a new one: new keys between, before and after the old ones, and old keys again.
    const terms = new TermCollector();
    const rows: ChunkRow[] = ['/t/dir0/file000.ts', '/t/aaa.ts', '/t/zzz.ts'].map((key, i) => {
      const defs = [`aardvark${i}`, 'sharedName', `zebra${i}`];
      terms.add(i, idents(terms, `aardvark${i} sharedName sharedName zebra${i} retry3`));
      terms.addDefs(i, defs);
      return { path: key, start: 0, end: 5, vector: Float32Array.from({ length: DIM }, (_, d) => d / 4), hasTokens: true, chars: 30, blank: false, defs };
    });
    const files = rows.map((r, i) => ({ key: r.path, size: 5 + i, mtime: 9 + i, hash: `n${i}`, kind: 'text' as const, lines: 5 }));
    const edit = { dropChunksOf: new Set(['/t/dir0/file000.ts']), dropFiles: new Set<string>(), files, rows, terms };
    const fromFile = patchSnapshot(readSnapshotFile(file, '1.1')!, edit, '3.3');
    expect(dump(fromFile)).toEqual(dump(patchSnapshot(build(12, '1.1'), edit, '3.3')));
    expect(fromFile.byLower.find('zebra2')?.chunk.length).toBe(1);
    expect(fromFile.files.map((f) => f.key)).toContain('/t/aaa.ts');
  });

  it('appends small changes, then compacts: both mean the same, and the delta file reads back', () => {
    const file = path.join(tmp, 'f.bin');
    const base = build(40, '1.1');
    writeSnapshotFile(file, base);
    const first = edit(['/t/dir0/file000.ts', '/t/new.ts'], 'one');
    const read = readSnapshotFile(file, '1.1')!;
    const appended = patchSnapshot(read, first, '2.2');
    expect(appended.vectors.buffer).toBe(read.vectors.buffer); // the vectors read have room: appended in place
    expect([appended.baseChunks, appended.start.length, appended.baseVersion]).toEqual([80, 84, '1.1']); // 2 dead, 4 appended
    expect(liveChunks(appended)).toBe(82);
    expect(canonical(appended)).toEqual(canonical(patchSnapshot(base, first, '2.2', 0)));
    writeSnapshotDelta(file, appended);
    const back = readSnapshotFile(file, '2.2')!;
    expect(canonical(back)).toEqual(canonical(appended));
    // A second append keeps one tail; past the churn limit the next patch compacts.
    const second = edit(['/t/dir1/file001.ts'], 'two');
    const again = patchSnapshot(back, second, '3.3');
    expect(again.vectors.buffer).toBe(back.vectors.buffer); // base + delta read with room too
    expect([again.baseChunks, again.start.length]).toEqual([80, 86]);
    expect(canonical(again)).toEqual(canonical(patchSnapshot(patchSnapshot(base, first, '2.2', 0), second, '3.3', 0)));
    const many = edit(Array.from({ length: 8 }, (_, i) => `/t/dir${i % 3}/file${String(i + 10).padStart(3, '0')}.ts`), 'three');
    const compacted = patchSnapshot(again, many, '4.4');
    expect([compacted.baseChunks, compacted.start.length, compacted.baseVersion]).toEqual([liveChunks(compacted), liveChunks(compacted), '4.4']);
    expect(canonical(compacted)).toEqual(canonical(patchSnapshot(patchSnapshot(patchSnapshot(base, first, '2.2', 0), second, '3.3', 0), many, '4.4', 0)));
    // A delta whose base was replaced is refused.
    writeSnapshotFile(file, compacted);
    expect(readSnapshotFile(file, '2.2')).toBeNull();
    expect(canonical(readSnapshotFile(file, '4.4')!)).toEqual(canonical(compacted));
    expect(readFileSync(deltaPathOf(file)).length).toBeGreaterThan(0);
  });

  it('refuses another version and a damaged file', () => {
    const file = path.join(tmp, 'd.bin');
    writeSnapshotFile(file, build(5, '7.7'));
    expect(readSnapshotFile(file, '7.8')).toBeNull();
    const bytes = readFileSync(file);
    writeFileSync(file, bytes.subarray(0, bytes.length - 100)); // truncated
    expect(readSnapshotFile(file, '7.7')).toBeNull();
    writeFileSync(file, Buffer.concat([bytes.subarray(0, 20), Buffer.from('garbage'), bytes.subarray(27)]));
    expect(readSnapshotFile(file, '7.7')).toBeNull();
    expect(readSnapshotFile(path.join(tmp, 'missing.bin'), '7.7')).toBeNull();
  });

  it('reads the same snapshot ahead on another thread, from the files open when it started', async () => {
    const file = path.join(tmp, 'g.bin');
    const base = build(30, '1.1');
    writeSnapshotFile(file, base);
    const ahead = readSnapshotAhead(file, '1.1', 0); // any size: on the thread
    expect(ahead.threaded).toBe(true);
    expect(readSnapshotAhead(file, '1.1').threaded).toBe(false); // a small file: read here
    expect(dump((await ahead.read())!)).toEqual(dump(readSnapshotFile(file, '1.1')!));
    const appended = patchSnapshot(readSnapshotFile(file, '1.1')!, edit(['/t/dir0/file000.ts', '/t/new.ts'], 'one'), '2.2');
    writeSnapshotDelta(file, appended);
    const withDelta = readSnapshotAhead(file, '2.2', 0);
    // A writer replaces both files while the thread reads: the snapshot is still the one asked for.
    writeSnapshotFile(file, build(30, '3.3', 'download'));
    writeSnapshotDelta(file, patchSnapshot(readSnapshotFile(file, '3.3')!, edit(['/t/other.ts'], 'two'), '4.4'));
    const back = (await withDelta.read())!;
    expect(back.version).toBe('2.2');
    expect(canonical(back)).toEqual(canonical(appended));
    expect(back.byLower.find('oneterm')?.chunk.length).toBe(4);
    // Another version, a damaged file and a missing one: null, as on this thread.
    expect(await readSnapshotAhead(file, '2.2', 0).read()).toBeNull();
    writeFileSync(file, readFileSync(file).subarray(0, 200));
    expect(await readSnapshotAhead(file, '3.3', 0).read()).toBeNull();
    expect(await readSnapshotAhead(path.join(tmp, 'missing.bin'), '1.1', 0).read()).toBeNull();
  });

  it('keeps a process alive while it waits for the thread (a cold search has nothing else to wait for)', () => {
    const file = path.join(tmp, 'h.bin');
    writeSnapshotFile(file, build(30, '1.1'));
    const ahead = new URL('../../../dist/src/index/snapshot-ahead.js', import.meta.url).href;
    const script = `const { readSnapshotAhead } = await import(${JSON.stringify(ahead)});
      const s = await readSnapshotAhead(${JSON.stringify(file)}, '1.1', 0).read();
      console.log(s.version, s.files.length);`;
    expect(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).trim()).toBe('1.1 30');
  });

  it('keeps answering from the file it opened when a writer replaces it', () => {
    const file = path.join(tmp, 'e.bin');
    writeSnapshotFile(file, build(10, '5.5', 'upload'));
    const reader = readSnapshotFile(file, '5.5')!;
    writeSnapshotFile(file, build(10, '6.6', 'download'));
    expect(reader.byDefLower.find('uploadünïcode0')?.chunk.length).toBe(10);
    expect(reader.byDefLower.find('downloadünïcode0')).toBeNull();
    expect(reader.byLower.find('uploadunicode0')?.chunk.length).toBe(10);
  });
});
