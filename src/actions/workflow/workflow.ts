// Runs a YAML agent with The Edge Agent's semantics (its StateGraph.invoke): from __start__, each node's
// update merges into the state, then the first route out of it that holds is taken; none holding is an
// error ("No valid next node found from node 'x'"), as in TEA. Parallel edges run their branches on
// copies of the state up to the fan-in node, which sees them as state.parallel_results. A failure stops
// the run with a WorkflowRunError that names the node and carries the state reached.
import { SimgrepError } from '../../errors.js';
import { createActionEngine, type ActionEngine, type ActionEngineOptions } from '../engine.js';
import { createActions, type Action } from '../registry.js';
import { createFileActions } from './file-actions.js';
import { createMemoryActions } from './memory-actions.js';
import { cloneValue } from './py-float.js';
import { nodeFunction, templateContext, type NodeDeps, type NodeFunction } from './node-functions.js';
import { buildGraph, type Graph } from './workflow-graph.js';
import { templateEnv } from './workflow-env.js';
import { END, START, isDict, parseWorkflow, type Dict, type Workflow } from './workflow-parse.js';

export { END, START, parseWorkflow, type Workflow };
const MAX_STEPS = 10_000;
const DEFAULT_CODE_TIMEOUT_MS = 120_000;

export interface RunOptions {
  /** Merged over the workflow's initial_state. */
  state?: Dict;
  /** Engine to use (shared model); by default one is made from settings.rag and closed at the end. */
  engine?: ActionEngine;
  engineOptions?: ActionEngineOptions;
  /** Environment variables the user allows beside the declared ones (`simgrep run --env`). */
  allowEnv?: readonly string[];
  /** Where `env` values come from (default: process.env). */
  environment?: NodeJS.ProcessEnv;
  /** The time limit of one inline `run:` block (default 120 s). */
  codeTimeoutMs?: number;
  /** Where file.read / file.write are confined (default: the working directory). */
  fileRoot?: string;
  /** Called after every node with its name and update. */
  onNode?: (name: string, update: unknown) => void;
}

/** A node failed mid-run: the message names it; `state` is the state reached before it. */
export class WorkflowRunError extends SimgrepError {
  readonly node: string;
  readonly state: Dict;
  constructor(node: string, message: string, state: Dict, cause?: unknown) {
    super('BAD_FLAG', message, { cause });
    this.node = node;
    this.state = state;
  }
}

interface Run { graph: Graph; fns: Map<string, NodeFunction | null>; deps: NodeDeps; onNode?: RunOptions['onNode'] }

/** Runs a workflow to its end and returns the final state. Action failures are results in state. */
export async function runWorkflow(wf: Workflow, o: RunOptions = {}): Promise<Dict> {
  const engine = o.engine ?? createActionEngine({ ...engineOptionsFrom(wf.settings), ...o.engineOptions });
  const actions: Record<string, Action> = { ...createActions(engine), ...createFileActions(o.fileRoot), ...createMemoryActions() };
  const deps: NodeDeps = { wf, actions, env: templateEnv(wf.env, o.allowEnv ?? [], o.environment), codeTimeoutMs: o.codeTimeoutMs ?? DEFAULT_CODE_TIMEOUT_MS };
  const run: Run = { graph: buildGraph(wf), fns: new Map(wf.nodes.map((n) => [n.name, nodeFunction(n, deps)])), deps, onNode: o.onNode };
  const state: Dict = { ...wf.initialState, ...o.state };
  try {
    await invoke(run, state);
    return state;
  } finally {
    if (!o.engine) await engine.close();
  }
}

async function invoke(run: Run, state: Dict): Promise<void> {
  const pending = new Map<string, Dict[]>();
  let current = START;
  let joined = false;
  for (let steps = 0; current !== END; steps++) {
    if (steps >= MAX_STEPS) throw new WorkflowRunError(current, `the workflow ran ${MAX_STEPS} steps without reaching ${END}; check its goto/edges for an endless loop`, state);
    await runNode(run, current, state);
    const routes = run.graph.get(current) ?? [];
    if (joined) {
      // TEA leaves a fan-in node by its first route that holds, a parallel edge taken as a plain one
      // (StateGraph.invoke's _get_next_node after a join): it starts no branches from there.
      joined = false;
      current = pick(run, current, routes, state, '');
      continue;
    }
    for (const r of routes.filter((x) => x.fanIn !== undefined)) {
      const results = pending.get(r.fanIn!) ?? [];
      results.push(await branch(run, r.to, r.fanIn!, cloneValue(state)));
      pending.set(r.fanIn!, results);
    }
    const normal = routes.filter((x) => x.fanIn === undefined);
    if (normal.length > 0) {
      current = pick(run, current, normal, state, '');
    } else if (pending.size > 0) {
      // TEA joins at the first fan-in node registered; the fan-in node sees the branches' results.
      const [fanIn, results] = pending.entries().next().value as [string, Dict[]];
      pending.delete(fanIn);
      state.parallel_results = results;
      current = fanIn;
      joined = true;
    } else {
      throw new WorkflowRunError(current, `No valid next node found from node '${current}'`, state);
    }
  }
}

/** One branch of a parallel edge, on its own copy of the state, up to its fan-in node. */
async function branch(run: Run, start: string, fanIn: string, state: Dict): Promise<Dict> {
  const t0 = performance.now();
  let current = start;
  for (let steps = 0; current !== END && current !== fanIn; steps++) {
    if (steps >= MAX_STEPS) throw new WorkflowRunError(current, `the parallel branch from ${start} ran ${MAX_STEPS} steps without reaching ${fanIn}`, state);
    await runNode(run, current, state);
    current = pick(run, current, run.graph.get(current) ?? [], state, ' in parallel flow');
  }
  return { branch: start, success: true, state, error: null, error_type: null, traceback: null, timeout: false, timing_ms: performance.now() - t0, retry_count: 0, circuit_state: null, attempt_errors: [], exit_code: null };
}

async function runNode(run: Run, name: string, state: Dict): Promise<void> {
  const fn = run.fns.get(name);
  if (!fn) return;
  let update: Dict;
  try { update = await fn(state); } catch (e) {
    const msg = (e as Error).message;
    throw new WorkflowRunError(name, msg.startsWith(`node ${name}:`) ? msg : `node ${name}: ${msg}`, { ...state }, e);
  }
  Object.assign(state, update);
  run.onNode?.(name, update);
}

function pick(run: Run, from: string, routes: Graph extends Map<string, infer R> ? R : never, state: Dict, where: string): string {
  const ctx = templateContext(run.deps, state);
  let chosen: string | undefined;
  try { chosen = routes.find((r) => r.holds === undefined || r.holds(ctx))?.to; } catch (e) {
    throw new WorkflowRunError(from, `node ${from}: choosing the next node: ${(e as Error).message}`, state, e);
  }
  if (chosen === undefined) throw new WorkflowRunError(from, `No valid next node found from node '${from}'${where}`, state);
  return chosen;
}

/** settings.rag picks the model and where vector collections live. */
export function engineOptionsFrom(settings: Dict): ActionEngineOptions {
  const rag = isDict(settings.rag) ? settings.rag : {};
  const provider = rag.embedding_provider;
  if (provider !== undefined && !['model2vec', 'simgrep', 'local'].includes(String(provider))) {
    throw new SimgrepError('BAD_FLAG', `settings.rag.embedding_provider ${String(provider)} is not supported: simgrep embeds locally with model2vec (use model2vec, or drop the key)`);
  }
  const store = rag.vector_store ?? 'lancedb';
  if (store !== 'lancedb' && store !== 'memory') throw new SimgrepError('BAD_FLAG', `settings.rag.vector_store ${String(store)} is not supported: use lancedb (default) or memory`);
  const dir = rag.lancedb_path ?? rag.path;
  return {
    model: typeof rag.embedding_model === 'string' ? rag.embedding_model : undefined,
    collectionsDir: store === 'memory' ? 'memory' : typeof dir === 'string' ? dir : undefined,
  };
}
