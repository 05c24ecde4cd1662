// Runs an inline `run:` block in a python3 subprocess (python-driver.ts), with JSON in and out and a
// time limit. The block's calls to actions["ns.name"](...) come back over the same pipe and run in this
// process's action table, so a workflow loads its model once whatever mix of code and actions it has.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { SimgrepError } from '../../errors.js';
import type { Action } from '../registry.js';
import { MEMORY_ACTION_NAMES } from './memory-actions.js';
import { plainValue } from './py-float.js';
import { pyJsonDumps, pyJsonParse } from './py-json.js';
import { PYTHON_DRIVER } from './python-driver.js';

type Dict = Record<string, unknown>;

export interface InlinePythonJob {
  node: string;
  code: string;
  state: Dict;
  variables: Dict;
  settings: Dict;
  data: Dict;
  actions: Record<string, Action>;
  timeoutMs: number;
  /** The interpreter (default: python3, or $SIMGREP_PYTHON). */
  python?: string;
}

interface Reply { call?: string; id?: number; state?: Dict; params?: Dict; done?: unknown; error?: string; traceback?: string }

/** What a block gave back: its result, and the state as the block left it (changed in place or not). */
export interface InlineOutcome { result: unknown; state: Dict }

/** The block's result (what TEA's run_inline returns: any JSON value; the caller checks it is a dict) and state. */
export function runInlinePython(job: InlinePythonJob): Promise<InlineOutcome> {
  const python = job.python ?? process.env.SIMGREP_PYTHON ?? 'python3';
  return new Promise((resolve, reject) => {
    const child = spawn(python, ['-c', PYTHON_DRIVER], { stdio: ['pipe', 'pipe', 'inherit'] });
    let settled = false;
    const finish = (err: Error | null, value?: InlineOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (child.exitCode === null) child.kill('SIGKILL');
      if (err) reject(err); else resolve(value!);
    };
    const timer = setTimeout(() => finish(new SimgrepError('BAD_FLAG', `node ${job.node}: the run: block ran longer than ${job.timeoutMs / 1000} s and was stopped (raise the limit with --code-timeout SECONDS)`)), job.timeoutMs);
    child.on('error', (e: NodeJS.ErrnoException) => {
      finish(new SimgrepError('BAD_FLAG', e.code === 'ENOENT'
        ? `node ${job.node}: inline run: code is Python and needs ${python} on the PATH (install Python 3, or set SIMGREP_PYTHON to an interpreter)`
        : `node ${job.node}: cannot start ${python} (${e.message})`));
    });
    child.stdin.on('error', () => { /* the child died; its exit reports it */ });
    child.on('close', (code, signal) => finish(new SimgrepError('BAD_FLAG', `node ${job.node}: python exited (${signal ?? `code ${code}`}) before the run: block finished`)));
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      let msg: Reply;
      // Python's json: 2.0 stays a float, and inf (Infinity) is read, not refused.
      try { msg = pyJsonParse(line) as Reply; } catch { return finish(new SimgrepError('INTERNAL', `node ${job.node}: unreadable reply from the python driver: ${line.slice(0, 200)}`)); }
      if (msg.call !== undefined) { void answer(msg); return; }
      if (msg.error !== undefined) return finish(new SimgrepError('BAD_FLAG', `node ${job.node}: the run: block failed: ${msg.error}${msg.traceback ? `\n${msg.traceback.trimEnd()}` : ''}`));
      finish(null, { result: msg.done, state: msg.state ?? job.state });
    });
    const answer = async (msg: Reply) => {
      const action = Object.hasOwn(job.actions, msg.call!) ? job.actions[msg.call!] : undefined;
      const reply = action
        ? { id: msg.id, result: await action(plainValue(msg.state ?? {}) as Dict, (MEMORY_ACTION_NAMES.includes(msg.call!) ? msg.params ?? {} : plainValue(msg.params ?? {})) as Dict) }
        : { id: msg.id, error: `unknown action "${msg.call}"` };
      if (!settled) child.stdin.write(`${pyJsonDumps(reply)}\n`);
    };
    child.stdin.write(`${pyJsonDumps({ node: job.node, code: job.code, state: job.state, variables: job.variables, settings: job.settings, data: job.data, actions: Object.keys(job.actions) })}\n`);
  });
}
