// What --ignore-case costs a resident workspace, and whether folding case changes the model's tokens
// (branch left31: could an --ignore-case search take the kept line tokens?). (1) Over every prose line of
// TREE, the ids of the line and of its toLowerCase() with MODEL's tokenizer and the bundled one; (2) N
// questions asked with case kept (the index) and with --ignore-case (a scan: search-run.ts falls back),
// alternating: process and main-thread CPU, and whether the answers are the same.
// Usage: [N=3] node bench/ignore-case.mjs INDEX_DIR TREE MODEL DIST   (DIST: an absolute path to a built dist/)
import os from 'node:os';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { filesUnder, openResident } from './side-builds.mjs';
const [dir, tree, model, dist] = process.argv.slice(2);
const { createLineTokenizer } = await import(`${dist}/src/model/tokenizer/index.js`);
const { QUERIES } = await import(`${dist}/bench/queries.js`);
const prose = filesUnder(tree, ['.md', '.txt', '.rst']);
for (const tok of [path.join(model, 'tokenizer.json'), path.join(dist, '../src/model/bundled/model/tokenizer.json')]) {
  const t = createLineTokenizer(JSON.parse(readFileSync(tok, 'utf8')), { memoEntries: 0 });
  let lines = 0, differ = 0;
  for (const f of prose) for (const line of readFileSync(f, 'utf8').split('\n')) {
    lines++;
    const a = t.encode(line), b = t.encode(line.toLowerCase());
    if (a.length !== b.length || a.some((x, i) => x !== b[i])) differ++;
  }
  const edges = ['ΑΣ\u0000Β', 'ΑΣ\uFFFDΒ'].filter((s) => { const a = t.encode(s), b = t.encode(s.toLowerCase()); return a.length !== b.length || a.some((x, i) => x !== b[i]); });
  console.log(`${tok}: ${prose.length} prose files, ${lines} lines; ids differ lowercased on ${differ}; of the two final-sigma edges, ${edges.length} differ`);
}
const { wss } = await openResident([dist], dir, model);
const main = () => Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
const all = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1e3; };
const qs = QUERIES.slice(0, Number(process.env.N ?? 3));
for (const q of qs) await wss[0].search({ query: q, paths: [tree], topK: 11 });
let differ = 0;
for (const q of qs) {
  const answers = [];
  for (const ignoreCase of [false, true]) {
    const m = main(), a = all();
    const r = await wss[0].search({ query: q, paths: [tree], topK: 11, ignoreCase });
    answers.push(JSON.stringify(r.results));
    console.log(`${ignoreCase ? '--ignore-case' : 'case kept    '} "${q}": process CPU ${(all() - a).toFixed(0)} ms, main ${(main() - m).toFixed(0)} ms, ${r.stats.index ? 'the index' : 'a scan'}`);
  }
  if (answers[0] !== answers[1]) differ++;
}
console.log(`${differ} of ${qs.length} answers differ with --ignore-case; load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
process.exit(0);
