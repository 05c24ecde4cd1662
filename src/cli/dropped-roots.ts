// What `workspace prune` (simgrep's and semtools') says of each root it dropped, and how to add it back.

/** One line a root: `target` names the workspace on the command line (`-w NAME`, `--index-dir DIR`). */
export function droppedRootsText(name: string, roots: string[], target: string): string {
  return roots.map((r) => `simgrep: workspace ${name}: dropped root ${r}, which no longer exists (\`simgrep index ${shellWord(r)} ${target}\` adds it back)\n`).join('');
}

/** `s` as one shell word. */
export const shellWord = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
