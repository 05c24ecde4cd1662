// An index a run began and none finished (a first build killed, or one under way), and what every
// surface says of it. Light (no store): the CLI's commands import it before the workspace opens.
/**
 * What every surface says of such an index (Workspace.status(): complete false), before naming,
 * in its own terms, what finishes it: `simgrep workspace status`, semtools' `workspace status`, the
 * search.workspace_stats action.
 */
export const INCOMPLETE_INDEX = 'the index is incomplete: no index run of it has finished (one was cut short, or is still running), so it holds only part of its roots';

/**
 * An index a run began and none finished: its tables hold a part of its roots. Not an empty workspace
 * (made by semtools' `workspace use` or search.workspace_create without paths): no run began there.
 */
export function isUnfinished(s: { complete: boolean; roots: string[]; files: number; gone: number }): boolean {
  return !s.complete && (s.roots.length > 0 || s.files > 0 || s.gone > 0);
}
