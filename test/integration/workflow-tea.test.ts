// simgrep run against The Edge Agent's own engine: each workflow in fixtures/tea-workflows/ (written for
// simgrep's tests, inline Python and file actions only, so no model is loaded) runs in-process and must
// end in the final state TEA 0.9.105's Python engine produced for it (YAMLEngine().load_from_file(f)
// .invoke(INPUT), via bench/tea-diff/tea-final-state.py); the states below are TEA's output, pasted.
// timing_ms, the one field that differs run to run, is left out of the comparison.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseWorkflow, runWorkflow, WorkflowRunError } from '../../src/actions/workflow/workflow.js';
import { repoRoot } from '../helpers/shared.js';

const hasPython = spawnSync('python3', ['--version']).status === 0;
const INPUT = { items: [1, 2, 3], q: 'hello', i: 0 };
const dir = path.join(repoRoot, 'fixtures/tea-workflows');
const root = mkdtempSync(path.join(tmpdir(), 'simgrep-tea-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const base = { items: [1, 2, 3], q: 'hello', i: 0 };
const TEA_FINAL: Record<string, Record<string, unknown>> = {
  'goto.yaml': { ...base, n: 3, final: 3 },
  // Regression (issue 29 differential check): a block's in-place changes to state were lost.
  'mutate.yaml': { items: [1, 2, 3], i: 0, ticks: 2, last: 'tick 2', summary: 'tick 2 after 2 ticks' },
  'inline.yaml': { ...base, count: 3, over: true, label: '2', doubled: [2, 4, 6], status: 'big', missing: null },
  'loop.yaml': { ...base, i: 3, seen: [0, 1, 2], done: 3 },
  'routing.yaml': { ...base, has_results: true, escalate: false, route: 'found', summary: 'found/None' },
  'templates.yaml': { ...base, path: 'out/world.txt', success: true, text: 'hello world, topic=None, flag=None, n=3, first=red, world', ok: true, absent: '' },
  // Regression (issue 29 differential check, parallel_strategies_demo.yaml): simgrep started branches
  // from a fan-in node; TEA follows its first edge as a plain one.
  'fanin-exit.yaml': {
    ...base, round: 2, first: ['a', 'b'], c: 60, second: ['a', 'b'], seen: ['c'],
    parallel_results: [
      { branch: 'a', success: true, state: { ...base, round: 1, a: 10 }, error: null, error_type: null, traceback: null, timeout: false, retry_count: 0, circuit_state: null, attempt_errors: [], exit_code: null },
      { branch: 'b', success: true, state: { ...base, round: 1, b: 20 }, error: null, error_type: null, traceback: null, timeout: false, retry_count: 0, circuit_state: null, attempt_errors: [], exit_code: null },
    ],
  },
  'parallel.yaml': {
    ...base, base: 10,
    parallel_results: [
      { branch: 'left', success: true, state: { ...base, base: 10, left: 11 }, error: null, error_type: null, traceback: null, timeout: false, retry_count: 0, circuit_state: null, attempt_errors: [], exit_code: null },
      { branch: 'right', success: true, state: { ...base, base: 10, right: 12 }, error: null, error_type: null, traceback: null, timeout: false, retry_count: 0, circuit_state: null, attempt_errors: [], exit_code: null },
    ],
    got: [11, 12], node_name: 'join', branches: ['left', 'right'], sum: 23, left_seen: false,
  },
};

function withoutTiming(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutTiming);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'timing_ms').map(([k, x]) => [k, withoutTiming(x)]));
  return v;
}

async function run(file: string, extra: Parameters<typeof runWorkflow>[1] = {}) {
  const wf = parseWorkflow(readFileSync(path.join(dir, file), 'utf8'), file);
  return runWorkflow(wf, { state: structuredClone(INPUT), fileRoot: root, engineOptions: { concurrency: 0, collectionsDir: 'memory' }, ...extra });
}

describe.skipIf(!hasPython)('simgrep run ends where The Edge Agent ends', () => {
  it.each(Object.keys(TEA_FINAL))('%s', async (file) => {
    expect(withoutTiming(await run(file))).toEqual(TEA_FINAL[file]);
  }, 60_000);

  it('novalid.yaml: no edge holds -> TEA\'s "No valid next node found from node \'a\'" with the state reached', async () => {
    const err = await run('novalid.yaml').then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(WorkflowRunError);
    expect((err as WorkflowRunError).message).toBe("No valid next node found from node 'a'");
    expect((err as WorkflowRunError).node).toBe('a');
    expect((err as WorkflowRunError).state).toEqual({ ...base, x: 1 });
  }, 60_000);
});
