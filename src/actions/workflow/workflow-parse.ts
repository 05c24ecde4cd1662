// Reads a YAML workflow into its parts and refuses up front, naming the node, what this runner cannot
// do the way The Edge Agent does: inline code in other languages than Python, actions that need an
// outside service, node types TEA runs with machinery simgrep has not (dynamic parallel, matrices).
import { parse as parseYaml, type ScalarTag, type Tags } from 'yaml';
import { SimgrepError } from '../../errors.js';
import { ACTION_NAMES } from '../registry.js';
import { FILE_ACTION_NAMES } from './file-actions.js';
import { MEMORY_ACTION_NAMES } from './memory-actions.js';
import { plainValue, pyFloat } from './py-float.js';
import { parseEnvDeclaration, type EnvDeclaration } from './workflow-env.js';

export const START = '__start__';
export const END = '__end__';

export type Dict = Record<string, unknown>;

/** A node as written (TEA's keys); checked by checkNode. */
export type NodeConfig = Dict & { name: string };

export interface Workflow {
  name?: string;
  variables: Dict;
  settings: Dict;
  initialState: Dict;
  /** Top-level `data:`, read in templates as `data`. */
  data: Dict;
  /** The environment variables its templates may read (top-level `env:`). */
  env: EnvDeclaration;
  nodes: NodeConfig[];
  edges: Dict[];
}

const TOP_KEYS = new Set(['name', 'description', 'version', 'state_schema', 'variables', 'settings', 'initial_state', 'env', 'nodes', 'edges', 'config', 'data', 'output_schema']);
const NODE_KEYS = new Set(['name', 'uses', 'action', 'with', 'output', 'output_key', 'goto', 'description', 'run', 'script', 'language', 'steps', 'type', 'condition', 'max_iterations', 'body', 'fan_in', 'metadata']);
const REFUSED_NODE_KEYS: Record<string, string> = {
  parallel_each: 'parallel_each (dynamic parallelism) is not supported; use parallel edges with fan_in',
  strategy: 'strategy.matrix is not supported; use parallel edges with fan_in',
  on_error: 'on_error (retries, fallbacks) is not supported; route on the action result\'s success instead',
  retry: 'retry is not supported; route on the action result\'s success instead',
};
/** Action namespaces of TEA's that reach outside services (a model API, the network, a database). */
const OUTSIDE = /^(actions\.)?(llm|http|web|a2a|mcp|github|neo4j|firestore|opik|ltm|memory|reasoning|agent|secrets)[._]/
const KNOWN_ACTIONS = new Set([...ACTION_NAMES, ...FILE_ACTION_NAMES, ...MEMORY_ACTION_NAMES]);

// PyYAML's float resolver (YAML 1.1, resolver.py): a dot is needed and an exponent has a sign, so 1e3 and
// 1.0e3 are strings while 1.0e+3 is 1000.0; _ may sit between digits; 1:30.5 is base 60; .inf, .nan.
const PY_YAML_FLOAT = /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

/** PyYAML's construct_yaml_float of a scalar's text (also of an explicit !!float). */
function constructFloat(text: string): number {
  let v = text.replace(/_/g, '').toLowerCase();
  const sign = v.startsWith('-') ? -1 : 1;
  if (v.startsWith('-') || v.startsWith('+')) v = v.slice(1);
  if (v === '.inf') return sign * Infinity;
  if (v === '.nan') return NaN;
  if (v.includes(':')) return sign * v.split(':').reduce((acc, part) => acc * 60 + Number(part), 0);
  return sign * Number(v);
}

/** YAML's float tags as PyYAML's one: its resolver's text, and a PyFloat for a whole value (2.0, 1.0e+3),
 *  so it prints as Python's float does. */
function keepFloats(tags: Tags): Tags {
  const isFloat = (t: Tags[number]): t is ScalarTag => typeof t === 'object' && t.tag === 'tag:yaml.org,2002:float';
  const plain = tags.find((t): t is ScalarTag => isFloat(t) && !t.format);
  if (!plain) return tags;
  const resolve = (text: string) => pyFloat(constructFloat(text)) as never;
  // The second, without a test, is the one an explicit !!float 1e3 takes (PyYAML's float('1e3')).
  return [...tags.filter((t) => !isFloat(t)), { ...plain, test: PY_YAML_FLOAT, resolve }, { ...plain, default: false, test: undefined, resolve }];
}

/** YAML as TEA's PyYAML reads it where the two differ: a whole float stays a float, and a repeated key
 *  is taken, the last one winning (yaml refused it by default). */
export function parseYamlAsTea(text: string): unknown {
  return parseYaml(text, { customTags: keepFloats, uniqueKeys: false });
}

/** Parses and checks a workflow; anything it cannot run is an error naming the node and the feature. */
export function parseWorkflow(text: string, file = 'workflow'): Workflow {
  let parsed: unknown;
  try { parsed = parseYamlAsTea(text); } catch (e) { throw new SimgrepError('BAD_FLAG', `${file}: not valid YAML: ${(e as Error).message}`); }
  if (!isDict(parsed)) throw new SimgrepError('BAD_FLAG', `${file}: a workflow is a YAML mapping with a nodes: list`);
  // Floats stay floats (2.0 prints 2.0) where templates read them; the rest of the document is plain.
  const floats = parsed;
  const doc = plainValue(parsed) as Dict;
  for (const k of Object.keys(doc)) {
    if (!TOP_KEYS.has(k)) throw new SimgrepError('BAD_FLAG', `${file}: top-level key "${k}" is not supported by simgrep run (supported: ${[...TOP_KEYS].join(', ')})`);
  }
  if (doc.input_schema !== undefined) throw new SimgrepError('BAD_FLAG', `${file}: input_schema (validating the input) is not supported by simgrep run; check the input in the first node`);
  if (isDict(doc.config) && (doc.config.interrupt_before !== undefined || doc.config.interrupt_after !== undefined)) {
    throw new SimgrepError('BAD_FLAG', `${file}: config.interrupt_before/interrupt_after (human-in-the-loop pauses with checkpoints) are not supported by simgrep run`);
  }
  if (!Array.isArray(doc.nodes) || doc.nodes.length === 0) throw new SimgrepError('BAD_FLAG', `${file}: nodes: must be a non-empty list`);
  const nodes = doc.nodes.map((n, i) => checkNode(n, `node #${i + 1}`, file));
  // A node's with: keeps its floats too: memory.store keeps the value as written (size: 2.0).
  nodes.forEach((n, i) => { const w = (floats.nodes as Dict[])[i]?.with; if (isDict(w)) n.with = w; });
  const names = new Set<string>();
  for (const n of nodes) {
    if (names.has(n.name)) throw new SimgrepError('BAD_FLAG', `${file}: two nodes are named "${n.name}"`);
    names.add(n.name);
  }
  const edges = (doc.edges === undefined || doc.edges === null ? [] : Array.isArray(doc.edges) ? doc.edges : [null]).map((e, i) => checkEdge(e, i, file, names));
  for (const n of nodes) for (const to of gotoTargets(n)) {
    if (to !== END && !names.has(to)) throw new SimgrepError('BAD_FLAG', `${file}: node ${n.name} goes to "${to}", which is not a node`);
  }
  return {
    name: typeof doc.name === 'string' ? doc.name : undefined,
    variables: optionalDict(floats.variables, 'variables', file),
    settings: optionalDict(doc.settings, 'settings', file),
    initialState: optionalDict(floats.initial_state, 'initial_state', file),
    data: optionalDict(floats.data, 'data', file),
    env: parseEnvDeclaration(doc.env, file),
    nodes,
    edges,
  };
}

function checkNode(n: unknown, where: string, file: string): NodeConfig {
  if (!isDict(n) || typeof n.name !== 'string' || n.name === '') throw new SimgrepError('BAD_FLAG', `${file}: ${where} needs a name`);
  const at = `${file}: node ${n.name}`;
  for (const k of Object.keys(n)) {
    if (REFUSED_NODE_KEYS[k]) throw new SimgrepError('BAD_FLAG', `${at}: ${REFUSED_NODE_KEYS[k]}`);
    if (!NODE_KEYS.has(k)) throw new SimgrepError('BAD_FLAG', `${at}: key "${k}" is not supported by simgrep run`);
  }
  if (n.type !== undefined && n.type !== 'while_loop') throw new SimgrepError('BAD_FLAG', `${at}: node type "${String(n.type)}" is not supported by simgrep run (supported: while_loop)`);
  checkLanguage(n, at);
  const uses = n.uses ?? n.action;
  if (uses !== undefined) {
    if (typeof uses !== 'string') throw new SimgrepError('BAD_FLAG', `${at}: uses must be an action name`);
    if (OUTSIDE.test(uses) && !MEMORY_ACTION_NAMES.includes(uses)) throw new SimgrepError('BAD_FLAG', `${at}: action "${uses}" needs an outside service (a model API, the network or a database) and is not part of simgrep run; simgrep runs its own search, vector, workspace and file actions and inline Python`);
    if (!KNOWN_ACTIONS.has(uses)) throw new SimgrepError('BAD_FLAG', `${at}: unknown action "${uses}"; known actions: ${[...KNOWN_ACTIONS].filter((a) => !a.startsWith('actions.')).join(', ')}`);
  }
  if (n.with !== undefined && !isDict(n.with)) throw new SimgrepError('BAD_FLAG', `${at}: with must be a mapping`);
  const output = n.output ?? n.output_key;
  if (output !== undefined && typeof output !== 'string' && !isDict(output)) throw new SimgrepError('BAD_FLAG', `${at}: output must be a state key or a mapping of keys to templates`);
  const goto = n.goto;
  if (goto !== undefined && typeof goto !== 'string' && !(Array.isArray(goto) && goto.every((g) => isDict(g) && typeof g.to === 'string'))) {
    throw new SimgrepError('BAD_FLAG', `${at}: goto must be a node name or a list of {if, to} rules`);
  }
  if (n.steps !== undefined) {
    if (!Array.isArray(n.steps)) throw new SimgrepError('BAD_FLAG', `${at}: steps must be a list`);
    n.steps.forEach((s, i) => checkNode(isDict(s) && s.name === undefined ? { ...s, name: `step_${i}` } : s, `${where} step #${i + 1}`, file));
  }
  if (n.type === 'while_loop') {
    if (!n.condition) throw new SimgrepError('BAD_FLAG', `${at}: a while_loop needs condition:`);
    const max = n.max_iterations;
    if (typeof max !== 'number' || !Number.isInteger(max) || max < 1 || max > 1000) throw new SimgrepError('BAD_FLAG', `${at}: max_iterations must be an integer between 1 and 1000 (got ${JSON.stringify(max)})`);
    if (!Array.isArray(n.body) || n.body.length === 0) throw new SimgrepError('BAD_FLAG', `${at}: a while_loop needs a body with at least one node`);
    n.body.forEach((b, i) => {
      if (isDict(b) && b.type === 'while_loop') throw new SimgrepError('BAD_FLAG', `${at}: nested while-loops are not supported (body node ${String(b.name)})`);
      checkNode(isDict(b) && b.name === undefined ? { ...b, name: `body_${i}` } : b, `${where} body #${i + 1}`, file);
    });
  }
  return n as NodeConfig;
}

/** Inline code: Python (TEA's default) runs; Lua, Prolog and the rest are refused, naming the node. */
function checkLanguage(n: Dict, at: string): void {
  const run = n.run;
  let language = n.language;
  if (isDict(run)) {
    if (run.type === 'expression') throw new SimgrepError('BAD_FLAG', `${at}: run: {type: expression} is not supported; write the expression as a run: block that returns a dict`);
    language = run.type ?? language;
  } else if (run !== undefined && typeof run !== 'string') {
    throw new SimgrepError('BAD_FLAG', `${at}: run must be Python code (a string)`);
  }
  if (language === undefined || language === 'python') return;
  const why = language === 'lua'
    ? 'no maintained pure-JavaScript Lua VM is bundled with simgrep; write the block in Python'
    : 'simgrep runs inline code in Python only';
  throw new SimgrepError('BAD_FLAG', `${at}: inline code in ${String(language)} is not supported (${why})`);
}

function checkEdge(e: unknown, i: number, file: string, names: Set<string>): Dict {
  if (!isDict(e) || typeof e.to !== 'string' || (typeof e.from !== 'string' && e.type !== 'entry')) throw new SimgrepError('BAD_FLAG', `${file}: edge #${i + 1} needs from: and to:`);
  const from = (e.from as string | undefined) ?? START;
  const at = `${file}: edge ${from} -> ${e.to}`;
  if (from !== START && !names.has(from)) throw new SimgrepError('BAD_FLAG', `${file}: edge from "${from}", which is not a node`);
  if (e.to !== END && !names.has(e.to)) throw new SimgrepError('BAD_FLAG', `${file}: edge to "${e.to}", which is not a node`);
  if (e.type === 'parallel' && (typeof e.fan_in !== 'string' || !names.has(e.fan_in))) throw new SimgrepError('BAD_FLAG', `${at}: a parallel edge needs fan_in: naming a node`);
  if (e.condition !== undefined && typeof e.condition !== 'string' && !(isDict(e.condition) && e.condition.type === 'expression')) {
    throw new SimgrepError('BAD_FLAG', `${at}: condition must be an expression string or {type: expression, value: ...}`);
  }
  return e;
}

function gotoTargets(n: Dict): string[] {
  if (typeof n.goto === 'string') return [n.goto];
  return Array.isArray(n.goto) ? n.goto.map((g) => (g as Dict).to as string) : [];
}

export function isDict(v: unknown): v is Dict {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function optionalDict(v: unknown, key: string, file: string): Dict {
  if (v === undefined || v === null) return {};
  if (!isDict(v)) throw new SimgrepError('BAD_FLAG', `${file}: ${key}: must be a mapping`);
  return v;
}
