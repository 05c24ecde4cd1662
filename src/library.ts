// The searcher and workspace the package hands out: the core's, with the cluster adapter plugged into
// their seams (searcher/api.ts's ClusterSearch, workspace.ts's ClusterIndexUpdater). The adapter's code,
// BullMQ and ioredis load only when a search or an index run names a cluster.
import { createSearcher as createCoreSearcher } from './searcher.js';
import { type ClusterSearch, type Searcher, type SearcherOptions } from './searcher/api.js';
import { createWorkspace as createCoreWorkspace, type ClusterIndexUpdater, type Workspace, type WorkspaceOptions } from './workspace/workspace.js';

const clusterSearch: ClusterSearch = async (o, ctx) => (await import('./cluster/coordinator.js')).clusterSearch(o, ctx);

const clusterIndex: ClusterIndexUpdater = async (cluster, ctx) => (await import('./cluster/index-coordinator.js')).clusterIndexUpdater(cluster, ctx);

export function createSearcher(opts: SearcherOptions = {}): Searcher {
  return createCoreSearcher({ ...opts, clusterSearch: opts.clusterSearch ?? clusterSearch });
}

export function createWorkspace(o: WorkspaceOptions = {}): Workspace {
  return createCoreWorkspace({ ...o, clusterSearch: o.clusterSearch ?? clusterSearch, clusterIndex: o.clusterIndex ?? clusterIndex });
}
