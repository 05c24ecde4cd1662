import { createWorkspace } from '../dist/src/index/workspace.js';
const ws = createWorkspace({ dir: 'bench/.tmp/index-ws', model: 'bench/.tmp/potion-8m-shape', concurrency: 2 });
const qs = ['where do we retry failed uploads', 'parse the config file and validate settings', 'UserSession', 'cache invalidation after writes', 'retry', 'render the user profile page', 'hash the password with a salt', 'open a socket and send the request'];
for (let i = 0; i < 3; i++) await ws.search({ query: 'warm ' + i, paths: ['bench/.tmp/index-tree'] });
const times = [];
for (let r = 0; r < 3; r++) for (const q of qs) { const t = performance.now(); await ws.search({ query: q, paths: ['bench/.tmp/index-tree'] }); times.push(performance.now() - t); }
times.sort((a, b) => a - b);
console.log('p50', times[times.length >> 1].toFixed(1), 'p95', times[Math.floor(times.length * 0.95)].toFixed(1));
await ws.close();
