// simgrep serve [-w NAME | --index-dir DIR | PATH...]: keeps a workspace loaded in this process and
// answers the CLI's searches and `simgrep index` runs of it over a Unix socket (see src/server/).
// With PATHs it indexes them, as `simgrep index PATH...` does, in the background: it listens at once and
// answers searches meanwhile from the index when a run of it has finished before, for this model, over roots
// that cover them, else by reading the files (and says which at start). Stops when idle, or on Ctrl-C.
import { isSimgrepError, SimgrepError } from '../../errors.js';
import { defaultName } from '../../workspace/registry.js';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createSearcher, createWorkspace } from '../../library.js';
import { isRemoteUri } from '../../sources/uri.js';
import { identityOf } from '../../server/identity.js';
import { serve, type StopCause } from '../../server/server.js';
import { socketPathFor } from '../../server/socket-path.js';
import type { EmbedderKind } from '../../types.js';
import type { ParsedFlags } from '../flags.js';
import { namedTarget, type WorkspaceTarget } from './workspace-target.js';
import { shellWord } from '../dropped-roots.js';
import { thousands } from '../thousands.js';
import type { BesideIndexRun } from '../../workspace/workspace.js';
import { visibleLine } from '../../output/visible.js';

/** Default --idle-timeout: a working session's pauses, not a day. */
const IDLE_SECONDS = 30 * 60;

export async function runServeCommand(flags: ParsedFlags, paths: string[]): Promise<number> {
  if (flags.mcp === true) return (await import('./mcp-engine-command.js')).runMcpEngineCommand(flags, paths);
  const named = namedTarget(flags);
  const target = named ?? (paths.length > 0 ? { name: defaultName(paths) } : null);
  if (!target) throw new SimgrepError('BAD_FLAG', 'simgrep serve needs the workspace to serve: PATHs (indexed first), -w NAME or --index-dir DIR');
  const idleSeconds = typeof flags['idle-timeout'] === 'number' ? flags['idle-timeout'] : IDLE_SECONDS;
  if (idleSeconds < 0) throw new SimgrepError('BAD_FLAG', '--idle-timeout needs 0 (never) or a number of seconds');
  const engine = { model: flags.model as string | undefined, embedder: flags.embedder as EmbedderKind | undefined };
  // One searcher for the workspace and for the scans that answer while an index run goes on.
  const searcher = createSearcher({ ...engine, concurrency: flags.concurrency as number | undefined, offline: flags.offline === true || undefined });
  const remote = { s3Endpoint: flags['s3-endpoint'] as string | undefined, gcsEndpoint: flags['gcs-endpoint'] as string | undefined };
  const ws = createWorkspace({ ...target, ...engine, searcher, resident: true, concurrency: flags.concurrency as number | undefined, remote });
  const say = (m: string) => process.stderr.write(`simgrep serve: ${m}\n`);
  const close = async () => { await ws.close(); await searcher.close(); };
  try {
    // Loads the model, the snapshot and the code paths of a search before the first client comes. With
    // PATHs the index is built after the server listens: searches meanwhile read the files.
    if (paths.length === 0) {
      const roots = await ws.roots();
      if (roots.length > 0) await ws.search({ query: 'warm up', paths: roots });
    }
  } catch (e) {
    await close();
    throw e;
  }
  const server = await serve({
    workspace: ws, identity: identityOf(engine), socket: socketPathFor(ws.dir), idleMs: idleSeconds * 1000, onEvent: say,
    scan: (options) => searcher.search(options),
  }).catch(async (e: unknown) => { await close(); throw e; });
  say(`workspace ${ws.name} (${ws.dir}) served by pid ${process.pid} on ${server.socket}`);
  say(`searches and simgrep index runs of it now go through this process; it stops after ${idleSeconds > 0 ? `${idleSeconds} s without a request` : 'Ctrl-C only'} (--idle-timeout), or on Ctrl-C`);
  let exitCode = 0;
  if (paths.length > 0) {
    const absolute = paths.map((p) => (isRemoteUri(p) ? p : path.resolve(p)));
    // Asked as the run starts (it changes workspace.json only when it publishes) and said once the model is
    // loaded; each search meanwhile is sent by the same rule (server.ts answerWhileIndexing).
    const beside = ws.besideIndexRun(absolute);
    const run = server.indexInBackground(absolute);
    // It rejects only when the model cannot be loaded: the run fails on the same error and says it (below),
    // not as something the index lacks.
    void beside.then((b) => say(`indexing ${paths.join(' ')} in the background; ${meanwhile(b)}`), () => say(`indexing ${paths.join(' ')} in the background`));
    run.then((r) => {
      for (const w of r.warnings) process.stderr.write(`simgrep: ${visibleLine(w.message)}\n`);
      say(`workspace ${ws.name}: ${thousands(r.indexed)} file${r.indexed === 1 ? '' : 's'} indexed, ${thousands(r.unchanged)} unchanged, ${thousands(r.deleted)} removed`);
    }, (e: unknown) => {
      const again = `simgrep index ${[...absolute.map(shellWord), ...selecting(flags, named)].join(' ')}`;
      const failed = runFailed(e, { name: ws.name, dir: ws.dir, gone: !isRemoteUri(ws.dir) && !existsSync(ws.dir), again, stoppedBy: server.stoppedBy() });
      say(failed.message);
      // A model that cannot load, or an index this simgrep cannot read at all: no search can be answered, and
      // the socket kept would refuse the server started again after the fix (notes42's review).
      if (failed.stop) { exitCode = 2; void server.stop(); }
    });
  }
  const stop = () => { void server.stop(); };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await server.stopped;
  await searcher.close();
  return exitCode;
}

/**
 * The options of `simgrep serve` that `simgrep index` needs to update the same workspace with the same model:
 * the workspace named (-w, $SIMGREP_WORKSPACE, --index-dir; a default name is the paths' own), the model, its
 * backend, and the endpoints of remote paths. Before notes42's review the advice left them out: after `serve
 * TREE -w fw` the advised run made a new workspace, and after `--model M` it would rebuild with the default model.
 */
function selecting(flags: ParsedFlags, named: WorkspaceTarget | null): string[] {
  const out: string[] = [];
  if (named?.dir !== undefined) out.push('--index-dir', shellWord(isRemoteUri(named.dir) ? named.dir : path.resolve(named.dir)));
  else if (named) out.push('-w', shellWord(named.name));
  for (const f of ['model', 'embedder', 's3-endpoint', 'gcs-endpoint'] as const) {
    if (typeof flags[f] === 'string') out.push(`--${f}`, shellWord(flags[f] as string));
  }
  if (flags.offline === true) out.push('--offline');
  return out;
}

/** The codes of a model that cannot be loaded: the searcher keeps the failed load, and every search fails on it. */
const MODEL_CODES = new Set(['MODEL_NOT_FOUND', 'MODEL_OFFLINE', 'MODEL_DOWNLOAD', 'MODEL_CORRUPT', 'TOKENIZER_CORRUPT', 'EMBEDDER_UNAVAILABLE']);

/**
 * What `simgrep serve PATH`'s start-up run's failure means for the searches the server answers next, what to
 * do, and whether the server stops (`stop`: it can answer nothing). `again`: the `simgrep index` command that
 * runs it again; `gone`: the workspace's (local) directory no longer exists; `stoppedBy`: why the server
 * stopped, if it did (server.ts). Before notes42 every failure said "searches keep reading the files", a model
 * that cannot load included, and a server stopped mid-run said its run failed.
 */
function runFailed(e: unknown, o: { name: string; dir: string; gone: boolean; again: string; stoppedBy: StopCause | null }): { message: string; stop?: boolean } {
  const message = (e as Error)?.message ?? String(e);
  const code = isSimgrepError(e) ? e.code : '';
  const { again } = o;
  if (MODEL_CODES.has(code)) return { stop: true, message: `the index run failed: ${message}; no search can be answered without the model, so this server stops: fix --model, then start simgrep serve again` };
  // The index's meta is newer than this simgrep: every search reads it first.
  if (code === 'INDEX_INCOMPATIBLE') return { stop: true, message: `the index run failed: ${message}; no search of the workspace can be answered, so this server stops` };
  // Its directory or tables cannot be opened: a search of files unchanged since the last run reads only the
  // workspace's meta and snapshot, and answers; one that must save what changed opens the tables, and fails.
  if (code === 'INDEX_UNREADABLE') return { message: `the index run failed: ${message}; searches that must save what changed fail the same way (those of files unchanged since the last run answer from the index); do as it says, then run ${again}` };
  if (code === 'INDEX_LOCKED') return { message: `the index run did not start: ${message}; until that process is done, searches answer from the index as it stands where it can answer them, else from the files; then run ${again}` };
  if (code === 'INDEX_WRITE_FAILED') return { message: `the index run failed: ${message}; searches answer from the index its last finished run left, where it covers them, reading what changed since for their own answers (else from the files); then run ${again}` };
  // Only `simgrep workspace rm` asks a server to stop: it removes the workspace next, and what the run committed with it.
  if (code === 'ABORTED' && o.stoppedBy === 'asked') return { message: `the index run stopped: simgrep workspace rm stopped this server to remove workspace ${o.name}, and what the run committed goes with it; ${again} builds it anew` };
  // Removed by other means under the run (by hand, or replaced): nothing it committed is there to go on from.
  if (o.gone) return { message: `the index run ${code === 'ABORTED' ? 'stopped with the server' : `failed: ${message}`}; the workspace's index directory ${o.dir} is gone (removed under the run), and what it committed with it; ${again} builds it anew` };
  if (code === 'ABORTED') return { message: `the index run stopped with the server; what it committed is kept, and ${again} goes on from there` };
  return { message: `the index run failed: ${message}; searches go on as if it had not run (from the index a finished run left, where it covers them, else from the files); ${again} runs it again` };
}

/** What searches do while `simgrep serve PATH`'s start-up run indexes (Workspace.besideIndexRun). */
function meanwhile(b: BesideIndexRun): string {
  if (b.fromIndex) return 'searches answer from its index meanwhile';
  return `searches read the files until it is done${b.why ? ` (the index it has cannot answer them: ${b.why})` : ''}`;
}
