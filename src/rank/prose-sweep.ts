// Every kept prose document's best line for a plan, found in one pass over all of them (issue 30): the
// documents' postings laid out across documents (per key its documents, per gram its documents' lines
// with each line's BM25 part), so a query walks only the lists of its own keys and grams, in order,
// instead of visiting each document's arrays; per-document constants (idf, norms) worked out once.
import { PROSE_B, PROSE_K1 } from './prose.js';
import { keyCount, KEY_MOST, type PackedProseLines } from './prose-lines-build.js';
import type { RankPlan } from './plan.js';
import { fitting, gramPageBits, pagesOf, SWEEP_BYTES } from './prose-sweep-bound.js';
import { sizeWalk, walkBlockLines, walkBytes, walkPlan, type HandedWalk, type Sweep } from './prose-sweep-walk.js';
import { abandonHanded, forgetPlans, handOver, planBests } from './prose-sweep-handed.js';
import { arenaHeld, freeEnd, listsAt, type ArenaEnd, type SharedOf } from './prose-sweep-arena.js';

export { setHandedWaitMs, sweepWalksHanded } from './prose-sweep-handed.js';

/** The documents to sweep (kept documents once counted: prose-lines-build.ts), in the order they came. */
const members = new Set<PackedProseLines>();
/**
 * How many members are not in the sweep yet (counted since it was made), how many were left out of it by
 * the bound (PackedProseLines.sweepSlot LEFT_OUT), and how many of the sweep's documents were dropped since.
 */
let pending = 0;
let leftOut = 0;
let dropped = 0;
/** The sweepSlot of a member the bound left out of the sweep (prose-sweep-bound.ts). */
const LEFT_OUT = -2;

let sweep: Sweep | null = null;
/** The arena's end the sweep's lists are at (prose-sweep-arena.ts; the next is made at the other). */
let sweepEnd: ArenaEnd = 'low';
let versions = 0;
/** The bytes the sweep holds (its lists and the walk's scratch), the bound it was made under, and the bytes of the one being made. */
let sweepBytes = 0;
let madeUnder = 0;
let makingBytes = 0;

/** The bound on the bytes held (prose-sweep-bound.ts). */
let limitBytes = SWEEP_BYTES;

/**
 * Sets the bound (tests and benches; a resident process keeps SWEEP_BYTES): a sweep past it is let go at
 * once, and the next is made under it.
 */
export function setSweepLimitBytes(bytes: number): void {
  limitBytes = bytes;
  if (sweepBytes > limitBytes) unmake();
}

/**
 * What the sweep holds now: its bytes (with one being made), never past the bound (prose-sweep-bound.ts),
 * the documents swept, and how many sweeps this process has made (each a pass over every swept document);
 * `residentBytes`: the shared arena's pages its sweeps ever wrote (prose-sweep-arena.ts: resident, whatever
 * the pool's workers hold, at most the bound).
 */
export function sweepHeld(): { bytes: number; documents: number; made: number; residentBytes: number } {
  return { bytes: sweepBytes + makingBytes, documents: sweep ? sweep.docs.length - dropped : 0, made: versions, residentBytes: arenaHeld().writtenBytes };
}

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
    // The other documents' bests for a plan do not change; its lines are still walked until the lists are made again.
    sweep.docs[t.sweepSlot] = null;
    dropped++;
  } else if (t.sweepSlot === LEFT_OUT) leftOut--;
  else pending--;
  t.sweepSlot = -1;
}

/** The sweep being made (one at a time). */
let making: Promise<void> | null = null;

/**
 * Makes the sweep again when enough has changed since it was made (a document counted or changed since
 * is bounded on its own until then: making the lists again for each of a few would cost more than
 * bounding them one by one), between `pause`s (the keeper's time slices: the lists of the bench tree's
 * documents take ~0.2-0.4 s to make), while the last one still answers if both fit in the bound; a
 * search never makes it. Past the bound it takes the oldest documents that fit; the rest are bounded on
 * their own, and it is made again only once some of its own are dropped (room for others).
 */
export async function prepareSweep(pause: () => Promise<void> = async () => {}): Promise<void> {
  while (making) await making;
  const limit = limitBytes;
  const swept = sweep ? sweep.docs.length - dropped : 0;
  const fresh = pending * 8 <= swept || (leftOut > 0 && dropped === 0);
  if (members.size === 0 || (sweep && madeUnder === limit && fresh && dropped * 2 <= sweep.docs.length)) return;
  const all = [...members];
  const fit = fitting(all, limit, walkBlockLines());
  if (fit.take.length === 0) {
    unmake();
    for (const t of all) t.sweepSlot = LEFT_OUT;
    pending = 0;
    leftOut = all.length;
    madeUnder = limit;
    return;
  }
  // The one being made and the one answering meanwhile both held past the bound: the documents are bounded on their own until it is made.
  if (sweepBytes + fit.makingBytes > limit) unmake();
  const left = new Set(all.slice(fit.take.length));
  making = (async () => {
    makingBytes = fit.makingBytes;
    const end: ArenaEnd = sweep ? (sweepEnd === 'low' ? 'high' : 'low') : 'low';
    const made = await build(fit.take, listsAt(end, limit), pause);
    // Documents dropped while it was made are not swept; those counted meanwhile wait for the next one.
    let live = 0;
    made.docs.forEach((t, slot) => {
      if (t && members.has(t)) { live++; return; }
      made.docs[slot] = null;
    });
    leftOut = 0;
    for (const t of members) {
      t.sweepSlot = left.has(t) ? LEFT_OUT : -1;
      if (left.has(t)) leftOut++;
    }
    made.docs.forEach((t, slot) => { if (t) t.sweepSlot = slot; });
    install(made, end);
    madeUnder = limit;
    pending = members.size - live - leftOut;
    dropped = made.docs.length - live;
  })();
  try { await making; } finally { making = null; makingBytes = 0; }
}

/**
 * Answers from `made` (its lists at `end` of the arena) from now on, with the walk's scratch sized to its
 * lines: the last one's end is free (the next sweep is made there), its walks still under way given up.
 */
function install(made: Sweep, end: ArenaEnd): void {
  if (sweep && sweepEnd !== end) freeEnd(sweepEnd);
  abandonHanded();
  sweep = made;
  sweepEnd = end;
  const l = made.lists;
  sizeWalk(l.lineSlot.length);
  sweepBytes = made.docs.length * 8 + [l.lineSlot, l.none, l.keyStart, l.ownLine, l.ownPart, l.winStart, l.winLine, l.winPart, l.gramStart, l.gramLine, l.gramPart]
    .reduce((n, a) => n + a.byteLength, 0) + walkBytes();
}

/** Lets the sweep go: every document is bounded on its own until one is made again. */
function unmake(): void {
  if (!sweep) return;
  for (const t of sweep.docs) if (t) t.sweepSlot = -1;
  sweep = null;
  freeEnd(sweepEnd);
  abandonHanded();
  sizeWalk(0);
  sweepBytes = 0;
}

/** A float32 at least `x` (x >= 0), as prose-lines-build.ts rounds its parts. */
const up = (x: number): number => Math.fround(x * (1 + 1e-6));

/** Lucene's idf of a term `df` of `n` lines hold (proseStatsOf's: the same float). */
const idfOf = (df: number, n: number): number => Math.log(1 + (n - df + 0.5) / (df + 0.5));


/** Documents made between pauses. */
const SLICE_DOCS = 64;

/**
 * The lists of `docs`, each a zeroed typed array in shared memory from `shared` (the arena's end the sweep is
 * made at: a worker thread reads the lists where this thread wrote them).
 */
async function build(docs: PackedProseLines[], shared: <T>(of: SharedOf<T>, n: number) => T, pause: () => Promise<void>): Promise<Sweep> {
  const n = docs.length;
  const lineBase = new Int32Array(n + 1);
  const none = shared(Float64Array, n);
  let maxGram = -1;
  docs.forEach((t, s) => {
    lineBase[s + 1] = lineBase[s] + t.lines;
    none[s] = Math.log(1 + (t.docs + 0.5) / 0.5);
    for (const g of t.grams.gramId) if (g > maxGram) maxGram = g;
  });
  const lineSlot = shared(Int32Array, lineBase[n]);
  for (let s = 0; s < n; s++) lineSlot.fill(s, lineBase[s], lineBase[s + 1]);
  // Keys: a counting sort of every document's entries by (key id, page of the line), documents in slot
  // order within a bucket, each line less its page's first (16 bits), as the grams' below.
  const pages = pagesOf(lineBase[n]);
  const pageBits = gramPageBits();
  const pageMask = (1 << pageBits) - 1;
  const keys = keyCount();
  const keyBuckets = keys * pages;
  const keyStart = shared(Int32Array, keyBuckets + 1);
  const winStart = shared(Int32Array, keyBuckets + 1);
  docs.forEach((t, s) => {
    const base = lineBase[s];
    for (let x = 0; x < t.ids.length; x++) {
      const bucket = t.ids[x] * pages + 1;
      for (let j = t.ownStart[x]; j < t.ownStart[x + 1]; j++) keyStart[bucket + ((base + t.ownLine[j]) >>> pageBits)]++;
      for (let j = t.winStart[x]; j < t.winStart[x + 1]; j++) winStart[bucket + ((base + t.winLine[j]) >>> pageBits)]++;
    }
  });
  for (let b = 0; b < keyBuckets; b++) { keyStart[b + 1] += keyStart[b]; winStart[b + 1] += winStart[b]; }
  const ownFill = keyStart.slice(0, keyBuckets);
  const winFill = winStart.slice(0, keyBuckets);
  const ownLine = shared(Uint16Array, keyStart[keyBuckets]);
  const ownPart = shared(Float32Array, keyStart[keyBuckets]);
  const winLine = shared(Uint16Array, winStart[keyBuckets]);
  const winPart = shared(Float32Array, winStart[keyBuckets]);
  for (let s = 0; s < n; s++) {
    if (s % SLICE_DOCS === SLICE_DOCS - 1) await pause();
    const t = docs[s];
    const base = lineBase[s];
    for (let x = 0; x < t.ids.length; x++) {
      const w = idfOf(t.keyMost[KEY_MOST * x], t.docs);
      const bucket = t.ids[x] * pages;
      for (let j = t.ownStart[x]; j < t.ownStart[x + 1]; j++) {
        const line = base + t.ownLine[j];
        const e = ownFill[bucket + (line >>> pageBits)]++;
        ownLine[e] = line & pageMask; ownPart[e] = up(w * t.ownPart[j]);
      }
      for (let j = t.winStart[x]; j < t.winStart[x + 1]; j++) {
        const line = base + t.winLine[j];
        const e = winFill[bucket + (line >>> pageBits)]++;
        winLine[e] = line & pageMask; winPart[e] = up(w * t.winPart[j]);
      }
    }
  }
  // Grams: the same, bucketed by (gram, page of the line), each line's part worked out from its count.
  const buckets = (maxGram + 1) * pages;
  const gramStart = shared(Int32Array, buckets + 1);
  docs.forEach((t, s) => {
    const d = t.grams;
    for (let i = 0; i < d.gramId.length; i++) {
      for (let j = d.lineStart[i]; j < d.lineStart[i + 1]; j++) gramStart[d.gramId[i] * pages + ((lineBase[s] + d.line[j]) >>> pageBits) + 1]++;
    }
  });
  for (let b = 0; b < buckets; b++) gramStart[b + 1] += gramStart[b];
  const gramFill = gramStart.slice(0, buckets);
  const gramLine = shared(Uint16Array, gramStart[buckets]);
  const gramPart = shared(Float32Array, gramStart[buckets]);
  for (let s = 0; s < n; s++) {
    if (s % SLICE_DOCS === SLICE_DOCS - 1) await pause();
    const t = docs[s];
    const d = t.grams;
    const base = lineBase[s];
    // ProseStats.avgChars of the document, as proseStatsOf works it out.
    const avgChars = t.docs > 0 ? t.chars / t.docs : 1;
    for (let i = 0; i < d.gramId.length; i++) {
      const idf = idfOf(d.gramDf[i], t.docs);
      for (let j = d.lineStart[i]; j < d.lineStart[i + 1]; j++) {
        const l = d.line[j];
        const f = d.count[j];
        const norm = PROSE_K1 * (1 - PROSE_B + (PROSE_B * t.lengths[l]) / avgChars);
        const bucket = d.gramId[i] * pages + ((base + l) >>> pageBits);
        const e = gramFill[bucket]++;
        gramLine[e] = (base + l) & pageMask;
        gramPart[e] = up((idf * (f * (PROSE_K1 + 1))) / (f + norm));
      }
    }
  }
  const lists = { slots: n, lineSlot, none, keyStart, ownLine, ownPart, winStart, winLine, winPart, gramStart, gramLine, gramPart, pages, pageBits, keyIds: keys, gramIds: maxGram + 1 };
  return { docs: docs.slice() as (PackedProseLines | null)[], version: ++versions, lists };
}

/** Forgets every plan's bests and walks handed over (tests and benches: the next search of a plan walks it again). */
export function forgetSweptBests(): void {
  forgetPlans();
}

/**
 * The best lexical score (proseLexical) of any line of the document for the plan, from its lines' BM25
 * parts rounded up (at least what its best line scores: the workers add the exact parts), without a
 * margin for the order of the additions; undefined when the document is not in the sweep (the caller
 * bounds it on its own).
 */
export function sweptLexical(t: PackedProseLines, plan: RankPlan): number | undefined {
  const s = sweep;
  if (!s || t.sweepSlot < 0 || s.docs[t.sweepSlot] !== t) return undefined;
  return sweptBests(s, plan)[t.sweepSlot];
}

/** Each slot's best lexical score for the plan in sweep `s` (walked once per plan and sweep, here or by the thread it was handed to). */
function sweptBests(s: Sweep, plan: RankPlan): Float64Array {
  return planBests(s, plan, () => walkPlan(s.lists, plan));
}

/**
 * Hands the plan's walk to another thread (`hand`: an idle worker of the searcher's pool) while this one
 * picks and scores the code candidates; the search's listing of its prose documents then takes its bests
 * (sweptBests: waiting for a walk under way, taking back one not begun). The same walk (walkLists), so
 * the same floats. Nothing when there is no sweep, or the plan's bests are known or handed already.
 */
export function walkAhead(plan: RankPlan, hand: (w: HandedWalk) => void): void {
  if (sweep) handOver(sweep, plan, hand);
}

/**
 * sweptLexical for many documents of one plan (a search lists ~1,400: prose-lines.ts listedReach): the sweep
 * and the plan's bests looked up once, the bests walked when the first swept document is asked about.
 */
export function sweptLexicalOf(plan: RankPlan): (t: PackedProseLines) => number | undefined {
  const s = sweep;
  if (!s) return () => undefined;
  let best: Float64Array | null = null;
  return (t) => {
    if (t.sweepSlot < 0 || s.docs[t.sweepSlot] !== t) return undefined;
    // A sweep let go since may have its lists written over by one made after (prose-sweep-arena.ts): not walked.
    if (!best && s !== sweep) return undefined;
    return (best ??= sweptBests(s, plan))[t.sweepSlot];
  };
}
