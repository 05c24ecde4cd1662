// What the side-by-side benches (bench/*-side.mjs, bench/query-length/term-cap.mjs) share: builds opened as
// resident workspaces over one index, every prose document kept and counted as the engine that built it has
// them, and a seeded pick of files and lines, so every run asks the same.
import path from 'node:path';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** Each built dist/ as a resident workspace over the index in DIR (as the engine opens it), with its searcher. */
export async function openResident(dists, dir, model) {
  const wss = []; const searchers = [];
  for (const d of dists) {
    const { createWorkspace, createSearcher } = await import(`${d}/src/library.js`);
    const searcher = createSearcher({ model, concurrency: 2 });
    searchers.push(searcher);
    wss.push(createWorkspace({ dir, model, concurrency: 2, resident: true, searcher }));
  }
  return { wss, searchers };
}

/**
 * As the engine that built the index in DIR has them (publish.ts keepIfProse): every prose document under
 * TREE kept and its line terms counted, in the build whose dist/ is D (only the tree's: an index may hold
 * files under other roots, gone since). The number kept.
 */
export async function keepProse(d, dir, tree) {
  const { readSnapshotFile } = await import(`${d}/src/workspace/snapshot/snapshot-file.js`);
  const { keepDocument, keptLinesCounted, documentState } = await import(`${d}/src/workspace/search/kept-documents.js`);
  const { isProsePath } = await import(`${d}/src/rank/prose.js`);
  const complete = JSON.parse(readFileSync(`${dir}/workspace.json`, 'utf8')).meta.complete;
  let snap = readSnapshotFile(`${dir}/snapshot.bin`, complete);
  // An index written in another build's snapshot format (the builds compared differ in it): its file list
  // read by the build named in SNAPSHOT_DIST (the one that wrote it).
  if (!snap && process.env.SNAPSHOT_DIST) snap = (await import(`${process.env.SNAPSHOT_DIST}/src/workspace/snapshot/snapshot-file.js`)).readSnapshotFile(`${dir}/snapshot.bin`, complete);
  if (!snap) throw new Error(`${d} cannot read ${dir}/snapshot.bin (another snapshot format?): set SNAPSHOT_DIST to the dist that wrote it`);
  let n = 0;
  for (const f of snap.files) if (f.kind === 'text' && isProsePath(f.key) && f.key.startsWith(path.resolve(tree) + '/') && existsSync(f.key)) { keepDocument(documentState(f), readFileSync(f.key)); n++; }
  const alive = setInterval(() => {}, 1000); await keptLinesCounted(); clearInterval(alive);
  return n;
}

/**
 * As an engine that built the index in DIR has them (publish.ts onFileRead): every code file's kept text
 * (search/kept-text.ts) put back as the bytes its build hands over (setBytes: cut into lines there where the
 * build D cuts them, branch newq44, else raw bytes a search cuts first). A resident workspace opened over an
 * index built elsewhere reads and cuts them in its warm-up instead (warm-chunks.ts): unlike the engine. The
 * number put back.
 */
export async function keepBuiltText(d, dir) {
  const { keptText } = await import(`${d}/src/workspace/search/kept-text.js`);
  const { readSnapshotFile } = await import(`${d}/src/workspace/snapshot/snapshot-file.js`);
  const { fileState } = await import(`${d}/src/workspace/snapshot/prose-stats-file.js`);
  const { isProsePath } = await import(`${d}/src/rank/prose.js`);
  const snap = readSnapshotFile(`${dir}/snapshot.bin`, JSON.parse(readFileSync(`${dir}/workspace.json`, 'utf8')).meta.complete);
  let n = 0;
  for (const f of snap.files) {
    if (f.kind !== 'text' || f.chunkCount === 0 || isProsePath(f.key)) continue;
    const state = fileState(f);
    if (!keptText.has(state)) continue;
    keptText.files.delete(state);
    try { keptText.setBytes(state, readFileSync(f.key)); n++; } catch { /* gone: a search reads it */ }
  }
  return n;
}

/** A seeded generator (the same sequence every run), a pick of n distinct items, and the files under a root with one of exts, sorted. */
export function seeded(start = 30) {
  let seed = start;
  const rand = () => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31; };
  const pick = (xs, n) => { const out = new Set(); while (out.size < Math.min(n, xs.length)) out.add(xs[Math.floor(rand() * xs.length)]); return [...out]; };
  return { rand, pick };
}

export function filesUnder(root, exts) {
  const out = [];
  const walk = (d) => { for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) { const p = path.join(d, e.name); if (e.isDirectory()) walk(p); else if (exts.includes(path.extname(e.name))) out.push(p); } };
  walk(root);
  return out;
}
