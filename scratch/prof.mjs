import { createWorkspace } from '../dist/src/index/workspace.js';
const ws = createWorkspace({ name: process.argv[2], concurrency: 0 });
for (let i = 0; i < 4; i++) {
  const t = performance.now();
  const r = await ws.search({ query: ['retry failed uploads', 'parse config', 'TopK', 'how are chunks scored'][i], paths: [process.argv[3]] });
  console.log(i, (performance.now() - t).toFixed(1), 'ms', r.results.length);
}
await ws.close();
