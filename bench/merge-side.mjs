// An incremental update's postings merge (issue 30, branch merge31) of two or more builds side by side in
// one process: each build reads INDEX's snapshot, then K files spread over the tree are changed (their
// text read from disk, a line added to each chunk, the chunks cut where the index has them, terms and
// defined names counted as the indexer counts them) and the snapshot patched, compacted (compactAbove 0)
// and appended (0.99), and the appended one compacted as one more file goes (the usual compaction), the
// builds alternating per round; per patch the main thread's CPU time
// (/proc schedstat). Then, per build, how many of the compacted snapshot's lists (byLower, byStem,
// byDefLower, byDefStem) do not ascend by chunk, and of the appended one's (a layer and its tail joined).
// OUT=DIR,DIR... (one a build): the compacted snapshot written there as snapshot.bin (copy the index
// there first: bench/candidates-side.mjs DIRS= reads them).
// APPEND_OUT=DIR: the last build's appended snapshot written there as a delta beside INDEX's base (copy
// the index there first).
// Usage: [K=20] [ROUNDS=5] [OUT=dirA,dirB] [APPEND_OUT=dir] node bench/merge-side.mjs INDEX_DIR DIST [DIST...]
import { readFileSync } from 'node:fs';
const [dir, ...dists] = process.argv.slice(2);
const cpu = () => Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
const version = JSON.parse(readFileSync(`${dir}/workspace.json`, 'utf8')).meta.complete;
const k = Number(process.env.K ?? 20);
const rounds = Number(process.env.ROUNDS ?? 5);
const outs = process.env.OUT ? process.env.OUT.split(',') : [];
const builds = [];
for (const d of dists) {
  const at = (m) => import(`${d}/src/${m}`);
  const { readSnapshotFile, writeSnapshotFile, writeSnapshotDelta } = await at('workspace/snapshot/snapshot-file.js');
  const { patchSnapshot } = await at('workspace/snapshot/snapshot.js');
  const { TermCollector } = await at('workspace/snapshot/term-collector.js');
  const { chunkFeatures } = await at('workspace/snapshot/chunk-features.js');
  const snap = readSnapshotFile(`${dir}/snapshot.bin`, version);
  if (!snap) throw new Error(`${dir}: no snapshot of version ${version}`);
  builds.push({ d, snap, patchSnapshot, writeSnapshotFile, writeSnapshotDelta, changes: changesFor(snap, TermCollector, chunkFeatures), TermCollector, compact: [], append: [], recompact: [] });
}

/** K text files spread over the snapshot, each chunk's lines with one line added. */
function changesFor(snap, TermCollector, chunkFeatures) {
  const texts = snap.files.filter((f) => f.kind === 'text' && f.chunkCount > 0);
  const picked = Array.from({ length: k }, (_, i) => texts[Math.floor(((i + 0.5) * texts.length) / k)]);
  const terms = new TermCollector();
  const rows = [];
  for (const f of picked) {
    const lines = readFileSync(f.key, 'utf8').split(/\r?\n/);
    for (let c = f.firstChunk; c < f.firstChunk + f.chunkCount; c++) {
      const text = [...lines.slice(snap.start[c], snap.end[c]), 'const editedRetryUpload = 1;'];
      const feat = chunkFeatures(text, terms.identifiers);
      terms.add(rows.length, feat.identifiers);
      terms.addDefs(rows.length, feat.definitions);
      rows.push({ path: f.key, start: snap.start[c], end: snap.end[c], halves: snap.halves.slice(c * snap.dim, (c + 1) * snap.dim), hasTokens: true, chars: feat.chars, blank: feat.blank, defs: feat.definitions });
    }
  }
  const files = picked.map((f) => ({ key: f.key, size: f.size + 28, mtime: f.mtime + 1, hash: `${f.hash}x`, kind: f.kind, lines: f.lines + 1 }));
  return { dropChunksOf: new Set(files.map((f) => f.key)), dropFiles: new Set(), files, rows, terms };
}

/** Lists that do not ascend by chunk, of all lists (a layer's keys and its tail's joined). */
function unordered(p) {
  const keys = new Set();
  for (let l = p; l; l = l.tail) for (let i = 0; i < l.keys.length; i++) keys.add(l.keys.at(i));
  let bad = 0;
  for (const key of keys) {
    const { chunk } = p.find(key);
    for (let j = 1; j < chunk.length; j++) if (chunk[j] < chunk[j - 1]) { bad++; break; }
  }
  return `${bad}/${keys.size}`;
}

let last = {};
for (let r = 0; r < rounds; r++) {
  for (const b of r % 2 ? [...builds].reverse() : builds) {
    let t = cpu();
    const compacted = b.patchSnapshot(b.snap, b.changes, version, { compactAbove: 0 });
    b.compact.push(cpu() - t);
    t = cpu();
    const appended = b.patchSnapshot(b.snap, b.changes, version, { compactAbove: 0.99 });
    b.append.push(cpu() - t);
    // The usual compaction (COMPACT_ABOVE 1/8 leaves most edits appended): the appended snapshot compacted
    // when one more file goes (merge31's review).
    const gone = appended.files[3].key;
    t = cpu();
    b.patchSnapshot(appended, { dropChunksOf: new Set([gone]), dropFiles: new Set([gone]), files: [], rows: [], terms: new b.TermCollector() }, version, { compactAbove: 0 });
    b.recompact.push(cpu() - t);
    last[b.d] = { compacted, appended };
  }
}
const at = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const f = (xs) => `median ${at(xs, 0.5).toFixed(1)} min ${Math.min(...xs).toFixed(1)} max ${Math.max(...xs).toFixed(1)}`;
builds.forEach((b, i) => {
  const { compacted, appended } = last[b.d];
  console.log(`${b.d}: ${b.changes.files.length} files, ${b.changes.rows.length} chunks changed of ${b.snap.start.length}; CPU ms compacting ${f(b.compact)} | appending ${f(b.append)} | compacting the appended one ${f(b.recompact)}`);
  for (const [name, s] of [['compacted', compacted], ['appended', appended]]) {
    console.log(`  ${name}: lists not ascending: byLower ${unordered(s.byLower)}, byStem ${unordered(s.byStem)}, byDefLower ${unordered(s.byDefLower)}, byDefStem ${unordered(s.byDefStem)}`);
  }
  if (outs[i]) { b.writeSnapshotFile(`${outs[i]}/snapshot.bin`, compacted); console.log(`  compacted written to ${outs[i]}/snapshot.bin`); }
  if (process.env.APPEND_OUT && i === builds.length - 1) { b.writeSnapshotDelta(`${process.env.APPEND_OUT}/snapshot.bin`, appended); console.log(`  appended written to ${process.env.APPEND_OUT}`); }
});
process.exit(0);
