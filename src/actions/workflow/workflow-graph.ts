// The routes between nodes, built as The Edge Agent's EdgeFactory builds them (yaml_edges.py): a node's
// `goto` wins over `edges:` from it, which win over the next node in the list; the first node is the
// entry unless an edge leaves __start__; an edge to __end__ is unconditional (its when: is not read);
// `when:` ("true"/"false", a bare name, `!name`, an expression) and `condition:` (with `when:` as the
// value it must equal) guard an edge; a `type: parallel` edge starts a branch that runs to its fan_in.
import { condition, gotoCondition, type TemplateContext } from './templates.js';
import { END, START, isDict, type Dict, type Workflow } from './workflow-parse.js';

export interface Route {
  to: string;
  /** The test that picks this route (absent: always). */
  holds?: (ctx: TemplateContext) => boolean;
  /** A parallel edge: the branch runs from `to` until it reaches this node. */
  fanIn?: string;
}

/** Routes out of every node, in TEA's order (the first that holds wins). */
export type Graph = Map<string, Route[]>;

export function buildGraph(wf: Workflow): Graph {
  const graph: Graph = new Map();
  // networkx keeps one edge per (from, to): adding it again replaces its data in place.
  const add = (from: string, r: Route) => {
    const routes = graph.get(from) ?? [];
    const i = routes.findIndex((x) => x.to === r.to);
    if (i >= 0) routes[i] = r; else routes.push(r);
    graph.set(from, routes);
  };
  const hasStart = wf.edges.some((e) => e.from === START || (e.from === undefined && e.type === 'entry'));
  const withLegacy = new Set(wf.edges.map((e) => e.from as string).filter((f) => f !== undefined && f !== START));
  const withEnd = new Set(wf.edges.filter((e) => e.to === END).map((e) => e.from as string));
  const withGoto = new Set<string>();
  if (!hasStart) add(START, { to: wf.nodes[0].name });
  wf.nodes.forEach((n, i) => {
    if (n.goto !== undefined) {
      withGoto.add(n.name);
      if (typeof n.goto === 'string') add(n.name, { to: n.goto });
      else for (const rule of n.goto as Dict[]) {
        const test = rule.if;
        add(n.name, test === undefined || test === null ? { to: rule.to as string } : { to: rule.to as string, holds: (ctx) => gotoCondition(test, { ...ctx, result: {} }) });
      }
    } else if (!withLegacy.has(n.name)) {
      if (i < wf.nodes.length - 1) add(n.name, { to: wf.nodes[i + 1].name });
      else if (!withEnd.has(n.name)) add(n.name, { to: END });
    }
  });
  for (const e of wf.edges) {
    const type = e.type ?? 'normal';
    const from = (e.from as string | undefined) ?? START;
    const to = e.to as string;
    if (withGoto.has(from) && from !== START) continue;
    if ((from === START || type === 'entry') && e.when === undefined && e.condition === undefined) { add(START, { to }); continue; }
    if (to === END || type === 'finish') { add(from, { to: END }); continue; }
    if (type === 'parallel') { add(from, { to, fanIn: e.fan_in as string }); continue; }
    if (e.condition !== undefined) {
      const expr = isDict(e.condition) ? e.condition.value : e.condition;
      const want = e.when === undefined ? true : e.when;
      add(from, { to, holds: (ctx) => pyEquals(condition(expr, ctx), want) });
      continue;
    }
    if (e.when !== undefined) {
      const w = e.when;
      if (typeof w === 'string' && !['true', 'false'].includes(w.toLowerCase())) add(from, { to, holds: (ctx) => condition(w, ctx) });
      else {
        const constant = typeof w === 'string' ? w.toLowerCase() === 'true' : w;
        add(from, { to, holds: () => pyEquals(true, constant) });
      }
      continue;
    }
    add(from, { to });
  }
  return graph;
}

/** Python's == between a condition's bool and a cond_map key (True == 1). */
function pyEquals(b: boolean, key: unknown): boolean {
  if (typeof key === 'boolean') return key === b;
  if (typeof key === 'number') return key === (b ? 1 : 0);
  return false;
}
