// Exact scan or ANN index for the workspace's vectors? Measures, on a workspace of real code embedded
// by the bundled model, what an IVF_PQ index on the chunks table (LanceDB, cosine, with refine) would
// give against the exact cosine scan the candidate selection does today: recall@10, latency, build
// time; and how the exact scan's cost grows with the number of chunks. Writes bench/ann-results.json
// and the ann section of bench/RESULTS.md.   npm run build && node dist/bench/ann.js [--reuse-index]
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { REPO_ROOT } from './bench-model.js';
import { diskUsage } from '../src/workspace/workspace-files.js';
import { measure } from './measure.js';
import { AGENT_QUERIES, QUERIES } from './queries.js';
import { writeResultsSection } from './results.js';
import { createSearcher } from '../src/searcher.js';
import { fromFloat16 } from '../src/workspace/packed/float16.js';

const CLI = path.join(REPO_ROOT, 'dist/src/cli/main.js');
const TMP = path.join(REPO_ROOT, 'bench/.tmp/ann');
/** Real code the bundled model embeds: about 1.5M lines of JavaScript and TypeScript from node_modules. */
const CORPUS = ['typescript/lib', '@azure', '@aws-sdk', '@smithy', 'apache-arrow', 'rollup', 'zod'].map((d) => path.join(REPO_ROOT, 'node_modules', d));
const K = 10;
const log = (m: string) => process.stderr.write(`[bench:ann] ${m}\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];


/** The chunks table's rows with tokens: ids and unit vectors (as the snapshot holds them). */
async function readVectors(table: lancedb.Table): Promise<{ ids: string[]; vectors: Float32Array; dim: number }> {
  const t = await table.query().where('has_tokens = true').select(['id', 'vector']).toArrow();
  const ids = t.getChild('id')!.toArray() as string[];
  const col = t.getChild('vector')!;
  const dim = (col.type as { listSize: number }).listSize;
  const vectors = new Float32Array(ids.length * dim);
  for (let i = 0; i < ids.length; i++) {
    // float16 values arrive as their bits.
    const v = fromFloat16(col.get(i)!.toArray() as Uint16Array);
    let norm = 0;
    for (let d = 0; d < dim; d++) norm += v[d] * v[d];
    const s = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let d = 0; d < dim; d++) vectors[i * dim + d] = v[d] * s;
  }
  return { ids: Array.from(ids), vectors, dim };
}

/** The exact top k by cosine, as the candidate selection computes every chunk's cosine. */
function exactTop(vectors: Float32Array, dim: number, q: Float32Array, k: number): number[] {
  const n = vectors.length / dim;
  const best: { i: number; s: number }[] = [];
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let d = 0; d < dim; d++) s += vectors[i * dim + d] * q[d];
    if (best.length < k || s > best[best.length - 1].s) {
      best.push({ i, s });
      best.sort((a, b) => b.s - a.s);
      if (best.length > k) best.pop();
    }
  }
  return best.map((b) => b.i);
}

/** Milliseconds of the cosine of one query against n chunk vectors (the candidate step's semantic part). */
function cosineScanMs(n: number, dim: number): number {
  const v = new Float32Array(n * dim);
  for (let i = 0; i < v.length; i++) v[i] = ((i * 2654435761) % 1000) / 1000 - 0.5;
  const q = v.slice(0, dim);
  const out = new Float64Array(n);
  const times: number[] = [];
  for (let rep = 0; rep < 7; rep++) {
    const t = performance.now();
    for (let c = 0; c < n; c++) {
      let s = 0;
      const at = c * dim;
      for (let d = 0; d < dim; d++) s += v[at + d] * q[d];
      out[c] = s;
    }
    times.push(performance.now() - t);
  }
  return median(times);
}

async function main(): Promise<void> {
  mkdirSync(TMP, { recursive: true });
  const ws = path.join(TMP, 'ws');
  if (!existsSync(path.join(ws, 'workspace.json'))) {
    log('indexing the corpus with the bundled model');
    const r = await measure(process.execPath, [CLI, 'index', ...CORPUS, '--index-dir', ws, '-J', '2'], { cwd: REPO_ROOT, timeoutMs: 60 * 60_000 });
    if (r.exitCode !== 0) throw new Error(`index failed: ${r.stderrTail}`);
  }
  // The index is built on a copy of the chunks table: the workspace stays as simgrep wrote it.
  const copy = path.join(TMP, 'ann-db');
  // --reuse-index: measure queries on the copy indexed by an earlier run (the build takes minutes).
  const reuse = process.argv.includes('--reuse-index') && existsSync(path.join(copy, 'chunks.lance'));
  if (!reuse) {
    rmSync(copy, { recursive: true, force: true });
    cpSync(path.join(ws, 'chunks.lance'), path.join(copy, 'chunks.lance'), { recursive: true });
  }
  const db = await lancedb.connect(copy);
  const table = await db.openTable('chunks');
  const { ids, vectors, dim } = await readVectors(table);
  const n = ids.length;
  log(`${n.toLocaleString('en-US')} chunks with tokens, dim ${dim}`);

  const searcher = createSearcher({ concurrency: 0 });
  const queries = [...QUERIES, ...AGENT_QUERIES];
  const qv = await searcher.embed(queries);
  await searcher.close();
  const truth = queries.map((_, i) => exactTop(vectors, dim, qv.subarray(i * dim, (i + 1) * dim), K).map((j) => ids[j]));

  const exactMs: number[] = [];
  for (let i = 0; i < queries.length; i++) {
    const t = performance.now();
    exactTop(vectors, dim, qv.subarray(i * dim, (i + 1) * dim), K);
    exactMs.push(performance.now() - t);
  }

  const partitions = Math.max(1, Math.round(Math.sqrt(n)));
  let buildMs: number;
  let indexBytes: number;
  if (reuse) {
    const earlier = JSON.parse(readFileSync(path.join(REPO_ROOT, 'bench/ann-results.json'), 'utf8')) as { ivfPq: { buildMs: number; indexBytes: number } };
    ({ buildMs, indexBytes } = earlier.ivfPq);
  } else {
    log('building the IVF_PQ index');
    const before = diskUsage(path.join(copy, 'chunks.lance'));
    const t0 = performance.now();
    await table.createIndex('vector', { config: lancedb.Index.ivfPq({ distanceType: 'cosine', numPartitions: partitions, numSubVectors: dim / 16 }) });
    buildMs = performance.now() - t0;
    indexBytes = diskUsage(path.join(copy, 'chunks.lance')) - before;
  }

  const settings: { nprobes: number; refine: number | null; recall: number; p50Ms: number }[] = [];
  for (const nprobes of [10, 20, 50]) {
    for (const refine of [null, 10]) {
      let hits = 0;
      const ms: number[] = [];
      for (let i = 0; i < queries.length; i++) {
        let q = table.vectorSearch(Array.from(qv.subarray(i * dim, (i + 1) * dim))).distanceType('cosine').where('has_tokens = true').limit(K).nprobes(nprobes).select(['id', '_distance']);
        if (refine !== null) q = q.refineFactor(refine);
        const t = performance.now();
        const rows = await q.toArray();
        ms.push(performance.now() - t);
        const want = new Set(truth[i]);
        hits += rows.filter((r: { id: string }) => want.has(r.id)).length;
      }
      settings.push({ nprobes, refine, recall: hits / (queries.length * K), p50Ms: median(ms) });
      log(`nprobes ${nprobes} refine ${refine ?? '-'}: recall@10 ${(hits / (queries.length * K)).toFixed(3)}`);
    }
  }
  table.close();
  db.close();

  const scaling = [25_000, 100_000, 250_000, 1_000_000].map((chunks) => ({ chunks, lines: chunks * 48, ms: cosineScanMs(chunks, dim) }));
  const results = {
    date: new Date().toISOString(),
    machine: { nproc: os.availableParallelism(), node: process.version, load: os.loadavg() },
    corpus: { dirs: CORPUS.map((d) => path.relative(REPO_ROOT, d)), chunks: n, dim, model: 'bundled' },
    exact: { p50Ms: median(exactMs) },
    ivfPq: { partitions, subVectors: dim / 16, buildMs, indexBytes, settings },
    scaling,
  };
  writeFileSync(path.join(REPO_ROOT, 'bench/ann-results.json'), JSON.stringify(results, null, 2) + '\n');
  writeSection(results);
  log(JSON.stringify(results, null, 2));
}

function writeSection(r: any): void {
  const f = (x: number, d = 0) => x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  const md = [
    '<!-- ann:begin (written by node dist/bench/ann.js) -->',
    '## Exact scan or ANN index for the chunk vectors',
    '',
    `Command: \`npm run build && node dist/bench/ann.js\` (${r.date.slice(0, 16)}, ${r.machine.nproc} cores, Node ${r.machine.node}, load average ${f(r.machine.load[0], 1)} at the start). `
      + `Corpus: ${r.corpus.dirs.join(', ')} (real JavaScript/TypeScript), indexed with the bundled model: ${f(r.corpus.chunks)} chunks with tokens, dim ${r.corpus.dim}. `
      + `${QUERIES.length + AGENT_QUERIES.length} queries (bench/queries.ts); truth = the exact top 10 by cosine.`,
    '',
    `IVF_PQ on a copy of the chunks table (LanceDB, cosine, ${r.ivfPq.partitions} partitions, ${r.ivfPq.subVectors} sub-vectors): built in ${f(r.ivfPq.buildMs / 1000, 1)} s, ${f(r.ivfPq.indexBytes / 1048576, 1)} MB.`,
    '',
    '| nprobes | refine factor | recall@10 | p50 latency |',
    '|---:|---:|---:|---:|',
    ...r.ivfPq.settings.map((s: any) => `| ${s.nprobes} | ${s.refine ?? '-'} | ${f(s.recall, 3)} | ${f(s.p50Ms, 1)} ms |`),
    `| exact scan (JS, every vector) | | 1.000 | ${f(r.exact.p50Ms, 1)} ms |`,
    '',
    'Cost of the exact cosine of one query against every chunk vector (the semantic part of the candidate step), by workspace size:',
    '',
    '| chunks | lines (48 a chunk) | cosine scan |',
    '|---:|---:|---:|',
    ...r.scaling.map((s: any) => `| ${f(s.chunks)} | ${f(s.lines)} | ${f(s.ms, 1)} ms |`),
    '<!-- ann:end -->',
    '',
  ].join('\n');
  writeResultsSection(path.join(REPO_ROOT, 'bench/RESULTS.md'), 'ann', md);
}

main().catch((e: unknown) => { process.stderr.write(`[bench:ann] ${(e as Error)?.stack ?? String(e)}\n`); process.exitCode = 2; });
