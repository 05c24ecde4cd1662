// The one table of actions, by the names YAML `uses:` gives them (plus TEA's `actions.<ns>_<name>`
// aliases). Every action is (state, params) => Promise<result> and never throws.
import type { ActionEngine } from './engine.js';
import { failure, fail } from './errors.js';
import type { Params } from './params.js';
import { searchSemantic, searchSemanticContent } from './search-actions.js';
import { semtoolsSearch } from './semtools-action.js';
import { embeddingCreate } from './embedding-action.js';
import { vectorIndexFiles, vectorQuery, vectorStore } from './vector-actions.js';
import { workspaceCreate, workspaceIndex, workspaceSearch, workspaceStats } from './workspace-actions.js';

export type ActionResult = Record<string, unknown>;
export type ActionState = Record<string, unknown>;
export type Action = (state: ActionState, params: Params) => Promise<ActionResult>;
type Impl = (engine: ActionEngine, state: ActionState, params: Params) => Promise<ActionResult>;

const IMPLS: Record<string, Impl> = {
  'semtools.search': semtoolsSearch,
  'search.semantic': searchSemantic,
  'search.semantic_content': searchSemanticContent,
  'search.workspace_create': workspaceCreate,
  'search.workspace_index': workspaceIndex,
  'search.workspace_search': workspaceSearch,
  'search.workspace_stats': workspaceStats,
  'vector.store': vectorStore,
  'vector.query': vectorQuery,
  'vector.index_files': vectorIndexFiles,
  'embedding.create': embeddingCreate,
};

/** Every registered name: the dotted names and their `actions.<ns>_<name>` aliases. */
export const ACTION_NAMES: readonly string[] = Object.keys(IMPLS).flatMap((n) => [n, `actions.${n.replace('.', '_')}`]);

/** The action table bound to an engine. */
export function createActions(engine: ActionEngine): Record<string, Action> {
  const table: Record<string, Action> = {};
  for (const [name, impl] of Object.entries(IMPLS)) {
    const action: Action = async (state, params) => {
      try {
        if (params === null || typeof params !== 'object' || Array.isArray(params)) return fail('validation_error', `${name}: parameters must be a mapping`);
        return await impl(engine, state ?? {}, params);
      } catch (e) {
        return failure(e);
      }
    };
    table[name] = action;
    table[`actions.${name.replace('.', '_')}`] = action;
  }
  return table;
}

/** Runs an action by name; an unknown name is an error result naming the known ones. */
export async function runAction(actions: Record<string, Action>, name: string, state: ActionState, params: Params): Promise<ActionResult> {
  const action = Object.hasOwn(actions, name) ? actions[name] : undefined;
  if (!action) return fail('unknown_action', `unknown action "${name}"; known actions: ${Object.keys(IMPLS).join(', ')}`);
  return action(state, params);
}
