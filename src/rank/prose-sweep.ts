// Every kept prose document's best line for a plan, found in one pass over all of them (issue 30): the
// documents' postings laid out across documents (per key its documents, per gram its documents' lines
// with each line's BM25 part), so a query walks only the lists of its own keys and grams, in order,
// instead of visiting each document's arrays; per-document constants (idf, norms) worked out once.
import { PROSE_B, PROSE_K1, proseLexical, type ProseStats } from './prose.js';
import { gramIdsOf } from './prose-doc-grams.js';
import { keyCount, keyIdOf, proseTermKeys, KEY_MOST, type PackedProseLines } from './prose-lines-build.js';
import type { RankPlan } from './plan.js';

/** The documents to sweep (kept documents once counted: prose-lines-build.ts), in the order they came. */
const members = new Set<PackedProseLines>();
/** How many members are not in the sweep yet, and how many of the sweep's documents were dropped since. */
let pending = 0;
let dropped = 0;

/**
 * The documents' postings across documents, made from the members in one go (`docs`, a slot each:
 * PackedProseLines.sweepSlot). Key id k's documents at [keyStart[k], keyStart[k + 1]): the slot, the key's
 * index in that document's ids and its idf there. Gram id g's documents at [gramStart[g], gramStart[g + 1])
 * of the runs: the slot, the gram's idf there and its lines at [runEntry[r], runEntry[r + 1]) of `line`
 * (numbered across documents: lineBase[slot] + the document's line) and `part` (the line's BM25 part of
 * the gram at an idf of 1, rounded up as PackedProseLines' parts are).
 */
interface Sweep {
  readonly docs: PackedProseLines[];
  readonly dead: Uint8Array;
  readonly lineBase: Int32Array;
  readonly lineSlot: Int32Array;
  /** Per slot, the idf of a term no line holds (proseStatsOf's `none`, each norm's unit). */
  readonly none: Float64Array;
  readonly keyStart: Int32Array;
  readonly keySlot: Int32Array;
  readonly keyAt: Int32Array;
  readonly keyIdf: Float64Array;
  readonly gramStart: Int32Array;
  readonly runSlot: Int32Array;
  readonly runIdf: Float64Array;
  readonly runEntry: Int32Array;
  readonly line: Int32Array;
  readonly part: Float32Array;
  /** Which build this is (a plan's bests are worked out again for a new one). */
  readonly version: number;
}

let sweep: Sweep | null = null;
let versions = 0;

/** Adds a counted document: it is swept from the next rebuild on (bounded per document until then). */
export function sweepDocument(t: PackedProseLines): void {
  if (members.has(t)) return;
  members.add(t);
  t.sweepSlot = -1;
  pending++;
}

/** Drops a document (its keeper let it go): never swept again. */
export function unsweepDocument(t: PackedProseLines): void {
  if (!members.delete(t)) return;
  if (t.sweepSlot >= 0 && sweep && sweep.docs[t.sweepSlot] === t) {
    // The other documents' bests for a plan do not change: only its runs are skipped from now on.
    sweep.dead[t.sweepSlot] = 1;
    dropped++;
  } else pending--;
  t.sweepSlot = -1;
}

/**
 * The sweep, made again when enough has changed since (a new document is bounded on its own until
 * then: rebuilding for each of a few changed documents would cost more than bounding them one by one).
 */
function current(): Sweep | null {
  if (members.size === 0) return null;
  const swept = sweep ? sweep.docs.length - dropped : 0;
  if (!sweep || pending * 8 > swept || dropped * 2 > sweep.docs.length) sweep = build([...members]);
  return sweep;
}

/** Makes the sweep now if one is due (after a batch of documents is counted, so a search does not make it). */
export function prepareSweep(): void {
  current();
}

/** A float32 at least `x` (x >= 0), as prose-lines-build.ts rounds its parts. */
const up = (x: number): number => Math.fround(x * (1 + 1e-6));

function build(docs: PackedProseLines[]): Sweep {
  const n = docs.length;
  const lineBase = new Int32Array(n + 1);
  const none = new Float64Array(n);
  let nKeys = 0;
  let nRuns = 0;
  let nEntries = 0;
  let maxGram = -1;
  docs.forEach((t, s) => {
    t.sweepSlot = s;
    lineBase[s + 1] = lineBase[s] + t.lines;
    none[s] = Math.log(1 + (t.docs + 0.5) / 0.5);
    nKeys += t.ids.length;
    nRuns += t.grams.gramId.length;
    nEntries += t.grams.line.length;
    for (const g of t.grams.gramId) if (g > maxGram) maxGram = g;
  });
  const lineSlot = new Int32Array(lineBase[n]);
  for (let s = 0; s < n; s++) lineSlot.fill(s, lineBase[s], lineBase[s + 1]);
  // Keys: a counting sort by key id, documents in slot order within a key.
  const keyStart = new Int32Array(keyCount() + 1);
  for (const t of docs) for (const id of t.ids) keyStart[id + 1]++;
  for (let k = 0; k + 1 < keyStart.length; k++) keyStart[k + 1] += keyStart[k];
  const keyFill = keyStart.slice(0, keyStart.length - 1);
  const keySlot = new Int32Array(nKeys);
  const keyAt = new Int32Array(nKeys);
  const keyIdf = new Float64Array(nKeys);
  docs.forEach((t, s) => {
    const m = t.docs;
    for (let x = 0; x < t.ids.length; x++) {
      const p = keyFill[t.ids[x]]++;
      const df = t.keyMost[KEY_MOST * x];
      keySlot[p] = s;
      keyAt[p] = x;
      // proseStatsOf's idf of a term df lines hold (the same float).
      keyIdf[p] = Math.log(1 + (m - df + 0.5) / (df + 0.5));
    }
  });
  // Grams: runs by gram id, then the runs' lines laid out in run order.
  const gramStart = new Int32Array(maxGram + 2);
  for (const t of docs) for (const g of t.grams.gramId) gramStart[g + 1]++;
  for (let g = 0; g + 1 < gramStart.length; g++) gramStart[g + 1] += gramStart[g];
  const runFill = gramStart.slice(0, gramStart.length - 1);
  const runSlot = new Int32Array(nRuns);
  const runIdf = new Float64Array(nRuns);
  const runFrom = new Int32Array(nRuns);
  const runEntry = new Int32Array(nRuns + 1);
  docs.forEach((t, s) => {
    const d = t.grams;
    for (let i = 0; i < d.gramId.length; i++) {
      const r = runFill[d.gramId[i]]++;
      const df = d.gramDf[i];
      runSlot[r] = s;
      runIdf[r] = Math.log(1 + (t.docs - df + 0.5) / (df + 0.5));
      runFrom[r] = i;
      runEntry[r + 1] = d.lineStart[i + 1] - d.lineStart[i];
    }
  });
  for (let r = 0; r < nRuns; r++) runEntry[r + 1] += runEntry[r];
  const line = new Int32Array(nEntries);
  const part = new Float32Array(nEntries);
  for (let r = 0; r < nRuns; r++) {
    const t = docs[runSlot[r]];
    const d = t.grams;
    const i = runFrom[r];
    const base = lineBase[runSlot[r]];
    // ProseStats.avgChars of the document, as proseStatsOf works it out.
    const avgChars = t.docs > 0 ? t.chars / t.docs : 1;
    let e = runEntry[r];
    for (let j = d.lineStart[i]; j < d.lineStart[i + 1]; j++, e++) {
      const l = d.line[j];
      const f = d.count[j];
      const norm = PROSE_K1 * (1 - PROSE_B + (PROSE_B * t.lengths[l]) / avgChars);
      line[e] = base + l;
      part[e] = up((f * (PROSE_K1 + 1)) / (f + norm));
    }
  }
  pending = 0;
  dropped = 0;
  return {
    docs, dead: new Uint8Array(n), lineBase, lineSlot, none, keyStart, keySlot, keyAt, keyIdf,
    gramStart, runSlot, runIdf, runEntry, line, part, version: ++versions,
  };
}

/** Per plan terms list (a plan made again for the same query shares it): its grams list, the sweep version and each slot's best lexical score. */
const bests = new WeakMap<RankPlan['terms'], { grams: readonly string[] | undefined; version: number; best: Float64Array }>();

/** Scratch (zero between sweeps): per line across documents, its BM25 so far, its window's and its grams'; the lines touched. */
let ownSum = new Float64Array(1024);
let windowSum = new Float64Array(1024);
let gramSum = new Float64Array(1024);
let held = new Int32Array(1024);
let windowHeld = new Int32Array(1024);

/**
 * The best lexical score (proseLexical) of any line of the document for the plan, from its lines' BM25
 * parts rounded up (at least what its best line scores: the workers add the exact parts), without a
 * margin for the order of the additions; undefined when the document is not in the sweep (the caller
 * bounds it on its own).
 */
export function sweptLexical(t: PackedProseLines, plan: RankPlan): number | undefined {
  if (!members.has(t)) return undefined;
  const s = current();
  if (!s || t.sweepSlot < 0 || s.docs[t.sweepSlot] !== t) return undefined;
  const grams = plan.prose?.grams;
  let kept = bests.get(plan.terms);
  if (!kept || kept.grams !== grams || kept.version !== s.version) bests.set(plan.terms, (kept = { grams, version: s.version, best: sweepPlan(s, plan) }));
  return kept.best[t.sweepSlot];
}

/** Scratch of sweepPlan: what proseLexical reads of a document's statistics (its norms). */
const norms: ProseStats = { idf: [], norm: 0, avgChars: 1, gramIdf: [], gramNorm: 0 };

/** Each slot's best lexical score for the plan: the lines' sums across documents, each plan key's and gram's lists walked in plan order. */
function sweepPlan(s: Sweep, plan: RankPlan): Float64Array {
  const best = new Float64Array(s.docs.length);
  const lines = s.lineSlot.length;
  if (ownSum.length < lines) {
    ownSum = new Float64Array(lines); windowSum = new Float64Array(lines); gramSum = new Float64Array(lines);
    held = new Int32Array(lines); windowHeld = new Int32Array(lines);
  }
  const keys = proseTermKeys(plan);
  const { docs, dead, lineBase, keyStart, keySlot, keyAt, keyIdf } = s;
  let h = 0;
  let wh = 0;
  // The words' parts, in plan term order (as proseBest adds them), each key's documents in turn.
  for (let k = 0; k < keys.length; k++) {
    const id = keyIdOf(keys[k]);
    if (id === undefined || id + 1 >= keyStart.length) continue;
    for (let p = keyStart[id]; p < keyStart[id + 1]; p++) {
      const slot = keySlot[p];
      if (dead[slot]) continue;
      const t = docs[slot];
      const x = keyAt[p];
      const w = keyIdf[p];
      const base = lineBase[slot];
      const { ownLine, ownPart, winLine, winPart } = t;
      for (let j = t.ownStart[x]; j < t.ownStart[x + 1]; j++) {
        const i = base + ownLine[j];
        if (ownSum[i] === 0) held[h++] = i;
        ownSum[i] += w * ownPart[j];
      }
      for (let j = t.winStart[x]; j < t.winStart[x + 1]; j++) {
        const i = base + winLine[j];
        if (windowSum[i] === 0) windowHeld[wh++] = i;
        windowSum[i] += w * winPart[j];
      }
    }
  }
  // The grams' parts of the lines that hold a term (only those score), in plan gram order.
  const gids = h > 0 ? gramIdsOf(plan) : null;
  const nGrams = plan.prose?.grams.length ?? 0;
  if (gids) {
    const { gramStart, runSlot, runIdf, runEntry, line, part } = s;
    for (let g = 0; g < gids.length; g++) {
      const gid = gids[g];
      if (gid < 0 || gid + 1 >= gramStart.length) continue;
      for (let r = gramStart[gid]; r < gramStart[gid + 1]; r++) {
        if (dead[runSlot[r]]) continue;
        const idf = runIdf[r];
        for (let e = runEntry[r]; e < runEntry[r + 1]; e++) {
          const i = line[e];
          if (ownSum[i] > 0) gramSum[i] += idf * part[e];
        }
      }
    }
  }
  const { lineSlot, none } = s;
  for (let q = 0; q < h; q++) {
    const i = held[q];
    const slot = lineSlot[i];
    // proseStatsOf's norms of the document.
    norms.norm = keys.length * none[slot];
    norms.gramNorm = nGrams * none[slot];
    const lexical = proseLexical(ownSum[i], windowSum[i], gramSum[i], norms);
    if (lexical > best[slot]) best[slot] = lexical;
    ownSum[i] = 0;
    gramSum[i] = 0;
  }
  for (let q = 0; q < wh; q++) windowSum[windowHeld[q]] = 0;
  return best;
}

/** Bytes the sweep holds for a document (what its keeper counts with its line terms): its keys' and grams' entries. */
export function sweptBytes(t: PackedProseLines): number {
  return 16 * t.ids.length + 16 * t.grams.gramId.length + 8 * t.grams.line.length + 8 * t.lines;
}
