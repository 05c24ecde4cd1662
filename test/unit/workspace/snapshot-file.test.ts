// The snapshot files: what a new process reads back equals what was written (term postings looked
// up one key at a time from disk, then all at once after many lookups), a snapshot of another
// version or a damaged file is refused (null: rebuilt), a reader keeps the file it opened when a
// writer replaces it, and a patch appended (with its delta file) means the same as a compacted one.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { emptySnapshot, liveChunks, patchSnapshot, type ChunkRow } from '../../../src/workspace/snapshot/snapshot.js';
import { deltaPathOf, readSnapshotFile, readSnapshotFileList, verifySnapshotFiles, writeSnapshotDelta, writeSnapshotFile } from '../../../src/workspace/snapshot/snapshot-file.js';
import { DamagedFileError } from '../../../src/workspace/snapshot/section-file.js';
import { TermCollector } from '../../../src/workspace/snapshot/term-collector.js';
import { toFloat16 } from '../../../src/workspace/packed/float16.js';
import { DIM, build, canonical, dump, edit, idents, keysOf } from '../../helpers/snapshots.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-snapfile-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

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
    // The rows' vectors are float16 bits, in memory as in the file: they read back bit for bit.
    expect(back.halves).toEqual(s.halves);
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
      return { path: key, start: 0, end: 5, halves: toFloat16(Float32Array.from({ length: DIM }, (_, d) => d / 4 + 0.1)), hasTokens: true, chars: 30, blank: false, defs };
    });
    const files = rows.map((r, i) => ({ key: r.path, size: 5 + i, mtime: 9 + i, ctime: 9 + i, hash: `n${i}`, kind: 'text' as const, lines: 5 }));
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
    expect(appended.halves.buffer).toBe(read.halves.buffer); // the vectors read have room: appended in place
    expect([appended.baseChunks, appended.start.length, appended.baseVersion]).toEqual([80, 84, '1.1']); // 2 dead, 4 appended
    expect(liveChunks(appended)).toBe(82);
    expect(canonical(appended)).toEqual(canonical(patchSnapshot(base, first, '2.2', { compactAbove: 0 })));
    writeSnapshotDelta(file, appended);
    const back = readSnapshotFile(file, '2.2')!;
    expect(canonical(back)).toEqual(canonical(appended));
    // A second append keeps one tail; past the churn limit the next patch compacts.
    const second = edit(['/t/dir1/file001.ts'], 'two');
    const again = patchSnapshot(back, second, '3.3');
    expect(again.halves.buffer).toBe(back.halves.buffer); // base + delta read with room too
    expect([again.baseChunks, again.start.length]).toEqual([80, 86]);
    expect(canonical(again)).toEqual(canonical(patchSnapshot(patchSnapshot(base, first, '2.2', { compactAbove: 0 }), second, '3.3', { compactAbove: 0 })));
    const many = edit(Array.from({ length: 8 }, (_, i) => `/t/dir${i % 3}/file${String(i + 10).padStart(3, '0')}.ts`), 'three');
    const compacted = patchSnapshot(again, many, '4.4');
    expect([compacted.baseChunks, compacted.start.length, compacted.baseVersion]).toEqual([liveChunks(compacted), liveChunks(compacted), '4.4']);
    expect(canonical(compacted)).toEqual(canonical(patchSnapshot(patchSnapshot(patchSnapshot(base, first, '2.2', { compactAbove: 0 }), second, '3.3', { compactAbove: 0 }), many, '4.4', { compactAbove: 0 })));
    // A delta whose base was replaced is refused.
    writeSnapshotFile(file, compacted);
    expect(readSnapshotFile(file, '2.2')).toBeNull();
    expect(canonical(readSnapshotFile(file, '4.4')!)).toEqual(canonical(compacted));
    expect(readFileSync(deltaPathOf(file)).length).toBeGreaterThan(0);
  });

  it('the file list alone (status): the same as in the whole snapshot, from the delta or the base of the version; null for another', () => {
    const file = path.join(tmp, 'list.bin');
    const base = build(30, '1.1');
    writeSnapshotFile(file, base);
    expect(readSnapshotFileList(file, '1.1')).toEqual(readSnapshotFile(file, '1.1')!.files);
    writeSnapshotDelta(file, patchSnapshot(readSnapshotFile(file, '1.1')!, edit(['/t/dir0/file000.ts', '/t/new.ts'], 'one'), '2.2'));
    const whole = readSnapshotFile(file, '2.2')!.files;
    expect(whole.map((f) => f.key)).toContain('/t/new.ts');
    expect(readSnapshotFileList(file, '2.2')).toEqual(whole);
    expect(readSnapshotFileList(file, '1.1')).toEqual(base.files);
    expect(readSnapshotFileList(file, '9.9')).toBeNull();
    // A damaged file list: null (the caller loads the snapshot, which rebuilds it).
    const bytes = readFileSync(deltaPathOf(file));
    const at = bytes.indexOf(Buffer.from('/t/new.ts'));
    bytes[at + 3] ^= 1;
    writeFileSync(deltaPathOf(file), bytes);
    expect(readSnapshotFileList(file, '2.2')).toBeNull();
  });

  it('reads many rows\' vectors back bit for bit, in an array of their own with room to append', () => {
    const dim = 256;
    const rows: ChunkRow[] = Array.from({ length: 300 }, (_, i) => ({
      path: `/t/f${String(i).padStart(3, '0')}.ts`, start: 0, end: 5, hasTokens: true, chars: 10, blank: false, defs: [],
      halves: toFloat16(Float32Array.from({ length: dim }, (_, d) => Math.sin(i * dim + d))),
    }));
    const files = rows.map((r) => ({ key: r.path, size: 1, mtime: 1, ctime: 1, hash: r.path, kind: 'text' as const, lines: 5 }));
    const s = patchSnapshot(emptySnapshot(dim, '1.1'), { dropChunksOf: new Set(), dropFiles: new Set(), files, rows, terms: new TermCollector() }, '1.1');
    expect(s.halves.length).toBeGreaterThan(65_536);
    const file = path.join(tmp, 'v.bin');
    writeSnapshotFile(file, s);
    const expected = new Uint16Array(300 * dim);
    rows.forEach((r, i) => expected.set(r.halves, i * dim));
    const back = readSnapshotFile(file, '1.1')!;
    expect(back.halves).toEqual(expected);
    expect(back.halves.buffer.byteLength).toBeGreaterThan(expected.byteLength); // not a view into the file's other sections
  });

  it('consumes the changes when asked: the same snapshot, compacted or appended, and the triples of the changes let go', () => {
    const base = build(40, '1.1');
    for (const compactAbove of [0, 1]) {
      const kept = edit(['/t/dir0/file000.ts', '/t/new.ts'], 'one');
      const used = edit(['/t/dir0/file000.ts', '/t/new.ts'], 'one');
      const expected = patchSnapshot(base, kept, '2.2', { compactAbove });
      expect(dump(patchSnapshot(base, used, '2.2', { compactAbove, consume: true }))).toEqual(dump(expected));
      expect([used.terms.lower, used.terms.stem, used.terms.defLower, used.terms.defStem].map((t) => t.length)).toEqual([0, 0, 0, 0]);
      expect(kept.terms.lower.length).toBeGreaterThan(0);
    }
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

  it('a damaged snapshot.bin is used as is: any byte changed is found (on opening, or as the postings block is read) or changes nothing', () => {
    const file = path.join(tmp, 'flip.bin');
    const s = build(8, '4.4');
    writeSnapshotFile(file, s);
    const good = readFileSync(file);
    const expected = dump(s);
    expect(verifySnapshotFiles(file)).toBeNull();
    let found = 0;
    // Every 5th byte (header, every section, the padding between them): each flipped on its own.
    for (let at = 0; at < good.length; at += 5) {
      const bad = Buffer.from(good);
      bad[at] ^= 0x5a;
      writeFileSync(file, bad);
      const problem = verifySnapshotFiles(file);
      let meaning: unknown = null;
      try { meaning = dump(readSnapshotFile(file, '4.4') ?? build(0, '0')); } catch (e) { expect(e).toBeInstanceOf(DamagedFileError); }
      if (problem) found++;
      // Either the damage is reported, or the byte was padding and the snapshot means what it meant.
      if (!problem) expect(meaning).toEqual(expected);
      else expect(meaning).not.toEqual(expected);
    }
    expect(found).toBeGreaterThan(good.length / 5 * 0.8);
  });

  it('reads a base of the wanted version when the delta beside it is damaged', () => {
    const file = path.join(tmp, 'i.bin');
    writeSnapshotFile(file, build(6, '1.1'));
    writeSnapshotDelta(file, patchSnapshot(readSnapshotFile(file, '1.1')!, edit(['/t/new.ts'], 'one'), '2.2'));
    writeSnapshotFile(file, build(6, '3.3')); // compacted: the 2.2 delta stays beside it
    const delta = readFileSync(deltaPathOf(file));
    delta[8] = 'X'.charCodeAt(0); // its JSON header no longer parses
    writeFileSync(deltaPathOf(file), delta);
    expect(dump(readSnapshotFile(file, '3.3')!)).toEqual(dump(build(6, '3.3')));
    expect(readSnapshotFile(file, '2.2')).toBeNull();
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
