// The same measure in one process (createSearcher, concurrency 0, no index; median of 3), so start-up
// does not hide the query's own cost. Usage: node bench/query-length/in-process.mjs DIST/src/index.js TREE_DIR
// (queries: /tmp/qlen/q{1000,16000,100000}.txt, made by head -c N of src/*.ts src/*/*.ts).
import { readFileSync } from 'node:fs';
const { createSearcher } = await import(process.argv[2]);
const s = createSearcher({ concurrency: 0, offline: true });
const queries = { short: 'retry failed uploads', 1000: readFileSync('/tmp/qlen/q1000.txt', 'utf8'), 16000: readFileSync('/tmp/qlen/q16000.txt', 'utf8'), 100000: readFileSync('/tmp/qlen/q100000.txt', 'utf8') };
await s.search({ query: 'warm up', paths: [process.argv[3]] });
const out = {};
for (const [name, q] of Object.entries(queries)) {
  const ts = [];
  for (let i = 0; i < 3; i++) { const t = performance.now(); await s.search({ query: q, paths: [process.argv[3]], topK: 3 }); ts.push(performance.now() - t); }
  ts.sort((a, b) => a - b);
  out[name] = Math.round(ts[1]);
}
console.log(JSON.stringify(out));
await s.close();
