// Small snapshots for the snapshot-file tests: built from made-up files with identifiers and
// definitions in every chunk, edited, and compared by what they mean (canonical) or byte for byte (dump).
import { emptySnapshot, patchSnapshot, type ChunkRow, type Snapshot, type SnapshotChanges } from '../../src/workspace/snapshot/snapshot.js';
import { TermCollector } from '../../src/workspace/snapshot/term-collector.js';
import { chunkFeatures } from '../../src/workspace/snapshot/chunk-features.js';
import { toFloat16 } from '../../src/workspace/packed/float16.js';
import type { Postings } from '../../src/workspace/snapshot/postings.js';

export const DIM = 4;

/** A snapshot of `files` files with two chunks each, identifiers and definitions in every chunk. */
export function build(files: number, version: string, word = 'upload'): Snapshot {
  const terms = new TermCollector();
  const rows: ChunkRow[] = [];
  const states = [];
  for (let f = 0; f < files; f++) {
    const key = `/t/dir${f % 3}/file${String(f).padStart(3, '0')}.ts`;
    states.push({ key, size: 100 + f, mtime: 1000 + f, ctime: 1000 + f, hash: `h${f}`, kind: 'text' as const, lines: 60 });
    for (const start of [0, 48]) {
      const defs = [`retry${f}`, `${word}Ünïcode${start}`];
      terms.add(rows.length, idents(terms, `retry${f} ${word}Unicode${start} ${word}Unicode${start} ${'sharedName '.repeat(1 + (f % 4))}`));
      terms.addDefs(rows.length, defs);
      rows.push({ path: key, start, end: start + (start ? 12 : 48), halves: toFloat16(Float32Array.from({ length: DIM }, (_, d) => ((f + d + start) % 5) / 5)), hasTokens: true, chars: 40 + f, blank: false, defs });
    }
  }
  return patchSnapshot(emptySnapshot(DIM), { dropChunksOf: new Set(), dropFiles: new Set(), files: states, rows, terms }, version);
}

/** New contents for some files (new files among them): two chunks each, new and old terms. */
export function edit(keys: string[], word: string): SnapshotChanges {
  const terms = new TermCollector();
  const rows: ChunkRow[] = [];
  const files = keys.map((key, f) => ({ key, size: 7 + f, mtime: 99 + f, ctime: 99 + f, hash: `${word}${f}`, kind: 'text' as const, lines: 50 }));
  for (const key of keys) {
    for (const start of [0, 48]) {
      const defs = [`${word}Def${start}`, 'sharedName'];
      terms.add(rows.length, idents(terms, `${word}Term ${word}Term sharedName retry3`));
      terms.addDefs(rows.length, defs);
      rows.push({ path: key, start, end: start + 2, halves: toFloat16(Float32Array.from({ length: DIM }, (_, d) => (d + start) / 64)), hasTokens: true, chars: 11, blank: false, defs });
    }
  }
  return { dropChunksOf: new Set(keys), dropFiles: new Set(), files, rows, terms };
}

/** What a snapshot means, whatever its chunk numbering: per file its chunks, per term its (file, line, count) entries. */
export function canonical(s: Snapshot): unknown {
  const chunk = (c: number) => ({
    start: s.start[c], end: s.end[c], chars: s.chars[c], flags: s.flags[c], vector: [...s.halves.subarray(c * DIM, (c + 1) * DIM)], // float16 bits, in memory as at rest
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
export function idents(terms: TermCollector, text: string) {
  return chunkFeatures([text], terms.identifiers).identifiers;
}

export function keysOf(p: Postings): string[] {
  return Array.from({ length: p.keys.length }, (_, i) => p.keys.at(i)!);
}

export function dump(s: Snapshot): unknown {
  const postings = (p: Postings) => keysOf(p).map((k) => { const e = p.find(k)!; return [k, [...e.chunk], [...e.count]]; });
  return {
    version: s.version, files: s.files, start: [...s.start], end: [...s.end], chars: [...s.chars], flags: [...s.flags], chunkFile: [...s.chunkFile],
    defStart: [...s.defStart], defNames: Array.from({ length: s.defNames.length }, (_, i) => s.defNames.at(i)), defPlain: [...s.defPlain],
    byLower: postings(s.byLower), byStem: postings(s.byStem), byDefLower: postings(s.byDefLower), byDefStem: postings(s.byDefStem),
  };
}
