// simgrep worker --cluster URL --allow PATH|URI... [-J N]: a long-running cluster worker, confined to
// what its operator allows. Lines on stderr per shard; SIGTERM or Ctrl-C finishes the shards running
// and exits 0 (a second signal hands them back at once).
import { createAllowList } from '../../cluster/allow-list.js';
import { startClusterWorker } from '../../cluster/worker.js';
import { SimgrepError } from '../../errors.js';
import { defaultModelSpec } from '../../model/default-model.js';
import { createSearcher } from '../../library.js';
import type { EmbedderKind } from '../../types.js';
import type { ParsedFlags } from '../flags.js';

export async function runWorkerCommand(flags: ParsedFlags, args: string[]): Promise<number> {
  const url = (flags.cluster as string | undefined) ?? process.env.SIMGREP_CLUSTER;
  if (!url) throw new SimgrepError('BAD_FLAG', 'simgrep worker needs the cluster\'s Redis: --cluster redis://host:6379 (or $SIMGREP_CLUSTER)');
  if (args.length > 0) throw new SimgrepError('BAD_FLAG', `simgrep worker takes no paths (got ${args[0]}): the coordinator names what to search`);
  const allowed = (flags.allow as string[] | undefined) ?? [];
  const anyPath = flags['allow-any-path'] === true;
  // Jobs come from whoever can write to Redis: the operator says what they may reach, or says "anything".
  if (allowed.length === 0 && !anyPath) {
    throw new SimgrepError('BAD_FLAG', 'simgrep worker needs to know what jobs may read and write: --allow DIR or --allow s3://bucket/prefix/ (repeatable; index jobs also write under their index directory, which must be allowed too), or --allow-any-path for anything this machine can read and write');
  }
  if (allowed.length > 0 && anyPath) throw new SimgrepError('BAD_FLAG', '--allow and --allow-any-path contradict each other: give one');
  const ownS3Endpoint = process.env.AWS_ENDPOINT_URL_S3 || process.env.AWS_ENDPOINT_URL || undefined;
  const allow = await createAllowList({ allow: allowed, anyPath, ownS3Endpoint });
  const model = (flags.model as string | undefined) ?? defaultModelSpec();
  const searcher = createSearcher({
    model,
    concurrency: flags.concurrency as number | undefined,
    embedder: flags.embedder as EmbedderKind | undefined,
    offline: flags.offline === true || undefined,
  });
  const log = (line: string) => { process.stderr.write(`simgrep worker: ${line}\n`); };
  await searcher.model(); // a broken model fails here, not on every shard
  log(anyPath ? 'jobs may read and write anything this machine can (--allow-any-path)' : `jobs may read and write only under ${allow.shown.join(', ')}`);
  const worker = await startClusterWorker({ url, searcher, model, log, allow, gcsEndpoint: flags['gcs-endpoint'] as string | undefined });
  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      log(stopping ? `${signal} again: handing back the running shards` : `${signal}: finishing the running shards, then exiting`);
      const force = stopping;
      stopping = true;
      worker.close(force).then(resolve, resolve);
    };
    for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(s, stop);
  });
  await searcher.close();
  log('stopped');
  return 0;
}
