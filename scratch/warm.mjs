import { createWorkspace } from '../dist/src/index/workspace.js';
const ws = createWorkspace({ dir: 'bench/.tmp/index-ws', model: 'bench/.tmp/potion-8m-shape', concurrency: 2 });
const qs = ['where do we retry failed uploads', 'parse the config file and validate settings', 'UserSession', 'cache invalidation after writes', 'retry'];
await ws.search({ query: 'warm', paths: ['bench/.tmp/index-tree'] });
for (const q of qs) { const t = performance.now(); await ws.search({ query: q, paths: ['bench/.tmp/index-tree'] }); console.log(q, (performance.now() - t).toFixed(0)); }
await ws.close();
