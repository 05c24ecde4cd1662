// What `workspace status` (simgrep's and semtools') says of an index no run has finished, and how to finish it.
import type { WorkspaceStatus } from '../workspace/workspace.js';
import { INCOMPLETE_INDEX } from '../workspace/unfinished.js';
import { shellWord } from './dropped-roots.js';

/** `target` names the workspace on the command line (`-w NAME`, `--index-dir DIR`). */
export function incompleteNote(s: WorkspaceStatus, target: string): string {
  const roots = s.roots.length > 0 ? ` ${s.roots.map(shellWord).join(' ')}` : ' PATH...';
  return `${INCOMPLETE_INDEX}; simgrep index${roots} ${target} finishes it`;
}
