// Runs a YAML agent with The Edge Agent's semantics, for the subset the seeds use: `nodes` in order
// unless `goto` or `edges` route elsewhere; a node's `uses` comes from the one action table, its
// `with` is rendered with Jinja2 (state, variables, settings, and `env`: only the variables the workflow
// declares or the user allows) and its result merges into state (or lands under `output`). What TEA does but this runner does not (inline `run:` code, parallel
// edges, checkpoints, ...) fails up front with a message that says so.
import { parse as parseYaml } from 'yaml';
import { SimgrepError } from '../../errors.js';
import { createActionEngine, type ActionEngine, type ActionEngineOptions } from '../engine.js';
import { createActions, runAction, type ActionResult } from '../registry.js';
import { condition, renderValue, type TemplateContext } from './templates.js';
import { parseEnvDeclaration, templateEnv, type EnvDeclaration } from './workflow-env.js';

export const START = '__start__';
export const END = '__end__';
const MAX_STEPS = 10_000;

type Dict = Record<string, unknown>;

interface NodeSpec { name: string; uses?: string; with?: Dict; output?: string; goto?: string | { if?: unknown; to: string }[] }
interface EdgeSpec { from: string; to: string; when?: unknown }

export interface Workflow {
  name?: string;
  variables: Dict;
  settings: Dict;
  initialState: Dict;
  /** The environment variables its templates may read (top-level `env:`). */
  env: EnvDeclaration;
  nodes: NodeSpec[];
  edges: EdgeSpec[];
}

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
  /** Called after every node with its name and result. */
  onNode?: (name: string, result: unknown) => void;
}

const UNSUPPORTED_NODE_KEYS: Record<string, string> = {
  run: 'inline code (`run:`) is Python in TEA and is not run here; use an action (`uses:`) and route with `when:`/`goto`',
  script: 'inline scripts (`script:`) are not supported; use an action (`uses:`)',
  steps: 'multi-step nodes (`steps:`) are not supported; split them into nodes',
  fan_in: 'parallel fan-in nodes are not supported',
  parallel: 'parallel nodes are not supported',
  language: 'inline code in other languages is not supported',
  while: 'while-loops are not supported; loop with a conditional `goto`',
};
const NODE_KEYS = new Set(['name', 'uses', 'action', 'with', 'output', 'goto', 'description']);
const TOP_KEYS = new Set(['name', 'description', 'version', 'state_schema', 'variables', 'settings', 'initial_state', 'env', 'nodes', 'edges', 'config']);

/** Parses and checks a workflow; anything it cannot run is an error naming the node and the feature. */
export function parseWorkflow(text: string, file = 'workflow'): Workflow {
  let doc: unknown;
  try { doc = parseYaml(text); } catch (e) { throw new SimgrepError('BAD_FLAG', `${file}: not valid YAML: ${(e as Error).message}`); }
  if (!isDict(doc)) throw new SimgrepError('BAD_FLAG', `${file}: a workflow is a YAML mapping with a nodes: list`);
  for (const k of Object.keys(doc)) {
    if (!TOP_KEYS.has(k)) throw new SimgrepError('BAD_FLAG', `${file}: top-level key "${k}" is not supported by simgrep run (supported: ${[...TOP_KEYS].join(', ')})`);
  }
  if (!Array.isArray(doc.nodes) || doc.nodes.length === 0) throw new SimgrepError('BAD_FLAG', `${file}: nodes: must be a non-empty list`);
  const nodes = doc.nodes.map((n, i) => checkNode(n, i, file));
  const names = new Set<string>();
  for (const n of nodes) {
    if (names.has(n.name)) throw new SimgrepError('BAD_FLAG', `${file}: two nodes are named "${n.name}"`);
    names.add(n.name);
  }
  const edges = (doc.edges === undefined ? [] : Array.isArray(doc.edges) ? doc.edges : [null]).map((e, i) => checkEdge(e, i, file, names));
  for (const n of nodes) for (const to of gotoTargets(n)) {
    if (to !== END && !names.has(to)) throw new SimgrepError('BAD_FLAG', `${file}: node ${n.name} goes to "${to}", which is not a node`);
  }
  return {
    name: typeof doc.name === 'string' ? doc.name : undefined,
    variables: optionalDict(doc.variables, 'variables', file),
    settings: optionalDict(doc.settings, 'settings', file),
    initialState: optionalDict(doc.initial_state, 'initial_state', file),
    env: parseEnvDeclaration(doc.env, file),
    nodes,
    edges,
  };
}

function checkNode(n: unknown, i: number, file: string): NodeSpec {
  if (!isDict(n) || typeof n.name !== 'string' || n.name === '') throw new SimgrepError('BAD_FLAG', `${file}: node #${i + 1} needs a name`);
  for (const k of Object.keys(n)) {
    if (UNSUPPORTED_NODE_KEYS[k]) throw new SimgrepError('BAD_FLAG', `${file}: node ${n.name}: ${UNSUPPORTED_NODE_KEYS[k]}`);
    if (!NODE_KEYS.has(k)) throw new SimgrepError('BAD_FLAG', `${file}: node ${n.name}: key "${k}" is not supported by simgrep run`);
  }
  const uses = n.uses ?? n.action;
  if (uses !== undefined && typeof uses !== 'string') throw new SimgrepError('BAD_FLAG', `${file}: node ${n.name}: uses must be an action name`);
  if (n.with !== undefined && !isDict(n.with)) throw new SimgrepError('BAD_FLAG', `${file}: node ${n.name}: with must be a mapping`);
  if (n.output !== undefined && typeof n.output !== 'string') throw new SimgrepError('BAD_FLAG', `${file}: node ${n.name}: output must be a state key`);
  const goto = n.goto;
  if (goto !== undefined && typeof goto !== 'string' && !(Array.isArray(goto) && goto.every((g) => isDict(g) && typeof g.to === 'string'))) {
    throw new SimgrepError('BAD_FLAG', `${file}: node ${n.name}: goto must be a node name or a list of {if, to} rules`);
  }
  return { name: n.name, uses: uses as string | undefined, with: n.with as Dict | undefined, output: n.output as string | undefined, goto: goto as NodeSpec['goto'] };
}

function checkEdge(e: unknown, i: number, file: string, names: Set<string>): EdgeSpec {
  if (!isDict(e) || typeof e.from !== 'string' || typeof e.to !== 'string') throw new SimgrepError('BAD_FLAG', `${file}: edge #${i + 1} needs from: and to:`);
  if (e.type === 'parallel' || e.fan_in !== undefined) throw new SimgrepError('BAD_FLAG', `${file}: edge ${e.from} -> ${e.to}: parallel edges are not supported by simgrep run`);
  if (e.condition !== undefined) throw new SimgrepError('BAD_FLAG', `${file}: edge ${e.from} -> ${e.to}: condition: blocks are not supported; write the test as when: "<jinja expression>"`);
  if (e.from !== START && !names.has(e.from)) throw new SimgrepError('BAD_FLAG', `${file}: edge from "${e.from}", which is not a node`);
  if (e.to !== END && !names.has(e.to)) throw new SimgrepError('BAD_FLAG', `${file}: edge to "${e.to}", which is not a node`);
  return { from: e.from, to: e.to, when: e.when };
}

/** Runs a workflow to its end and returns the final state. Action failures are results in state. */
export async function runWorkflow(wf: Workflow, o: RunOptions = {}): Promise<Dict> {
  const engine = o.engine ?? createActionEngine({ ...engineOptionsFrom(wf.settings), ...o.engineOptions });
  const actions = createActions(engine);
  const byName = new Map(wf.nodes.map((n, i) => [n.name, i]));
  let state: Dict = { ...wf.initialState, ...o.state };
  const env = templateEnv(wf.env, o.allowEnv ?? [], o.environment);
  const ctx = (): TemplateContext => ({ state, variables: wf.variables, settings: wf.settings, env });
  try {
    let current = firstNode(wf, ctx());
    for (let steps = 0; current !== END; steps++) {
      if (steps >= MAX_STEPS) throw new SimgrepError('BAD_FLAG', `the workflow ran ${MAX_STEPS} steps without reaching ${END}; check its goto/edges for an endless loop`);
      const node = wf.nodes[byName.get(current)!];
      if (node.uses !== undefined) {
        const params = (renderValue(node.with ?? {}, ctx()) ?? {}) as Dict;
        const result: ActionResult = await runAction(actions, node.uses, state, params);
        if (result.error_type === 'unknown_action') throw new SimgrepError('BAD_FLAG', `node ${node.name}: ${result.error as string}`);
        state = node.output !== undefined ? { ...state, [node.output]: result } : { ...state, ...result };
        o.onNode?.(node.name, result);
      }
      current = nextNode(wf, node, byName.get(current)!, ctx());
    }
    return state;
  } finally {
    if (!o.engine) await engine.close();
  }
}

function firstNode(wf: Workflow, ctx: TemplateContext): string {
  const start = wf.edges.filter((e) => e.from === START);
  if (start.length === 0) return wf.nodes[0].name;
  return start.find((e) => e.when === undefined || condition(e.when, ctx))?.to ?? END;
}

/** goto first, then edges from the node, then the next node in the list. */
function nextNode(wf: Workflow, node: NodeSpec, index: number, ctx: TemplateContext): string {
  if (typeof node.goto === 'string') return node.goto;
  if (Array.isArray(node.goto)) return node.goto.find((g) => g.if === undefined || condition(g.if, ctx))?.to ?? END;
  const out = wf.edges.filter((e) => e.from === node.name);
  if (out.length > 0) return out.find((e) => e.when === undefined || condition(e.when, ctx))?.to ?? END;
  return wf.nodes[index + 1]?.name ?? END;
}

function gotoTargets(n: NodeSpec): string[] {
  if (typeof n.goto === 'string') return [n.goto];
  return Array.isArray(n.goto) ? n.goto.map((g) => g.to) : [];
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

function isDict(v: unknown): v is Dict {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function optionalDict(v: unknown, key: string, file: string): Dict {
  if (v === undefined || v === null) return {};
  if (!isDict(v)) throw new SimgrepError('BAD_FLAG', `${file}: ${key}: must be a mapping`);
  return v;
}
