// simgrep index [PATH]...: builds or updates a workspace index; without -w or --index-dir the
// workspace is named after the paths' real location (so a later search of those paths finds it).
// With --cluster (or $SIMGREP_CLUSTER) the cluster's workers read and embed; this process merges.
import { SimgrepError } from '../../errors.js';
import type { IndexProgress } from '../../workspace/build/indexer.js';
import { defaultName } from '../../workspace/registry.js';
import { askServer } from '../../server/client.js';
import { identityOf } from '../../server/identity.js';
import type { WireIndexReport } from '../../server/protocol.js';
import { socketPathFor } from '../../server/socket-path.js';
import type { ClusterOptions } from '../../searcher/api.js';
import type { EmbedderKind } from '../../types.js';
import type { ParsedFlags } from '../flags.js';
import { directoryTarget, namedTarget, targetDir } from './workspace-target.js';
import { thousands } from '../thousands.js';
import { visibleLine } from '../../output/visible.js';
import { sayUntrusted } from '../untrusted-socket.js';

export async function runIndexCommand(flags: ParsedFlags, paths: string[]): Promise<number> {
  refuseSearchFilters(flags);
  const target = namedTarget(flags) ?? (paths.length > 0 ? { name: defaultName(paths) } : directoryTarget('simgrep index needs PATHs to index (e.g. simgrep index ./src), or -w NAME to update that workspace'));
  const engine = { model: flags.model as string | undefined, embedder: flags.embedder as EmbedderKind | undefined };
  const progress = indexProgress(process.stderr);
  const cluster = clusterOf(flags, progress.clear);
  // The workspace's resident server (simgrep serve) updates it when one runs: its tables are open.
  if (!cluster && flags.server !== false) {
    const answer = await askServer(socketPathFor(targetDir(target)), { op: 'index', identity: identityOf(engine), cwd: process.cwd(), paths }, { onProgress: progress.update, onUntrusted: sayUntrusted });
    progress.clear();
    if (answer?.index) return printed(answer.workspace, answer.index);
  }
  const { createWorkspace } = await import('../../library.js');
  const ws = createWorkspace({
    ...target,
    ...engine,
    concurrency: flags.concurrency as number | undefined,
    offline: flags.offline === true || undefined,
    remote: { s3Endpoint: flags['s3-endpoint'] as string | undefined, gcsEndpoint: flags['gcs-endpoint'] as string | undefined },
  });
  try {
    const roots = paths.length > 0 ? paths : await ws.roots();
    if (roots.length === 0) throw new SimgrepError('BAD_FLAG', `workspace ${ws.name} has no paths yet; pass the paths to index`);
    // Ctrl-C or SIGTERM during a cluster build: its shards leave the queue and its staging is dropped before exiting.
    const stop = new AbortController();
    const abort = () => stop.abort();
    if (cluster) for (const s of ['SIGINT', 'SIGTERM'] as const) process.once(s, abort);
    const report = await ws.index(roots, { onProgress: progress.update, cluster, signal: cluster ? stop.signal : undefined });
    progress.clear();
    return printed(ws.name, report);
  } finally {
    progress.clear();
    await ws.close();
  }
}

/** The flags that choose which files a search reads: each search walks with its own (docs/workspace.md). */
const SEARCH_FILTERS = ['glob', 'type', 'type-not', 'ext', 'hidden', 'ignore', 'max-filesize', 'follow', 'recursive'];

/**
 * The index holds what a plain walk of its paths finds, and every search walks with its own filters and
 * indexes what it finds first: a filter given to simgrep index would drop files later searches want back
 * (or add ones they never read), so it is refused rather than silently ignored.
 */
function refuseSearchFilters(flags: ParsedFlags): void {
  const given = SEARCH_FILTERS.map((f) => (flags[f] === false ? `--no-${f}` : flags[f] === undefined || (f === 'ignore' || f === 'recursive') ? '' : `--${f}`))
    .filter(Boolean);
  if (given.length === 0) return;
  throw new SimgrepError('BAD_FLAG', `simgrep index takes no ${given.join(', ')}: filters apply when searching (simgrep QUERY PATH ${given[0]} ...); the index holds every file a plain walk of its paths finds`);
}

/** The cluster that builds the index, when --cluster or $SIMGREP_CLUSTER names one. */
function clusterOf(flags: ParsedFlags, clear: () => void): ClusterOptions | undefined {
  const url = (flags.cluster as string | undefined) ?? (process.env.SIMGREP_CLUSTER || undefined);
  if (url === undefined) return undefined;
  return {
    url,
    timeoutMs: typeof flags['cluster-timeout'] === 'number' ? flags['cluster-timeout'] * 1000 : undefined,
    shardBytes: flags['shard-size'] as number | undefined,
    onNotice: (m) => { clear(); process.stderr.write(`simgrep: ${visibleLine(m)}\n`); },
  };
}

/** Prints a run's warnings and summary; the exit code. */
function printed(name: string, r: WireIndexReport): number {
  // Names in them come from the walk, a store's listing or a worker: shown escaped, as a search shows them.
  for (const w of r.warnings) process.stderr.write(`simgrep: ${visibleLine(w.message)}\n`);
  process.stderr.write(summary(name, r));
  return r.errors > 0 ? 2 : 0;
}

function summary(name: string, r: WireIndexReport): string {
  const n = thousands;
  const rate = r.ms > 0 && r.lines > 0 ? `, ${n(Math.round((r.lines / r.ms) * 1000))} lines/s` : '';
  return `simgrep: workspace ${name}: ${n(r.files)} files checked, ${n(r.indexed)} indexed (${n(r.lines)} lines, ${n(r.chunks)} chunks, ${n(r.reused)} reused), `
    + `${n(r.unchanged)} unchanged, ${n(r.deleted)} removed, ${n(r.errors)} errors in ${(r.ms / 1000).toFixed(1)} s${rate}\n`
    + `simgrep: searches of these paths now answer from it; export SIMGREP_WORKSPACE=${name} to name it explicitly\n`;
}

/** Share done, files, lines/s and ETA on a terminal; nothing otherwise. */
function indexProgress(stream: NodeJS.WriteStream): { update(p: IndexProgress): void; clear(): void } {
  if (stream.isTTY !== true) return { update() {}, clear() {} };
  let shown = false;
  return {
    update(p) {
      shown = true;
      const rate = p.ms > 0 ? Math.round((p.lines / p.ms) * 1000) : 0;
      // ETA from bytes: files differ in size far more than bytes differ in cost.
      const left = p.bytes > 0 && p.bytesToRead > p.bytes ? ((p.bytesToRead - p.bytes) / p.bytes) * p.ms / 1000 : 0;
      const pct = p.bytesToRead > 0 ? Math.min(100, Math.round((p.bytes / p.bytesToRead) * 100)) : 100;
      const eta = p.ms < 2000 ? '' : `, ETA ${Math.ceil(left)} s`; // the first seconds' rate says little
      stream.write(`\r\x1b[Kindexing: ${pct}% (${thousands(p.indexed)} files, ${thousands(p.lines)} lines, ${thousands(rate)} lines/s)${eta}`);
    },
    clear() { if (shown) stream.write('\r\x1b[K'); shown = false; },
  };
}
