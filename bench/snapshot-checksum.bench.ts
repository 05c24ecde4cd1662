// What checking snapshot.bin's checksums costs a cold query: a synthetic snapshot shaped like a large
// workspace's (CHUNKS chunks of dim 256, identifiers in every chunk) is written, then opened REPEATS
// times (page cache warm, as on a second cold query), side by side with crc32 alone over the same
// bytes. `npm run build && node dist/bench/snapshot-checksum.bench.js`
import { statSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { emptySnapshot, patchSnapshot, type ChunkRow } from '../src/workspace/snapshot/snapshot.js';
import { readSnapshotFile, verifySnapshotFiles, writeSnapshotFile } from '../src/workspace/snapshot/snapshot-file.js';
import { TermCollector } from '../src/workspace/snapshot/term-collector.js';
import { chunkFeatures } from '../src/workspace/snapshot/chunk-features.js';
import { toFloat16 } from '../src/workspace/packed/float16.js';
import { createRng } from './prng.js';

const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 40_000);
const DIM = 256;
const REPEATS = 5;
const WORDS = Array.from({ length: 5000 }, (_, i) => `word${i.toString(36)}`);

const rng = createRng(7);
const rand = () => rng.next();
const terms = new TermCollector();
const rows: ChunkRow[] = [];
const files = [];
for (let c = 0; c < CHUNKS; c++) {
  const key = `/bench/dir${Math.floor(c / 4) % 97}/file${Math.floor(c / 4)}.ts`;
  if (c % 4 === 0) files.push({ key, size: 4000, mtime: 1000 + c, ctime: 1000 + c, hash: `h${c}`, kind: 'text' as const, lines: 192 });
  const text = Array.from({ length: 48 }, () => `const ${WORDS[Math.floor(rand() * WORDS.length)]} = ${WORDS[Math.floor(rand() * WORDS.length)]}();`);
  const f = chunkFeatures(text, terms.identifiers);
  terms.add(rows.length, f.identifiers);
  terms.addDefs(rows.length, f.definitions);
  rows.push({ path: key, start: (c % 4) * 48, end: (c % 4) * 48 + 48, halves: toFloat16(Float32Array.from({ length: DIM }, () => rand() - 0.5)), hasTokens: true, chars: f.chars, blank: f.blank, defs: f.definitions });
}
const snap = patchSnapshot(emptySnapshot(DIM), { dropChunksOf: new Set(), dropFiles: new Set(), files, rows, terms }, '1.1');
const dir = mkdtempSync(path.join(tmpdir(), 'simgrep-bench-snap-'));
const file = path.join(dir, 'snapshot.bin');
writeSnapshotFile(file, snap);
const mb = statSync(file).size / 2 ** 20;
// What an open reads and checks: all but the postings' entries (read a block at a time as keys are looked up).
const header = JSON.parse(readFileSync(file).subarray(8, 8 + readFileSync(file).readUInt32LE(0)).toString());
const lazyBytes = header.table.filter((t: { name: string }) => /(Chunk|Count)$/.test(t.name)).reduce((n: number, t: { length: number; type: string }) => n + t.length * (t.type === 'Uint16Array' ? 2 : 4), 0);
const eagerMB = mb - lazyBytes / 2 ** 20;
const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1];
const time = (fn: () => unknown) => median(Array.from({ length: REPEATS }, () => { const t = performance.now(); fn(); return performance.now() - t; }));
let open = time(() => readSnapshotFile(file, '1.1'));
const verify = time(() => verifySnapshotFiles(file));
const bytes = readFileSync(file);
const crcAll = time(() => crc32(bytes));
// Side by side: the reader of a build without checksums (BASELINE_DIST=/path/to/other/dist), same snapshot.
let baselineOpenMs: number | undefined;
if (process.env.BASELINE_DIST) {
  const old = await import(path.join(process.env.BASELINE_DIST, 'src/workspace/snapshot/snapshot-file.js'));
  const oldFile = path.join(dir, 'old.bin');
  old.writeSnapshotFile(oldFile, snap);
  // Interleaved, so the machine's noise falls on both alike.
  const a: number[] = [];
  const b: number[] = [];
  for (let r = 0; r < 3 * REPEATS; r++) {
    a.push(time(() => old.readSnapshotFile(oldFile, '1.1')) );
    b.push(time(() => readSnapshotFile(file, '1.1')));
  }
  baselineOpenMs = +median(a).toFixed(1);
  open = median(b);
}
console.log(JSON.stringify({ chunks: CHUNKS, fileMB: +mb.toFixed(1), eagerMB: +eagerMB.toFixed(1), openMs: +open.toFixed(1), baselineOpenMs, verifyAllMs: +verify.toFixed(1), crc32WholeFileMs: +crcAll.toFixed(1), crc32MsPerMB: +(crcAll / mb).toFixed(3) }));
if (process.env.BENCH_KEEP) console.log(file); else rmSync(dir, { recursive: true, force: true });
