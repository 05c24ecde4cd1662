// The bench's result shapes and the target checks derived from them (shared by run.ts and report.ts).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { RunResult } from './measure.js';
import { median, spread } from './measure.js';

export interface CorpusInfo { name: string; path: string; files: number; lines: number; bytes: number }

export interface Row {
  id: string;
  section: 'throughput' | 'scaling' | 'flatness' | 'bigfile' | 'latency';
  label: string;
  /** Exactly what was run, from the repo root (the first query shown; repeats rotate queries). */
  command: string;
  corpus: string;
  runs: RunResult[];
  medianWallMs: number;
  medianRssMb: number;
  /** Median user + system CPU seconds; cpu / wall near nproc means the threads got the cores. */
  medianCpuS: number;
  /** Median sampled CPU seconds of the main thread (walk, read, split, pack, rank). */
  medianMainCpuS: number;
  /** Worker threads the row asked for (-J), when it is a simgrep row. */
  workers?: number;
  /** Median sampled CPU seconds of the worker threads (the busiest `workers` other threads) and of the
   * rest (V8's compiler and GC helpers, libuv): how -J 2's CPU splits, for the scaling section. */
  medianWorkerCpuS?: number;
  medianBackgroundCpuS?: number;
  /** Median 1-minute load average at the start of the runs. */
  medianLoad: number;
  spread: number;
  linesPerSec: number;
  mbPerSec: number;
  /** Set when a run exited 2 or was killed: the figures are then not trustworthy. */
  error?: string;
}

export interface Check { target: string; measured: string; pass: boolean }

export interface BenchResults {
  mode: 'quick' | 'full';
  date: string;
  durationS: number;
  /** git HEAD (+ "dirty") and whether dist/ was rebuilt while the bench ran (rows would mix builds). */
  build: { commit: string; distChangedDuringRun: boolean };
  machine: { nproc: number; cpu: string; memGb: number; node: string; os: string; loadStart: number[]; loadEnd: number[]; rg: string };
  rssMethod: string;
  queries: string[];
  corpora: Record<string, CorpusInfo>;
  modelTableMb: number;
  python: string;
  rows: Row[];
  checks: Check[];
}

export const TARGETS = {
  linesPerSec: 250_000,
  /** Issue 4: one-shot search in the default (hybrid) mode. */
  defaultModeLinesPerSec: 200_000,
  scaling: 1.7,
  rssOverTableMb: 300,
  /** "Flat": the bigger tree's peak RSS within this factor of the 1M-line tree's. */
  flatFactor: 1.2,
  smallFileMs: 400,
};

/** MB = 10^6 bytes throughout; GNU time and VmHWM report KiB. */
export const kbToMb = (kb: number): number => (kb * 1024) / 1e6;

type Measured = 'medianWallMs' | 'medianRssMb' | 'medianCpuS' | 'medianMainCpuS' | 'medianWorkerCpuS' | 'medianBackgroundCpuS' | 'medianLoad' | 'spread' | 'linesPerSec' | 'mbPerSec';

export function summarize(row: Omit<Row, Measured>, corpus: CorpusInfo): Row {
  const walls = row.runs.map((r) => r.wallMs);
  const medianWallMs = median(walls);
  const bad = row.runs.find((r) => r.exitCode > 1);
  const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
  const split = row.workers === undefined ? {} : {
    medianWorkerCpuS: median(row.runs.map((r) => sum(r.threadCpuS.slice(0, row.workers)))),
    medianBackgroundCpuS: median(row.runs.map((r) => sum(r.threadCpuS.slice(row.workers)))),
  };
  return {
    ...row,
    ...split,
    medianWallMs,
    medianRssMb: kbToMb(median(row.runs.map((r) => r.peakRssKb))),
    medianCpuS: median(row.runs.map((r) => r.cpuS)),
    medianMainCpuS: median(row.runs.map((r) => r.mainCpuS)),
    medianLoad: median(row.runs.map((r) => r.load1)),
    spread: spread(walls),
    linesPerSec: corpus.lines / (medianWallMs / 1000),
    mbPerSec: corpus.bytes / 1e6 / (medianWallMs / 1000),
    ...(bad && { error: `exit ${bad.exitCode}: ${bad.stderrTail.trim().split('\n').slice(-3).join(' | ')}` }),
  };
}

const fmt = (n: number, digits = 0): string => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export function deriveChecks(r: BenchResults): Check[] {
  const row = (id: string) => r.rows.find((x) => x.id === id);
  const checks: Check[] = [];
  const ok = (x: Row | undefined): x is Row => x !== undefined && !x.error;
  const rssLimit = r.modelTableMb + TARGETS.rssOverTableMb;
  const best = ['static-j1', 'static-j2', 'semantic-j2', 'line-j2'].map(row).filter(ok).sort((a, b) => b.linesPerSec - a.linesPerSec)[0];
  if (best) checks.push({ target: `>= ${fmt(TARGETS.linesPerSec)} lines/s end to end, 1M-line tree (best static row)`, measured: `${fmt(best.linesPerSec)} lines/s (${best.label})`, pass: best.linesPerSec >= TARGETS.linesPerSec });
  const hybrid = row('static-j2');
  if (ok(hybrid)) checks.push({ target: `>= ${fmt(TARGETS.defaultModeLinesPerSec)} lines/s in the default (hybrid) mode, 1M-line tree, -J 2`, measured: `${fmt(hybrid.linesPerSec)} lines/s`, pass: hybrid.linesPerSec >= TARGETS.defaultModeLinesPerSec });
  const [j1, j2] = [row('scale-j1'), row('scale-j2')];
  if (ok(j1) && ok(j2)) {
    const ratios = pairRatios(j1, j2);
    const ratio = median(ratios);
    checks.push({ target: `2 workers >= ${TARGETS.scaling}x one worker (static, median of ${ratios.length} back-to-back pairs)`,
      measured: `${fmt(ratio, 2)}x (pairs ${fmt(Math.min(...ratios), 2)}x to ${fmt(Math.max(...ratios), 2)}x)`, pass: ratio >= TARGETS.scaling });
  }
  const rssRows = r.rows.filter((x) => ok(x) && x.workers !== undefined);
  if (rssRows.length) {
    const worst = rssRows.sort((a, b) => b.medianRssMb - a.medianRssMb)[0];
    checks.push({ target: `peak RSS <= model table (${fmt(r.modelTableMb, 1)} MB) + ${TARGETS.rssOverTableMb} MB = ${fmt(rssLimit, 1)} MB, every simgrep row`, measured: `worst ${fmt(worst.medianRssMb, 1)} MB (${worst.label}, ${worst.corpus})`, pass: worst.medianRssMb <= rssLimit });
  }
  const [base, grown] = [row('flat-1x'), row('flat-nx')];
  if (ok(base) && ok(grown)) {
    const factor = grown.medianRssMb / base.medianRssMb;
    const scale = r.corpora[grown.corpus].lines / r.corpora[base.corpus].lines;
    checks.push({ target: `peak RSS flat as the corpus grows ${fmt(scale)}x (<= ${TARGETS.flatFactor}x)`, measured: `${fmt(factor, 2)}x (${fmt(base.medianRssMb, 1)} -> ${fmt(grown.medianRssMb, 1)} MB)`, pass: factor <= TARGETS.flatFactor });
  }
  const big = row('big-static-j2');
  if (ok(big)) checks.push({ target: `huge single file streamed: peak RSS <= ${fmt(rssLimit, 1)} MB`, measured: `${fmt(big.medianRssMb, 1)} MB over ${fmt(r.corpora[big.corpus].bytes / 1e6)} MB`, pass: big.medianRssMb <= rssLimit });
  for (const id of ['latency-default', 'latency-bench']) {
    const x = row(id);
    if (ok(x)) checks.push({ target: `one small file <= ${TARGETS.smallFileMs} ms wall (${x.label})`, measured: `${fmt(x.medianWallMs)} ms`, pass: x.medianWallMs <= TARGETS.smallFileMs });
  }
  for (const x of r.rows) if (x.error) checks.push({ target: `${x.label} on ${x.corpus} runs without error`, measured: x.error, pass: false });
  return checks;
}

/** Wall of a over wall of b, per repeat: runs of one repeat ran back to back, under the same host speed. */
export function pairRatios(a: Row, b: Row): number[] {
  return a.runs.map((r, i) => r.wallMs / b.runs[i].wallMs).filter((x) => Number.isFinite(x));
}

export { fmt };

/** Puts one harness's section into bench/RESULTS.md between its markers (`<!-- name:begin ... -->` ... `<!-- name:end -->`), replacing the last one. */
export function writeResultsSection(file: string, name: string, md: string): void {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const re = new RegExp(`<!-- ${name}:begin[\\s\\S]*?<!-- ${name}:end -->\\n?`);
  writeFileSync(file, re.test(text) ? text.replace(re, () => md) : `${text.trimEnd()}\n\n${md}`);
}

/** Writes the throughput report (bench/run.ts) in front of the sections the other harnesses wrote into
 * the same file (each between its begin and end markers): a throughput run must not drop them. */
export function writeMainReport(file: string, md: string): void {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const sections = text.match(/<!-- [a-z-]+:begin[\s\S]*?<!-- [a-z-]+:end -->\n?/g) ?? [];
  writeFileSync(file, [md.trimEnd(), ...sections.map((s) => s.trimEnd())].join('\n\n') + '\n');
}

/** --quick and --repeats N, as every harness takes them. */
export function benchArgs(argv = process.argv.slice(2)): { quick: boolean; repeats: (full: number) => number } {
  const quick = argv.includes('--quick');
  const at = argv.indexOf('--repeats');
  return { quick, repeats: (full) => (at >= 0 ? Number(argv[at + 1]) : quick ? 1 : full) };
}
