// semtools 3.x's `workspace use|status|prune [NAME] [--json]` over simgrep's named workspaces (the
// same ones `simgrep -w NAME` uses), with semtools' text and JSON shapes. The active workspace is
// NAME, else $SEMTOOLS_WORKSPACE.
import { mkdirSync } from 'node:fs';
import { SimgrepError } from '../../errors.js';
import { droppedRootsText } from '../dropped-roots.js';
import { incompleteNote } from '../incomplete-note.js';
import { checkName, workspaceDir } from '../../workspace/registry.js';
import { isUnfinished } from '../../workspace/unfinished.js';
import { SEMTOOLS_FLAGS, parseArgs, semtoolsHelpText } from '../flags.js';
import { visibleLine } from '../../output/visible.js';

const out = (s: string) => { process.stdout.write(s); };
const json = (v: unknown) => out(`${JSON.stringify(v, null, 2)}\n`);

export async function runSemtoolsWorkspace(argv: string[], version: string): Promise<number> {
  const { flags, positionals } = parseArgs(argv, SEMTOOLS_FLAGS, 'semtools workspace');
  if (flags.help) { out(semtoolsHelpText(version, 'semtools')); return 0; }
  const [verb, given] = positionals;
  if (verb !== 'use' && verb !== 'status' && verb !== 'prune') {
    throw new SimgrepError('BAD_FLAG', `${verb === undefined ? 'a subcommand is required' : `unrecognized subcommand '${verb}'`}; use one of use, status, prune`);
  }
  if (verb === 'use' && given === undefined) throw new SimgrepError('BAD_FLAG', 'the following required arguments were not provided:\n  <NAME>\n\nUsage: semtools workspace use <NAME>');
  const name = given ?? (process.env.SEMTOOLS_WORKSPACE || undefined);
  if (name === undefined) throw new SimgrepError('WORKSPACE_NOT_FOUND', 'No active workspace. Run: workspace use <name> (or set SEMTOOLS_WORKSPACE)');
  const rootDir = workspaceDir(checkName(name));
  // semtools creates a workspace the first time it is named (use, status, prune or a search).
  mkdirSync(rootDir, { recursive: true });
  const { createWorkspace } = await import('../../library.js');
  const ws = createWorkspace({ name, model: flags.model as string | undefined, offline: flags.offline === true || undefined, concurrency: 0 });
  try {
    if (verb === 'prune') {
      const { deleted, droppedRoots, warnings } = await ws.prune();
      const status = await ws.status();
      const remaining = status.files;
      for (const w of [...warnings ?? [], ...status.warnings ?? []]) process.stderr.write(`Warning: ${visibleLine(w.message)}\n`);
      // semtools' JSON keeps its fields; a dropped root is said on stderr.
      process.stderr.write(droppedRootsText(name, droppedRoots, `-w ${name}`));
      if (flags.json) json({ files_removed: deleted, files_remaining: remaining });
      else if (deleted === 0 && droppedRoots.length === 0) out('No stale documents found. Workspace is clean.\n');
      else if (deleted === 0) out('No stale documents found.\n');
      else out(`Found ${deleted} stale documents.\nRemoved ${deleted} stale documents from workspace.\n`);
      return 0;
    }
    const s = await ws.status();
    for (const w of s.warnings ?? []) process.stderr.write(`Warning: ${visibleLine(w.message)}\n`);
    // An index no run has finished holds a part of its roots (session 37's simgrep workspace status):
    // semtools' fields kept, `complete` (and a `note` when false) added; status says it on stderr and
    // exits 1, as this personality does for any failure.
    const incomplete = !isUnfinished(s) ? null : incompleteNote(s, `-w ${name}`);
    const failed = () => {
      if (!incomplete || verb !== 'status') return 0;
      process.stderr.write(`Error: workspace ${name}: ${incomplete}\n`);
      return 1;
    };
    if (flags.json) { json({ name, root_dir: rootDir, total_documents: s.files, complete: s.complete, ...(incomplete && { note: incomplete }) }); return failed(); }
    if (verb === 'use') {
      out([
        `Workspace '${name}' configured.`, 'To activate it, run:', `  export SEMTOOLS_WORKSPACE=${name}`, '',
        'Or add this to your shell profile (.bashrc, .zshrc, etc.)', '',
        'Or use the `--workspace` option on the commands that support it', '',
      ].join('\n'));
      return 0;
    }
    // simgrep searches its index exactly (no approximate index to report): FLAT once it holds files.
    out(`Active workspace: ${name}\nRoot: ${rootDir}\nDocuments: ${s.files}\nIndex: ${s.files > 0 ? 'Yes (FLAT)' : 'No'}\n${incomplete ? `State: ${incomplete}\n` : ''}`);
    return failed();
  } finally {
    await ws.close();
  }
}
