// The stand-in search of bench/mcp-hops (engine.mjs, engine-side.mjs): 11 hunks of 7 lines cut from the
// tree's files (the harness's k 10 and n_lines 3), the same for the same query, at no cost to speak of.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';

export function stubWorkspace(rootReal, model) {
  const files = [];
  (function walk(d) {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (files.length >= 4000) return;
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p); else if (/\.(ts|js|py|go|rs|java|c)$/.test(e.name)) files.push(p);
    }
  })(rootReal);
  const texts = new Map();
  const linesOf = (f) => { let l = texts.get(f); if (!l) { l = readFileSync(f, 'utf8').split('\n'); texts.set(f, l); } return l; };
  function resultsFor(query, k) {
    const h = createHash('sha1').update(query).digest();
    const out = [];
    for (let i = 0; i < k; i++) {
      const f = files[h.readUInt16BE(i % 18) * (i + 1) % files.length];
      const lines = linesOf(f);
      const match = (h[(i + 3) % 20] * 7 + i) % Math.max(1, lines.length);
      const start = Math.max(0, match - 3);
      const hunk = lines.slice(start, match + 4);
      const distance = 0.4 + i * 0.05;
      out.push({ filename: f, lines: hunk, start, end: start + hunk.length, match_line: match, distance, matches: [{ line: match, distance }] });
    }
    return out;
  }
  return {
    name: 'stub',
    async search(o) {
      const q = o.query || `${o.like.path}:${o.like.line}`;
      return { results: resultsFor(q, o.topK), warnings: [], more: true, stats: { files: 9037, index: { chunks: 25142 } } };
    },
    async status() { return { name: 'stub', files: 9037, chunks: 25142, lines: 1_000_000, model, updated: null, roots: [rootReal] }; },
  };
}
