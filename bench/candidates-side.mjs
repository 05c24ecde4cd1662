// The candidate pass (selectCandidates, issue 30) of two or more builds side by side in one process over
// one workspace index: the bench's 40 questions in hybrid, semantic and lexical mode (top 11: a heap of
// 54), the builds alternating per call so each sees the same load; per call the main thread's CPU time
// (/proc schedstat), and whether every build picked the same chunks. The inputs are those a resident
// workspace search of TREE gives the pass: every indexed file under TREE shown under TREE's name, the
// prose files left out when the plan ranks prose (prose-source.ts), cosines from the SIMD kernel (made
// before the first call, as a warm engine has it). The first round is a first-time search of each
// question (its plan new to the process); later rounds repeat them. A build that reports counts
// (a third argument) has them printed: chunks, bounded exactly, cosines, files passed over.
// LIKE=N (branch related30c): N find_related queries instead, as likeChunk cuts them (the 48-line chunk
// around a seeded line of a seeded code or Markdown file under TREE), hybrid, top 10 (a heap of 66).
// DIRS=DIR,DIR... (branch merge31): each build reads its own index dir's snapshot (the same tree: e.g. one
// updated by each build, bench/merge-side.mjs OUT=); the counts then say how many term counts were laid
// out per chunk (laid out: the term-at-a-time walk declined).
// Usage: [ROUNDS=3] [MODES=hybrid,semantic,lexical] [LIKE=240] [DIRS=a,b] node bench/candidates-side.mjs INDEX_DIR TREE MODEL DIST [DIST...]
import os from 'node:os';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { filesUnder, seeded } from './side-builds.mjs';
const [dir, tree, model, ...dists] = process.argv.slice(2);
const cpu = () => Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
const version = JSON.parse(readFileSync(`${dir}/workspace.json`, 'utf8')).meta.complete;
const root = path.resolve(tree);
const builds = [];
const dirs = process.env.DIRS ? process.env.DIRS.split(',') : [];
for (const [i, d] of dists.entries()) {
  const at = (m) => import(`${d}/src/${m}`);
  const { selectCandidates } = await at('workspace/search/candidates.js');
  const { readSnapshotFile } = await at('workspace/snapshot/snapshot-file.js');
  const { pathInfo } = await at('workspace/snapshot/path-info.js');
  const { queryMode } = await at('rank/query-mode.js');
  const { bundledLexicon } = await at('rank/lexical/lexicon.js');
  const { isProsePath } = await at('rank/prose.js');
  const { cosineKernelNow } = await at('workspace/search/chunk-cosines.js');
  const snap = readSnapshotFile(`${dirs[i] ?? dir}/snapshot.bin`, version);
  if (!snap) throw new Error(`${dir}: no snapshot of version ${version}`);
  cosineKernelNow(snap.halves, snap.dim);
  const display = snap.files.map((f) => (f.key.startsWith(`${root}/`) && f.kind === 'text' ? path.join(tree, f.key.slice(root.length + 1)) : undefined));
  const code = display.map((p) => (p !== undefined && isProsePath(p) ? undefined : p));
  const infos = display.map((p) => (p === undefined ? undefined : pathInfo(p)));
  builds.push({ d, selectCandidates, snap, queryMode, bundledLexicon, display, code, infos, first: [], again: [], counts: [], byMode: {} });
}
const { createSearcher } = await import(`${dists[0]}/src/library.js`);
const searcher = createSearcher({ model, concurrency: 0 });
const { QUERIES, AGENT_QUERIES } = await import(`${dists[0]}/bench/queries.js`);
const like = Number(process.env.LIKE ?? 0);
const questions = like > 0 ? likeQueries(like) : [...QUERIES, ...AGENT_QUERIES];
/** n chunks' text, as likeChunk cuts them around a seeded line. */
function likeQueries(n) {
  const { rand, pick } = seeded(31);
  const out = [];
  for (const f of pick(filesUnder(tree, ['.ts', '.py', '.go', '.rs', '.js', '.java', '.md']), n)) {
    const lines = readFileSync(f, 'utf8').split(/\r?\n/);
    const start = Math.floor(Math.floor(rand() * Math.max(1, lines.length - 1)) / 48) * 48;
    const text = lines.slice(start, start + 48).join('\n').slice(0, 20_000);
    if (text.trim()) out.push(text);
  }
  return out;
}
const vectors = [];
for (const q of questions) vectors.push(await searcher.embed([q]));
await searcher.close();
const modes = like > 0 ? ['hybrid'] : (process.env.MODES ?? 'hybrid,semantic,lexical').split(',');
const heapSize = like > 0 ? 14 * 4 + 10 : 11 * 4 + 10;
const rounds = Number(process.env.ROUNDS ?? 3);
let differ = 0;
let calls = 0;
for (let r = 0; r < rounds; r++) {
  for (const mode of modes) {
    questions.forEach((text, i) => {
      const picked = [];
      const order = (i + r) % 2 === 0 ? builds : [...builds].reverse();
      for (const b of order) {
        const query = vectors[i];
        const plan = b.queryMode(text, mode, query.some((x) => x !== 0), b.bundledLexicon()).rank;
        const counts = {};
        const t = cpu();
        const out = b.selectCandidates(b.snap, { plan, query, display: plan.prose ? b.code : b.display, infos: b.infos, heapSize, resident: true }, counts);
        const spent = cpu() - t;
        (r === 0 ? b.first : b.again).push(spent);
        (b.byMode[mode] ??= []).push(spent);
        if (r === 0) b.counts.push({ mode, ...counts, picked: out.length });
        picked[builds.indexOf(b)] = out.join(',');
      }
      calls++;
      if (picked.some((p) => p !== picked[0])) { differ++; console.log(`differs: ${mode} ${text.slice(0, 80)}`); }
    });
  }
}
const at = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const f = (xs) => (xs.length ? `p50 ${at(xs, 0.5).toFixed(2)} p90 ${at(xs, 0.9).toFixed(2)} mean ${(xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(2)}` : '-');
for (const b of builds) {
  console.log(`${b.d}: CPU ms, first time ${f(b.first)} | again ${f(b.again)}`);
  for (const mode of modes) {
    const cs = b.counts.filter((c) => c.mode === mode && c.chunks !== undefined);
    if (cs.length === 0) { console.log(`  ${mode}: CPU ms, every round: ${f(b.byMode[mode])}`); continue; }
    const mean = (k) => (cs.reduce((s, c) => s + c[k], 0) / cs.length).toFixed(0);
    console.log(`  ${mode} (CPU ms, every round: ${f(b.byMode[mode])}): chunks ${mean('chunks')}, bounded ${mean('bounded')}, cosines ${mean('cosines')}, term chunks ${mean('termChunks')} (${mean('skippedTermChunks')} passed over), files ${mean('files')} (${mean('skippedFiles')} passed over), picked ${mean('picked')}, laid out ${mean('laidOut')}`);
  }
}
console.log(`${differ} of ${calls} calls picked otherwise; load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
process.exit(0);
