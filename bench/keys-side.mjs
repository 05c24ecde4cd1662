// A walk's keys in the index (branch sym32) side by side in one process: a walk of TREE, then per round
// each file's key and its lookup in a map of the index's keys (real paths), as a search's stale check and
// coverage do, main's `fileKey` (path.resolve per file; BASE_DIST before sym32) against `fileKeys` (the
// root's real path + the rest as walked: sources/real-paths.ts; NEW_DIST), alternating, main-thread CPU
// after a gc. Two roots: TREE as given relative to the working directory, and a symlink to it made in the
// temp directory (main's keys there are the link's: every lookup misses, and a search reads every file again).
// Usage: node --expose-gc bench/keys-side.mjs TREE BASE_DIST NEW_DIST   [ROUNDS=41]
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
const [tree, baseDist, newDist] = process.argv.slice(2).map((p) => path.resolve(p));
const rounds = Number(process.env.ROUNDS ?? 41);
const { fileKey } = await import(`${baseDist}/src/workspace/changes/file-identity.js`);
const { fileKeys } = await import(`${newDist}/src/sources/real-paths.js`);
const { createFsSource } = await import(`${newDist}/src/sources/fs.js`);
const tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-keys-side-'));
symlinkSync(tree, path.join(tmp, 'tree'));
const cpu = (f) => { const t = process.cpuUsage(); f(); const d = process.cpuUsage(t); return (d.user + d.system) / 1000; };
try {
  for (const [name, root] of [['relative', path.relative(process.cwd(), tree) || '.'], ['through a link', path.join(tmp, 'tree')]]) {
    const walked = [];
    for await (const e of createFsSource({ paths: [root] }).list()) walked.push(e.path);
    const at = new Map(walked.map((p, i) => [fileKeys([root])(p), i]));
    const a = [], b = [];
    let ha = 0, hb = 0;
    for (let i = 0; i < rounds; i++) {
      const A = () => { global.gc(); a.push(cpu(() => { ha = 0; for (const p of walked) if (at.has(fileKey(p))) ha++; })); };
      const B = () => { global.gc(); b.push(cpu(() => { hb = 0; const keyOf = fileKeys([root]); for (const p of walked) if (at.has(keyOf(p))) hb++; })); };
      if (i % 2) { A(); B(); } else { B(); A(); }
    }
    a.sort((x, y) => x - y); b.sort((x, y) => x - y);
    const mid = rounds >> 1;
    console.log(`${name} (${walked.length} files): fileKey + lookup p50 ${a[mid].toFixed(2)} ms (min ${a[0].toFixed(2)}), found ${ha}; fileKeys + lookup p50 ${b[mid].toFixed(2)} ms (min ${b[0].toFixed(2)}), found ${hb}`);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
