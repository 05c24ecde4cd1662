// What a node does when it runs, as The Edge Agent's NodeFactory builds it (yaml_nodes.py): inline
// Python (`run:`/`script:`), an action (`uses:` + `with:`, its result shaped by `output:`), a list of
// `steps:`, or a `while_loop` over a body. Each returns the update that merges into the state.
import { SimgrepError } from '../../errors.js';
import type { Action } from '../registry.js';
import { runInlinePython } from './inline-python.js';
import { MEMORY_ACTION_NAMES } from './memory-actions.js';
import { plainValue } from './py-float.js';
import { condition, renderString, renderValue, type TemplateContext } from './templates.js';
import { isDict, type Dict, type NodeConfig, type Workflow } from './workflow-parse.js';

export interface NodeDeps {
  wf: Workflow;
  actions: Record<string, Action>;
  /** The `env` templates see (declared variables only). */
  env: Readonly<Record<string, unknown>>;
  codeTimeoutMs: number;
}

export type NodeFunction = (state: Dict) => Promise<Dict>;

/** The template context TEA gives a node: state, variables, settings, data, env (+ extra, e.g. result). */
export function templateContext(deps: NodeDeps, state: Dict, extra: Dict = {}): TemplateContext {
  const { wf, env } = deps;
  return { state, variables: wf.variables, settings: wf.settings, data: wf.data, env, secrets: {}, checkpoint: { dir: '', last: '' }, ...extra };
}

/** The node's function, or null when it does nothing (routing only). */
export function nodeFunction(node: NodeConfig, deps: NodeDeps): NodeFunction | null {
  if (node.type === 'while_loop') return whileLoop(node, deps);
  const code = typeof node.run === 'string' ? node.run : typeof node.script === 'string' ? node.script : undefined;
  if (code !== undefined) return (state) => inline(node.name, code, state, deps);
  const uses = (node.uses ?? node.action) as string | undefined;
  if (uses !== undefined) return (state) => action(node, uses, state, deps);
  if (Array.isArray(node.steps)) return steps(node.steps as Dict[], deps);
  return null;
}

async function inline(name: string, code: string, state: Dict, deps: NodeDeps): Promise<Dict> {
  // TEA renders the code as a template first ({{ }} and ${name} in the source are replaced).
  const processed = renderString(code, templateContext(deps, state));
  const { result, state: after } = await runInlinePython({
    node: name, code: String(processed), state, variables: deps.wf.variables, settings: deps.wf.settings, data: deps.wf.data,
    actions: deps.actions, timeoutMs: deps.codeTimeoutMs,
  });
  // TEA's block gets the state itself: its in-place changes stay, then the result merges over them.
  for (const k of Object.keys(state)) if (!Object.hasOwn(after, k)) delete state[k];
  Object.assign(state, after);
  if (!isDict(result)) throw new SimgrepError('BAD_FLAG', `node ${name}: the run: block returned ${result === null ? 'None' : `a ${Array.isArray(result) ? 'list' : typeof result}`}, not a dict (its result merges into the state)`);
  return result;
}

async function action(node: NodeConfig, uses: string, state: Dict, deps: NodeDeps): Promise<Dict> {
  const act = deps.actions[uses];
  const params = (renderValue(node.with ?? {}, templateContext(deps, state)) ?? {}) as Dict;
  // Actions see plain numbers: a float's box (py-float.ts) is for templates and the printed state, and
  // for what memory.store keeps.
  const keep = MEMORY_ACTION_NAMES.includes(uses);
  const result: unknown = await act(plainValue(state) as Dict, (keep ? params : plainValue(params)) as Dict);
  const output = node.output ?? node.output_key;
  if (output === undefined || output === null) return isDict(result) ? result : { result };
  if (typeof output === 'string') return { [output]: result };
  // output: {key: "{{ result.x }}"}: each template sees the action's result; None becomes "" (as in TEA).
  const ctx = templateContext(deps, state, { result });
  const out: Dict = {};
  for (const [k, t] of Object.entries(output as Dict)) {
    if (typeof t !== 'string') { out[k] = t; continue; }
    const v = renderString(t, ctx);
    out[k] = v === null || v === undefined ? '' : v;
  }
  return out;
}

function steps(list: Dict[], deps: NodeDeps): NodeFunction {
  const fns = list.map((s, i) => nodeFunction({ ...s, name: typeof s.name === 'string' ? s.name : `step_${i}` } as NodeConfig, deps));
  return async (state) => {
    const current = { ...state };
    for (const fn of fns) if (fn) Object.assign(current, await fn(current));
    return current;
  };
}

function whileLoop(node: NodeConfig, deps: NodeDeps): NodeFunction {
  const body = (node.body as Dict[]).map((b, i) => {
    const name = typeof b.name === 'string' ? b.name : `body_${i}`;
    return { name, fn: nodeFunction({ ...b, name } as NodeConfig, deps) };
  });
  const max = node.max_iterations as number;
  return async (state) => {
    const current = { ...state };
    for (let iteration = 0; iteration < max; iteration++) {
      if (!condition(node.condition, templateContext(deps, current))) break;
      for (const { name, fn } of body) {
        if (!fn) continue;
        try { Object.assign(current, await fn(current)); } catch (e) {
          throw new SimgrepError('BAD_FLAG', `while_loop ${node.name}, body node ${name}, iteration ${iteration}: ${(e as Error).message}`, { cause: e });
        }
      }
    }
    return current;
  };
}
