// simgrep serve [-w NAME | --index-dir DIR | PATH...]: keeps a workspace loaded in this process and
// answers the CLI's searches and `simgrep index` runs of it over a Unix socket (see src/server/).
// With PATHs it indexes them, as `simgrep index PATH...` does, in the background: it listens at once and
// answers searches meanwhile from the index when a run of it has finished before, for this model, over roots
// that cover them, else by reading the files (and says which at start). Stops when idle, or on Ctrl-C.
import { isSimgrepError, SimgrepError } from '../../errors.js';
import { defaultName } from '../../workspace/registry.js';
import path from 'node:path';
import { createSearcher, createWorkspace } from '../../library.js';
import { isRemoteUri } from '../../sources/uri.js';
import { identityOf } from '../../server/identity.js';
import { serve } from '../../server/server.js';
import { socketPathFor } from '../../server/socket-path.js';
import type { EmbedderKind } from '../../types.js';
import type { ParsedFlags } from '../flags.js';
import { namedTarget } from './workspace-target.js';
import { thousands } from '../thousands.js';
import type { BesideIndexRun } from '../../workspace/workspace.js';

/** Default --idle-timeout: a working session's pauses, not a day. */
const IDLE_SECONDS = 30 * 60;

export async function runServeCommand(flags: ParsedFlags, paths: string[]): Promise<number> {
  if (flags.mcp === true) return (await import('./mcp-engine-command.js')).runMcpEngineCommand(flags, paths);
  const target = namedTarget(flags) ?? (paths.length > 0 ? { name: defaultName(paths) } : null);
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
      for (const w of r.warnings) process.stderr.write(`simgrep: ${w.message}\n`);
      say(`workspace ${ws.name}: ${thousands(r.indexed)} files indexed, ${thousands(r.unchanged)} unchanged, ${thousands(r.deleted)} removed`);
    }, (e: unknown) => { say(runFailed(e, paths)); });
  }
  const stop = () => { void server.stop(); };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await server.stopped;
  await searcher.close();
  return 0;
}

/** The codes of a model that cannot be loaded: the searcher keeps the failed load, and every search fails on it. */
const MODEL_CODES = new Set(['MODEL_NOT_FOUND', 'MODEL_OFFLINE', 'MODEL_DOWNLOAD', 'MODEL_CORRUPT', 'TOKENIZER_CORRUPT', 'EMBEDDER_UNAVAILABLE']);
/** An index this simgrep cannot open (foreign, unreadable, newer): every search of the workspace fails on it too. */
const UNUSABLE_CODES = new Set(['INDEX_UNREADABLE', 'INDEX_INCOMPATIBLE']);

/**
 * What `simgrep serve PATH`'s start-up run's failure means for the searches the server answers next, and
 * what to do. Before notes42 every failure said "searches keep reading the files", a model that cannot
 * load included (the searches then failed too), and a server stopped mid-run said its run failed.
 */
function runFailed(e: unknown, paths: string[]): string {
  const message = (e as Error)?.message ?? String(e);
  const code = isSimgrepError(e) ? e.code : '';
  const again = `simgrep index ${paths.join(' ')}`;
  if (MODEL_CODES.has(code)) return `the index run failed: ${message}; searches fail the same way (they need the model too): fix --model, then start simgrep serve again`;
  if (UNUSABLE_CODES.has(code)) return `the index run failed: ${message}; searches of the workspace fail the same way: do as it says, then start simgrep serve again`;
  if (code === 'INDEX_LOCKED') return `the index run did not start: ${message}; until that process is done, searches answer from the index as it stands where it can answer them, else from the files; then run ${again}`;
  if (code === 'INDEX_WRITE_FAILED') return `the index run failed: ${message}; searches answer from the index its last finished run left, where it covers them, reading what changed since for their own answers (else from the files); then run ${again}`;
  if (code === 'ABORTED') return `the index run stopped with the server; what it committed is kept, and ${again} goes on from there`;
  return `the index run failed: ${message}; searches go on as if it had not run (from the index a finished run left, where it covers them, else from the files); ${again} runs it again`;
}

/** What searches do while `simgrep serve PATH`'s start-up run indexes (Workspace.besideIndexRun). */
function meanwhile(b: BesideIndexRun): string {
  if (b.fromIndex) return 'searches answer from its index meanwhile';
  return `searches read the files until it is done${b.why ? ` (the index it has cannot answer them: ${b.why})` : ''}`;
}
