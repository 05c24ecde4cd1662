// The candidate pass works out its term chunks' BM25s a term at a time (term-counts.ts termBm25s): each
// term's entries read once, a chunk's path terms merged in. Over many random trees (paths that hold the
// query's words, words repeated, partial coverage) and plans (a few words, a pasted block of up to 24
// terms, camelCase names), each chunk's BM25 is, bit for bit, the sum made term by term in term order
// (its lines' count and its path's added before the saturation, as the per-chunk merge sums them), and
// the pass picks what laying the counts out per chunk picks, with the same counts.
import { describe, expect, it } from 'vitest';
import { bundledLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan } from '../../../src/rank/plan.js';
import { toFloat16 } from '../../../src/workspace/packed/float16.js';
import { cosineKernelNow } from '../../../src/workspace/search/chunk-cosines.js';
import { selectCandidates, type CandidateCounts } from '../../../src/workspace/search/candidates.js';
import { coveredPaths } from '../../../src/workspace/search/covered-paths.js';
import { setTermWalk, termBm25s, WALK_TERMS } from '../../../src/workspace/search/term-counts.js';
import { pathInfo } from '../../../src/workspace/snapshot/path-info.js';
import { emptySnapshot, patchSnapshot, type ChunkRow, type Snapshot } from '../../../src/workspace/snapshot/snapshot.js';
import { TermCollector } from '../../../src/workspace/snapshot/term-collector.js';
import type { RankPlan } from '../../../src/rank/plan.js';
import { mulberry32 } from '../../helpers/seeded.js';
import { idents } from '../../helpers/snapshots.js';

const DIM = 16;
const WORDS = ['retry', 'upload', 'failed', 'config', 'parse', 'session', 'token', 'cache', 'file', 'handler', 'request', 'queue', 'worker', 'value', 'index', 'string', 'buffer', 'stream', 'client', 'server', 'socket', 'route', 'table', 'store', 'event', 'timer', 'match', 'limit'];
const unit = (v: Float32Array) => { const norm = Math.hypot(...v); return v.map((x) => x / norm); };

function tree(seed: number): { snap: Snapshot; appended: Snapshot; rnd: () => number } {
  const rnd = mulberry32(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
  const camel = () => `${pick(WORDS)}${pick(WORDS).replace(/^./, (x) => x.toUpperCase())}`;
  const nFiles = 20 + Math.floor(rnd() * 60);
  // Paths that hold query words in their directories and names, more than one at times.
  const keys = Array.from({ length: nFiles }, (_, f) => `/t/${rnd() < 0.4 ? `${pick(WORDS)}-${pick(WORDS)}` : `mod-${f % 6}`}/${rnd() < 0.4 ? camel() : 'part'}-${f}.ts`).sort();
  const changes = (keys: string[], dropped: Set<string>) => {
  const terms = new TermCollector();
  const rows: ChunkRow[] = [];
  for (const key of keys) {
    for (let c = 0, n = 1 + Math.floor(rnd() * 5); c < n; c++) {
      const text = Array.from({ length: Math.floor(rnd() * 14) }, () => (rnd() < 0.55 ? pick(WORDS) : rnd() < 0.5 ? camel() : `x${Math.floor(rnd() * 40)}`)).join(' ');
      terms.add(rows.length, idents(terms, text));
      rows.push({ path: key, start: c * 48, end: c * 48 + 48, hasTokens: rnd() > 0.05, chars: 30 + Math.floor(rnd() * 2000), blank: rnd() < 0.03, defs: [], halves: toFloat16(unit(Float32Array.from({ length: DIM }, () => rnd() - 0.5))) });
    }
  }
  const files = keys.map((key) => ({ key, size: 1, mtime: 1, hash: `${key}${rows.length}`, kind: 'text' as const, lines: 240 }));
  return { dropChunksOf: dropped, dropFiles: new Set<string>(), files, rows, terms };
  };
  const snap = patchSnapshot(emptySnapshot(DIM, '1.1'), changes(keys, new Set()), '1.1');
  // A few files changed: their chunks appended after the last one, the files no longer in chunk order (walked all the same).
  const changed = keys.filter((_, f) => f % 7 === 3);
  return { snap, appended: patchSnapshot(snap, changes(changed, new Set(changed)), '1.2', { compactAbove: 0.9 }), rnd };
}

/** Per plan term, each chunk's count summed over its list's entries (the lines' counts reference() adds). */
function listedCounts(s: Snapshot, plan: RankPlan): Map<number, number>[] {
  return plan.terms.map((term) => {
    const m = new Map<number, number>();
    const found = (term.whole ? s.byLower : s.byStem).find(term.key);
    if (found) for (let j = 0; j < found.chunk.length; j++) m.set(found.chunk[j], (m.get(found.chunk[j]) ?? 0) + found.count[j]);
    return m;
  });
}

/** Chunk c's BM25 term by term in term order: its lines' count and its path's, added before the saturation (candidates.ts bm25Of's sum). */
function reference(s: Snapshot, plan: RankPlan, c: number, lines: Map<number, number>[], path: ReturnType<typeof coveredPaths>): number {
  const { k1, b, avgdl, tokensPerChar } = plan.bm25;
  const f = s.chunkFile[c];
  const norm = k1 * (1 - b + (b * ((s.chars[c] + path.pathLengthOf[f]) * tokensPerChar)) / avgdl);
  let bm25 = 0;
  for (let t = 0; t < plan.terms.length; t++) {
    let f2 = lines[t].get(c) ?? 0;
    if (path.pathStart[f] >= 0) for (let p = path.pathStart[f]; p < path.pathEnd[f]; p++) if (path.pathTerm[p] === t) f2 += path.pathCount[p];
    if (f2 > 0) bm25 += plan.terms[t].idf * (f2 * (k1 + 1)) / (f2 + norm);
  }
  return bm25;
}

describe('the term chunks\' BM25s a term at a time', () => {
  it('are the term-by-term sums, bit for bit, and pick what per-chunk counts pick', () => {
    let chunks = 0;
    let pathMerged = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const { snap: compacted, appended, rnd } = tree(seed);
      expect(cosineKernelNow(compacted.halves, DIM)).not.toBeNull();
      const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
      for (let k = 0; k < 8; k++) {
        // The last two plans over the appended snapshot (its files not in chunk order): walked all the same.
        const snap = k < 6 ? compacted : appended;
        const all = snap.files.map((f) => f.key.slice(3));
        const gaps = all.map((p, i) => ((i + seed) % 5 < 1 ? undefined : p));
        // A few words, or a pasted block of up to WALK_TERMS terms with camelCase names.
        const n = k < 2 ? 1 + Math.floor(rnd() * 3) : 6 + Math.floor(rnd() * 30);
        const text = Array.from({ length: n }, () => (rnd() < 0.7 ? pick(WORDS) : `${pick(WORDS)}${pick(WORDS).replace(/^./, (x) => x.toUpperCase())}`)).join(k % 2 ? ' ' : '(');
        const mode = pick(['hybrid', 'lexical'] as const);
        const plan = buildRankPlan(text, mode, bundledLexicon(), 1, 64);
        if (plan.terms.length > WALK_TERMS) continue;
        const display = k % 3 === 0 ? gaps : all;
        const query = unit(Float32Array.from({ length: DIM }, () => rnd() - 0.5));
        const q = { plan, query, display, heapSize: pick([5, 20, 60]), resident: true };
        const path = coveredPaths(snap, q);
        const lines = listedCounts(snap, plan);
        const got = termBm25s(snap, plan, path, Float64Array.from(plan.terms, (t) => t.idf));
        expect(got, `seed ${seed} "${text}"`).not.toBeNull();
        if (!got) continue;
        for (let c = 0; c < snap.start.length; c++) {
          const f = snap.chunkFile[c];
          const holds = f >= 0 && path.covered[f] !== 0 && lines.some((m) => m.has(c));
          expect(got.held[c], `seed ${seed} "${text}" chunk ${c}`).toBe(holds ? 1 : 0);
          if (!holds) continue;
          chunks++;
          if (path.pathStart[f] >= 0 && path.pathEnd[f] > path.pathStart[f]) pathMerged++;
          expect(got.bm25[c], `seed ${seed} "${text}" chunk ${c}`).toBe(reference(snap, plan, c, lines, path));
        }
        // The pass picks what the per-chunk counts pick, with the same counts.
        const run = (walk: boolean) => {
          setTermWalk(walk);
          try {
            const counts = {} as CandidateCounts;
            return { picked: selectCandidates(snap, q, counts), counts: { ...counts, laidOut: 0 } };
          } finally { setTermWalk(true); }
        };
        expect(run(true), `seed ${seed} ${mode} "${text}"`).toEqual(run(false));
      }
    }
    // Enough term chunks, many of them in files whose path holds a query term.
    expect(chunks).toBeGreaterThan(5000);
    expect(pathMerged).toBeGreaterThan(1000);
  });
  it('add up a chunk listed twice in a row, decline a list that does not ascend, and settings whose norm can reach 0', () => {
    const { snap } = tree(7);
    const plan = buildRankPlan(WORDS.slice(0, 12).join(' '), 'hybrid', bundledLexicon(), 1, 64);
    const display = snap.files.map((f) => f.key.slice(3));
    const q = { plan, query: unit(Float32Array.from({ length: DIM }, (_, i) => Math.sin(i + 1))), display, heapSize: 20, resident: true };
    const path = coveredPaths(snap, q);
    const idf = Float64Array.from(plan.terms, (t) => t.idf);
    type Lists = Snapshot['byLower'];
    const wrap = (lists: Lists, f: (chunk: ArrayLike<number>, count: ArrayLike<number>) => { chunk: number[]; count: number[] }): Lists =>
      Object.create(lists, { find: { value: (key: string) => { const got = lists.find(key); return got ? { ...got, ...f(got.chunk, got.count) } : got; } } });
    const twice = (chunk: ArrayLike<number>, count: ArrayLike<number>) => ({ chunk: Array.from(chunk).flatMap((c) => [c, c]), count: Array.from(count).flatMap((n) => [n, n]) });
    const again = (chunk: ArrayLike<number>, count: ArrayLike<number>) => ({ chunk: [...Array.from(chunk), ...Array.from(chunk)], count: [...Array.from(count), ...Array.from(count)] });
    const run = (s: Snapshot, walk: boolean) => {
      setTermWalk(walk);
      try { const counts = {} as CandidateCounts; return { picked: selectCandidates(s, q, counts), counts: { ...counts, laidOut: 0 } }; } finally { setTermWalk(true); }
    };
    // Each entry twice in a row (a layer and its tail): one count, the sum of both.
    const doubled = { ...snap, byLower: wrap(snap.byLower, twice), byStem: wrap(snap.byStem, twice) } as Snapshot;
    const lines = listedCounts(doubled, plan);
    const got = termBm25s(doubled, plan, path, idf);
    expect(got).not.toBeNull();
    let held = 0;
    for (let c = 0; c < doubled.start.length; c++) if (got!.held[c]) { held++; expect(got!.bm25[c], `chunk ${c}`).toBe(reference(doubled, plan, c, lines, path)); }
    expect(held).toBeGreaterThan(20);
    expect(run(doubled, true)).toEqual(run(doubled, false));
    // A list followed by itself: a chunk's repeats apart, so the pass declines (the counts are laid out per chunk).
    const repeated = { ...snap, byLower: wrap(snap.byLower, again), byStem: wrap(snap.byStem, again) } as Snapshot;
    expect(termBm25s(repeated, plan, path, idf)).toBeNull();
    // BM25 settings under which a norm can be 0 or below (k1 0, b past 1): declined, not misread.
    for (const bm25 of [{ k1: 0 }, { b: 1.3 }, { avgdl: 0 }]) expect(termBm25s(snap, { ...plan, bm25: { ...plan.bm25, ...bm25 } }, path, idf)).toBeNull();
  });

  it('walk only the covered chunks\' span of each list, and still decline a list that does not ascend outside it', () => {
    // A search of a directory: the files of the middle third covered (a run of chunks), the others not (as an
    // index that holds another root's files, or a search under one directory).
    for (let seed = 41; seed <= 60; seed++) {
      const { snap } = tree(seed);
      const nf = snap.files.length;
      const display = snap.files.map((f, i) => (i >= nf / 3 && i < (2 * nf) / 3 ? f.key.slice(3) : undefined));
      const plan = buildRankPlan(WORDS.slice(seed % 10, (seed % 10) + 4 + (seed % 5)).join(' '), 'hybrid', bundledLexicon(), 1, 64);
      const q = { plan, query: unit(Float32Array.from({ length: DIM }, (_, i) => Math.sin(i + seed))), display, heapSize: 20, resident: true };
      const path = coveredPaths(snap, q);
      const idf = Float64Array.from(plan.terms, (t) => t.idf);
      const lines = listedCounts(snap, plan);
      const got = termBm25s(snap, plan, path, idf);
      expect(got).not.toBeNull();
      let held = 0;
      for (let c = 0; c < snap.start.length; c++) {
        const holds = path.covered[snap.chunkFile[c]] !== 0 && lines.some((m) => m.has(c));
        expect(got!.held[c], `seed ${seed} chunk ${c}`).toBe(holds ? 1 : 0);
        if (holds) { held++; expect(got!.bm25[c], `seed ${seed} chunk ${c}`).toBe(reference(snap, plan, c, lines, path)); }
      }
      expect(held).toBeGreaterThan(0);
      // Lists that descend only before or only after the covered span: declined all the same.
      type Lists = Snapshot['byLower'];
      const covered = snap.files.filter((_, i) => display[i] !== undefined);
      const lo = covered[0].firstChunk;
      const hi = covered[covered.length - 1].firstChunk + covered[covered.length - 1].chunkCount;
      const swapped = (where: 'before' | 'after') => (lists: Lists): Lists => Object.create(lists, { find: { value: (key: string) => {
        const got = lists.find(key);
        if (!got) return got;
        const chunk = Array.from(got.chunk);
        const count = Array.from(got.count);
        // Two entries outside the span swapped, so the list descends there.
        const outside = chunk.map((c, j) => (where === 'before' ? c < lo : c >= hi) ? j : -1).filter((j) => j >= 0);
        if (outside.length >= 2 && chunk[outside[0]] !== chunk[outside[1]]) {
          [chunk[outside[0]], chunk[outside[1]]] = [chunk[outside[1]], chunk[outside[0]]];
          [count[outside[0]], count[outside[1]]] = [count[outside[1]], count[outside[0]]];
        }
        return { chunk, count };
      } } });
      for (const where of ['before', 'after'] as const) {
        const bad = { ...snap, byLower: swapped(where)(snap.byLower), byStem: swapped(where)(snap.byStem) } as Snapshot;
        const descends = plan.terms.some((term) => {
          const c = (term.whole ? bad.byLower : bad.byStem).find(term.key)?.chunk;
          return c !== undefined && Array.from(c).some((x, j) => j > 0 && x < c[j - 1]);
        });
        if (descends) expect(termBm25s(bad, plan, path, idf), `seed ${seed} ${where}`).toBeNull();
      }
    }
  });

  it('keep each coverage\'s norms across queries (the caller\'s facts given, its display lists reused), for its span only, and not past a new snapshot', () => {
    // As a resident workspace asks: the same display list and facts from query to query, two lists in turn
    // (the whole tree, its middle third), then a snapshot with a few files changed and compacted again.
    for (let seed = 61; seed <= 70; seed++) {
      const { snap, rnd } = tree(seed);
      const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
      const again = patchSnapshot(snap, { dropChunksOf: new Set(), dropFiles: new Set(), files: [], rows: [], terms: new TermCollector() }, '1.3', { compactAbove: 0 });
      const displaysOf = (s: Snapshot) => {
        const nf = s.files.length;
        const whole = s.files.map((f) => f.key.slice(3));
        const third = s.files.map((f, i) => (i >= nf / 3 && i < (2 * nf) / 3 ? f.key.slice(3) : undefined));
        return [whole, third].map((display) => ({ display, infos: display.map((p) => (p === undefined ? undefined : pathInfo(p))) }));
      };
      for (const s of [snap, again]) {
        const displays = displaysOf(s);
        for (let k = 0; k < 6; k++) {
          const { display, infos } = displays[k % 2];
          const plan = buildRankPlan(Array.from({ length: 2 + (k % 4) }, () => pick(WORDS)).join(' '), 'hybrid', bundledLexicon(), 1, 64);
          const q = { plan, query: unit(Float32Array.from({ length: DIM }, (_, i) => Math.sin(i + seed + k))), display, infos, heapSize: 20, resident: true };
          const path = coveredPaths(s, q);
          const lines = listedCounts(s, plan);
          const got = termBm25s(s, plan, path, Float64Array.from(plan.terms, (t) => t.idf));
          expect(got, `seed ${seed} query ${k}`).not.toBeNull();
          for (let c = 0; c < s.start.length; c++) {
            const holds = path.covered[s.chunkFile[c]] !== 0 && lines.some((m) => m.has(c));
            expect(got!.held[c], `seed ${seed} query ${k} chunk ${c}`).toBe(holds ? 1 : 0);
            if (holds) expect(got!.bm25[c], `seed ${seed} query ${k} chunk ${c}`).toBe(reference(s, plan, c, lines, path));
          }
        }
      }
    }
  });
});

/** Every list of `lists` (a layer and its tail joined): whether each ascends by chunk. */
function listsAscend(lists: Snapshot['byLower']): boolean {
  const keys = new Set<string>();
  for (let l: typeof lists | null = lists; l; l = l.tail) for (let i = 0; i < l.keys.length; i++) keys.add(l.keys.at(i)!);
  for (const key of keys) {
    const { chunk } = lists.find(key)!;
    for (let j = 1; j < chunk.length; j++) if (chunk[j] < chunk[j - 1]) return false;
  }
  return keys.size > 0;
}

/** Per key, each live chunk's count by the chunk's file and place (chunk numbers differ between snapshots of one tree). */
function countsByPlace(s: Snapshot, lists: Snapshot['byLower'], dropped = ''): Map<string, number> {
  const out = new Map<string, number>();
  const keys = new Set<string>();
  for (let l: typeof lists | null = lists; l; l = l.tail) for (let i = 0; i < l.keys.length; i++) keys.add(l.keys.at(i)!);
  for (const key of keys) {
    const { chunk, count } = lists.find(key)!;
    for (let j = 0; j < chunk.length; j++) {
      const f = s.chunkFile[chunk[j]];
      if (f < 0 || s.files[f].key === dropped) continue;
      const at = `${key} ${s.files[f].key} ${s.start[chunk[j]]}`;
      out.set(at, (out.get(at) ?? 0) + count[j]);
    }
  }
  return out;
}

describe('the lists after an update', () => {
  it('ascend after an update, appended or compacting (changed files and a tail put back in file order), so the walk runs, with the same counts and BM25s', () => {
    let walked = 0;
    for (let seed = 61; seed <= 80; seed++) {
      const { snap, appended, rnd } = tree(seed);
      // Files in the middle changed, their rows given last file first (as files finish indexing in any order).
      const keys = snap.files.map((f) => f.key);
      const changed = keys.filter((_, f) => f % 5 === 2).reverse();
      const terms = new TermCollector();
      const rows: ChunkRow[] = [];
      for (const key of changed) {
        for (let c = 0; c < 1 + (key.length % 3); c++) {
          terms.add(rows.length, idents(terms, `${WORDS[(seed + c) % WORDS.length]} ${WORDS[(seed * 3 + c) % WORDS.length]} retry retry`));
          rows.push({ path: key, start: c * 48, end: c * 48 + 48, hasTokens: true, chars: 300 + c, blank: false, defs: [], halves: toFloat16(unit(Float32Array.from({ length: DIM }, (_, i) => Math.sin(i + c + seed)))) });
        }
      }
      const files = changed.map((key) => ({ key, size: 2, mtime: 2, hash: `${key}2`, kind: 'text' as const, lines: 96 }));
      const ch = { dropChunksOf: new Set(changed), dropFiles: new Set<string>(), files, rows, terms };
      // Appended first (the same changes after the old chunks), then the same changes compacted, and the appended snapshot compacted.
      const tailed = patchSnapshot(snap, ch, '2', { compactAbove: 0.99 });
      const compacted = patchSnapshot(snap, ch, '2', { compactAbove: 0 });
      const recompacted = patchSnapshot(appended, { dropChunksOf: new Set(), dropFiles: new Set([keys[1]]), files: [], rows: [], terms: new TermCollector() }, '3', { compactAbove: 0 });
      expect(tailed.baseChunks).toBeLessThan(tailed.start.length);
      // Appended: the tail's chunks follow the base's, so its lists ascend too.
      for (const s of [tailed, compacted, recompacted]) for (const lists of [s.byLower, s.byStem]) expect(listsAscend(lists), `seed ${seed}`).toBe(true);
      // The same counts at the same places as the appended snapshots hold.
      for (const kind of ['byLower', 'byStem'] as const) {
        expect(countsByPlace(compacted, compacted[kind])).toEqual(countsByPlace(tailed, tailed[kind]));
        expect(countsByPlace(recompacted, recompacted[kind])).toEqual(countsByPlace(appended, appended[kind], keys[1]));
      }
      for (const s of [tailed, compacted, recompacted]) {
        for (let k = 0; k < 4; k++) {
          const text = Array.from({ length: 2 + k * 3 }, () => WORDS[Math.floor(rnd() * WORDS.length)]).join(' ');
          const plan = buildRankPlan(text, 'hybrid', bundledLexicon(), 1, 64);
          const display = s.files.map((f) => f.key.slice(3));
          const q = { plan, query: unit(Float32Array.from({ length: DIM }, () => rnd() - 0.5)), display, heapSize: 20, resident: true };
          const path = coveredPaths(s, q);
          const got = termBm25s(s, plan, path, Float64Array.from(plan.terms, (t) => t.idf));
          expect(got, `seed ${seed} "${text}"`).not.toBeNull();
          const lines = listedCounts(s, plan);
          for (let c = 0; c < s.start.length; c++) {
            if (!got!.held[c]) continue;
            walked++;
            expect(Object.is(got!.bm25[c], reference(s, plan, c, lines, path)), `seed ${seed} "${text}" chunk ${c}`).toBe(true);
          }
          const run = (walk: boolean) => {
            setTermWalk(walk);
            try { const counts = {} as CandidateCounts; return { picked: selectCandidates(s, q, counts), counts: { ...counts, laidOut: 0 } }; } finally { setTermWalk(true); }
          };
          expect(run(true)).toEqual(run(false));
        }
      }
    }
    expect(walked).toBeGreaterThan(2000);
  });
});
