// simgrep workspace use|status|list|prune|rm: named workspaces, semtools-style.
import { rmSync, existsSync } from 'node:fs';
import { SimgrepError } from '../../errors.js';
import { checkName, listWorkspaces, workspaceDir } from '../../workspace/registry.js';
import type { WorkspaceStatus } from '../../workspace/workspace.js';
import { isUnfinished } from '../../workspace/unfinished.js';
import { createWorkspace } from '../../library.js';
import { askServer } from '../../server/client.js';
import { identityOf } from '../../server/identity.js';
import { socketPathFor } from '../../server/socket-path.js';
import type { ParsedFlags } from '../flags.js';
import { directoryTarget, namedTarget } from './workspace-target.js';
import { thousands } from '../thousands.js';
import { droppedRootsText, shellWord } from '../dropped-roots.js';
import { incompleteNote } from '../incomplete-note.js';
import { sayUntrusted } from '../untrusted-socket.js';
import { visibleLine } from '../../output/visible.js';

const out = (s: string) => { process.stdout.write(s); };

export async function runWorkspaceCommand(flags: ParsedFlags, args: string[]): Promise<number> {
  const [verb, name] = args;
  const target = name ? { name } : namedTarget(flags);
  switch (verb) {
    case 'use': {
      if (!name) throw new SimgrepError('BAD_FLAG', 'usage: simgrep workspace use NAME');
      out(`export SIMGREP_WORKSPACE=${checkName(name)}\n`);
      if (!existsSync(workspaceDir(name))) process.stderr.write(`simgrep: workspace ${name} is empty so far; fill it with simgrep index PATH...\n`);
      return 0;
    }
    case 'list': {
      const all = listWorkspaces();
      if (flags.json) out(`${JSON.stringify({ workspaces: all.map((w) => ({ name: w.name, dir: w.dir, roots: w.info?.roots ?? [], model: w.info?.model ?? null, updated: w.info?.updated ?? null })) }, null, 2)}\n`);
      else for (const w of all) out(`${w.name}\t${(w.info?.roots ?? []).join(' ')}\n`);
      return 0;
    }
    case 'status':
    case 'prune': {
      const chosen = target ?? directoryTarget(`usage: simgrep workspace ${verb} NAME (or -w NAME, --index-dir DIR, SIMGREP_WORKSPACE)`);
      const ws = createWorkspace({ ...chosen, model: flags.model as string | undefined, offline: flags.offline === true || undefined, concurrency: 0, remote: { s3Endpoint: flags['s3-endpoint'] as string | undefined, gcsEndpoint: flags['gcs-endpoint'] as string | undefined } });
      try {
        if (verb === 'prune') {
          const { deleted, droppedRoots, warnings } = await ws.prune();
          for (const w of warnings ?? []) process.stderr.write(`simgrep: ${visibleLine(w.message)}\n`);
          process.stderr.write(`simgrep: workspace ${ws.name}: removed ${deleted === 1 ? '1 file that no longer exists' : `${deleted} files that no longer exist`}\n`);
          process.stderr.write(droppedRootsText(ws.name, droppedRoots, 'name' in chosen && chosen.name ? `-w ${chosen.name}` : `--index-dir ${shellWord(ws.dir)}`));
          return 0;
        }
        const s = await ws.status();
        // Tables no index run finished (a first build killed, or one under way) hold a part of the roots:
        // said on every form, and exit 2 as for any other failure of the command (trial37: the partial
        // counts came with `updated: unknown` and exit 0, as if the index were whole).
        const incomplete = !isUnfinished(s) ? null : incompleteNote(s, 'name' in chosen && chosen.name ? `-w ${chosen.name}` : `--index-dir ${shellWord(ws.dir)}`);
        out(flags.json ? `${JSON.stringify(incomplete ? { ...s, note: incomplete } : s, null, 2)}\n` : statusText(s, incomplete));
        // Said, not a failure (as by simgrep index): the index answers, each search rebuilding the snapshot.
        for (const w of s.warnings ?? []) process.stderr.write(`simgrep: ${visibleLine(w.message)}\n`);
        if (!incomplete) return 0;
        process.stderr.write(`simgrep: workspace ${ws.name}: ${incomplete}\n`);
        return 2;
      } finally {
        await ws.close();
      }
    }
    case 'rm': {
      if (!name) throw new SimgrepError('BAD_FLAG', 'usage: simgrep workspace rm NAME');
      const dir = workspaceDir(name);
      if (!existsSync(dir)) throw new SimgrepError('WORKSPACE_NOT_FOUND', `workspace ${name} does not exist (simgrep workspace list shows them)`);
      // A server of the workspace (simgrep serve) stops first: it holds the index open.
      const stopped = await askServer(socketPathFor(dir), { op: 'stop', identity: identityOf({}), cwd: process.cwd() }, { onUntrusted: sayUntrusted });
      if (stopped) process.stderr.write(`simgrep: stopped the server of workspace ${name} (pid ${stopped.pid})\n`);
      rmSync(dir, { recursive: true, force: true });
      process.stderr.write(`simgrep: removed workspace ${name}\n`);
      return 0;
    }
    default:
      throw new SimgrepError('BAD_FLAG', `unknown workspace command "${verb ?? ''}"; use one of use, status, list, prune, rm`);
  }
}

function statusText(s: WorkspaceStatus, incomplete: string | null): string {
  const n = thousands;
  const mb = (x: number) => `${(x / 1048576).toFixed(1)} MB`;
  return [
    `workspace: ${s.name}`,
    `index:     ${s.dir}`,
    `roots:     ${s.roots.join(', ') || '(none)'}`,
    `files:     ${n(s.files)} (${n(s.binary)} binary)${s.gone > 0 ? `; ${n(s.gone)} more gone since the last index run (not searched; simgrep index or workspace prune drops them)` : ''}`,
    `chunks:    ${n(s.chunks)}`,
    `lines:     ${n(s.lines)} (${mb(s.bytes)})`,
    `model:     ${s.model}`,
    `on disk:   ${s.sizeOnDisk === null ? 'in an object store' : mb(s.sizeOnDisk)}`,
    `updated:   ${s.updated ?? (incomplete ? 'never (no index run has finished)' : 'unknown')}`,
    ...(incomplete ? [`state:     ${incomplete}`] : []),
    '',
  ].join('\n');
}

