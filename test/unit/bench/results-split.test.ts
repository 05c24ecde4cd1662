import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../../bench/measure.js';
import { pairRatios, summarize } from '../../../bench/results.js';

const run = (wallMs: number, mainCpuS: number, threadCpuS: number[]): RunResult => ({
  wallMs, peakRssKb: 1000, cpuS: mainCpuS + threadCpuS.reduce((a, b) => a + b, 0), mainCpuS, threadCpuS,
  load1: 0, exitCode: 0, stdoutBytes: 10, stderrTail: '',
});
const corpus = { name: 'c', path: 'c', files: 1, lines: 1000, bytes: 1000 };
const row = (workers: number | undefined, runs: RunResult[]) =>
  summarize({ id: 'x', section: 'throughput', label: 'x', command: 'x', corpus: 'c', workers, runs }, corpus);

describe('bench CPU split by thread', () => {
  it('the -J busiest threads besides the main one are the workers; the rest is background', () => {
    const r = row(2, [run(1000, 0.5, [2, 1.9, 0.3, 0.2, 0.1])]);
    expect(r.medianWorkerCpuS).toBeCloseTo(3.9, 12);
    expect(r.medianBackgroundCpuS).toBeCloseTo(0.6, 12);
    expect(r.medianMainCpuS).toBe(0.5);
  });

  it('each part is a median over the runs, taken per run', () => {
    const r = row(1, [run(1000, 0.5, [3, 1]), run(1000, 0.6, [4, 0.2]), run(1000, 0.7, [5, 0.5])]);
    expect(r.medianWorkerCpuS).toBe(4);
    expect(r.medianBackgroundCpuS).toBe(0.5);
  });

  it('rows that are not simgrep runs (no -J) have no split', () => {
    const r = row(undefined, [run(1000, 0.5, [1, 1])]);
    expect(r.medianWorkerCpuS).toBeUndefined();
    expect(r.medianBackgroundCpuS).toBeUndefined();
  });
});

describe('bench scaling ratios', () => {
  it('are taken within each round, not between medians', () => {
    // Host speed drifts: round 2 ran both configs 2x slower. Per-round ratios stay 2x; medians would not.
    const j1 = row(1, [run(4000, 0, [4]), run(8000, 0, [8]), run(4200, 0, [4])]);
    const j2 = row(2, [run(2000, 0, [2, 2]), run(4000, 0, [4, 4]), run(2100, 0, [2, 2])]);
    expect(pairRatios(j1, j2)).toEqual([2, 2, 2]);
  });
});
