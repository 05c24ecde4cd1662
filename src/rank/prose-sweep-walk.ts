// The walk of a plan over the prose sweep's lists (prose-sweep.ts): every swept document's best line's
// lexical score, the lines' sums taken a block of lines at a time (so they stay in a core's cache) and the
// grams' lists a page at a time (their lines kept in 16 bits).
import { proseLexical, type ProseStats } from './prose.js';
import { gramIdsOf } from './prose-doc-grams.js';
import { keyIdOf, proseTermKeys, type PackedProseLines } from './prose-lines-build.js';
import type { RankPlan } from './plan.js';
import { BLOCK_LINES } from './prose-sweep-bound.js';

/**
 * The documents' postings across documents, made by prose-sweep.ts from its members in one go (`docs`, a slot each:
 * PackedProseLines.sweepSlot), lines numbered across documents (lineBase[slot] + the document's line),
 * kept per page of lines (lines [p << pageBits, (p + 1) << pageBits)), each less the page's first: 16 bits.
 * Key id k's lines on page p at [keyStart[k * pages + p], keyStart[k * pages + p + 1]) of ownLine and
 * ownPart (the line's BM25 part of the key times the key's idf in its document, rounded up:
 * query-independent), its windows the same way in winStart, winLine and winPart; gram id g's lines on
 * page p at [gramStart[g * pages + p], gramStart[g * pages + p + 1]) of gramLine (the walk's most read
 * list) and gramPart. Each list in slot order, so a query's walk reads memory in order.
 */
export interface Sweep {
  readonly docs: (PackedProseLines | null)[];
  /** Which build this is (a plan's bests are worked out again for a new one). */
  readonly version: number;
  readonly lists: SweepLists;
}

/**
 * What the walk reads of a sweep: its lists, in shared memory (SharedArrayBuffers: a worker thread walks
 * them where the searcher's pool is idle, prose-sweep.ts walkAhead, with no copy), and their sizes.
 */
export interface SweepLists {
  /** The documents' slots (docs.length). */
  readonly slots: number;
  readonly lineSlot: Int32Array;
  /** Per slot, the idf of a term no line holds (proseStatsOf's `none`, each norm's unit). */
  readonly none: Float64Array;
  readonly keyStart: Int32Array;
  readonly ownLine: Uint16Array;
  readonly ownPart: Float32Array;
  readonly winStart: Int32Array;
  readonly winLine: Uint16Array;
  readonly winPart: Float32Array;
  readonly gramStart: Int32Array;
  readonly gramLine: Uint16Array;
  readonly gramPart: Float32Array;
  /** Pages of lines (2 ** pageBits each: prose-sweep-bound.ts), key ids of keyStart and gram ids (maxGram + 1) of gramStart. */
  readonly pages: number;
  readonly pageBits: number;
  readonly keyIds: number;
  readonly gramIds: number;
}

/**
 * One walk of a plan over a sweep's lists, in plain data (structured-clone safe: the lists' shared memory
 * crosses to a worker thread without a copy): per plan key its id in the lists (-1: none), per plan gram
 * its id (-1: none; null: no grams), the plan's grams counted (the norms' unit), and the lines of a block.
 */
export interface SweepWalk {
  lists: SweepLists;
  ids: Int32Array;
  gids: Int32Array | null;
  nGrams: number;
  blockLines: number;
}

/**
 * Scratch (zero between walks): per line of a block of blockLines lines, its BM25 so far, its window's
 * and its grams'; the block's lines that hold a term. The walk sums a block at a time, so these stay in
 * a core's cache (over every line across documents, 1.2 MB each on the bench tree, the grams' random
 * additions missed it: most of a find_related's walk).
 */
let ownSum = new Float64Array(0);
let windowSum = new Float64Array(0);
let gramSum = new Float64Array(0);
let held = new Int32Array(0);
/** Lines of a block (tests: setSweepBlockLines). */
let blockLines = BLOCK_LINES;

/** Sets the lines of the walk's blocks (tests: a block boundary within documents); the next sweep made takes it. */
export function setSweepBlockLines(lines: number): void {
  blockLines = lines;
}

/** The lines of the walk's blocks for the sweeps made next. */
export const walkBlockLines = (): number => blockLines;

/** Sizes the scratch for a sweep of `lines` lines (0: none held). */
export function sizeWalk(lines: number): void {
  sizeScratch(Math.min(lines, blockLines));
}

function sizeScratch(n: number): void {
  ownSum = new Float64Array(n); windowSum = new Float64Array(n); gramSum = new Float64Array(n); held = new Int32Array(n);
}

/** The bytes the scratch holds (prose-sweep-bound.ts BLOCK_LINE_BYTES per line of a block). */
export function walkBytes(): number {
  return ownSum.byteLength + windowSum.byteLength + gramSum.byteLength + held.byteLength;
}

/** Scratch of walkPlan: what proseLexical reads of a document's statistics (its norms). */
const norms: ProseStats = { idf: [], norm: 0, avgChars: 1, gramIdf: [], gramNorm: 0 };

/** The walk of `plan` over `s` as plain data (its key and gram ids looked up here, where their tables are). */
export function walkOf(s: SweepLists, plan: RankPlan): SweepWalk {
  const keys = proseTermKeys(plan);
  const ids = new Int32Array(keys.length);
  for (let k = 0; k < keys.length; k++) {
    const id = keyIdOf(keys[k]);
    ids[k] = id === undefined || id >= s.keyIds ? -1 : id;
  }
  // The scratch is sized to the sweep's blocks when it is installed (install): the same blocks wherever it is walked.
  return { lists: s, ids, gids: gramIdsOf(plan), nGrams: plan.prose?.grams.length ?? 0, blockLines: Math.max(1, ownSum.length) };
}

/**
 * A walk handed to another thread (prose-sweep.ts walkAhead): its state, in shared memory (HANDED until
 * one thread takes it: WALKING there, TAKEN_BACK here; then DONE or FAILED there, or ABANDONED here: given
 * up on, the other thread stops at its next block), and the bests it writes there (shared too), read here once DONE.
 */
export interface HandedWalk extends SweepWalk {
  state: Int32Array;
  best: Float64Array;
}
export const HANDED = 0;
export const WALKING = 1;
export const TAKEN_BACK = 2;
export const DONE = 3;
export const FAILED = 4;
export const ABANDONED = 5;

/** A walk to hand to another thread, its bests to be written in shared memory. */
export function handedWalk(s: SweepLists, plan: RankPlan): HandedWalk {
  return { ...walkOf(s, plan), state: new Int32Array(new SharedArrayBuffer(4)), best: new Float64Array(new SharedArrayBuffer(8 * s.slots)) };
}

/**
 * The other thread's side of a handed walk: walks it unless the handing thread took it back first
 * (then nothing), stops where that thread gives up on it (ABANDONED), and says it is done (or failed) to a
 * thread that waits for it (takeHanded).
 */
export function walkHanded(w: HandedWalk): void {
  if (Atomics.compareExchange(w.state, 0, HANDED, WALKING) !== HANDED) return;
  let end = FAILED;
  try {
    if (walkLists(w, w.best, w.state)) end = DONE;
  } catch (e) {
    // The scratch is zero between walks: a walk that stopped mid-block leaves its lines' sums behind.
    zeroScratch();
    throw e;
  } finally {
    // Given up on meanwhile (ABANDONED): it stays so.
    Atomics.compareExchange(w.state, 0, WALKING, end);
    Atomics.notify(w.state, 0);
  }
}

function zeroScratch(): void {
  ownSum.fill(0); windowSum.fill(0); gramSum.fill(0);
}

/** What became of a handed walk when its search took it: walked there, taken back before it began, failed there, or given up on after the wait. */
export type HandedEnd = 'walkedThere' | 'takenBack' | 'failed' | 'gaveUp';

/**
 * The handing thread's side: the bests where the other thread walked them; null where it had not begun
 * (taken back: walk it here), failed, or is still walking after `waitMs` (given up on: walk it here; the
 * other thread stops at its next block, and its bests are never read). `waited`: it was under way.
 */
export function takeHanded(w: HandedWalk, waitMs: number): { best: Float64Array | null; end: HandedEnd; waited: boolean } {
  let state = Atomics.compareExchange(w.state, 0, HANDED, TAKEN_BACK);
  if (state === HANDED) return { best: null, end: 'takenBack', waited: false };
  const waited = state === WALKING;
  if (waited) {
    Atomics.wait(w.state, 0, WALKING, waitMs);
    state = Atomics.compareExchange(w.state, 0, WALKING, ABANDONED);
    if (state === WALKING) return { best: null, end: 'gaveUp', waited };
  }
  return state === DONE ? { best: w.best, end: 'walkedThere', waited } : { best: null, end: 'failed', waited };
}

/** Gives up on a handed walk (its sweep let go: prose-sweep.ts install): taken back if not begun, else the other thread stops at its next block. */
export function abandonWalk(w: HandedWalk): void {
  if (Atomics.compareExchange(w.state, 0, HANDED, TAKEN_BACK) === HANDED) return;
  Atomics.compareExchange(w.state, 0, WALKING, ABANDONED);
}

/** Each slot's best lexical score for the plan (walkLists on this thread). */
export function walkPlan(s: SweepLists, plan: RankPlan): Float64Array {
  return walkLists(walkOf(s, plan));
}

/**
 * Each slot's best lexical score for a walk: the lines' sums, a block of lines at a time, each plan key's
 * and gram's lists walked in plan order within the block (a cursor per list: the lists are in line
 * order), so a line's parts are added in the order proseBest adds them. Reads nothing but `w` and its
 * scratch: a worker thread runs it as this one does (the same floats). With a handed walk's `state`: null
 * once that is ABANDONED (looked at before each block, where the scratch is zero).
 */
export function walkLists(w: SweepWalk, best?: Float64Array): Float64Array;
export function walkLists(w: SweepWalk, best: Float64Array, state: Int32Array): Float64Array | null;
export function walkLists(w: SweepWalk, best: Float64Array = new Float64Array(w.lists.slots), state?: Int32Array): Float64Array | null {
  const s = w.lists;
  if (ownSum.length !== w.blockLines) sizeScratch(w.blockLines);
  // Locals, not the module's bindings, in the loops below (V8 reloads those at every access).
  const own = ownSum;
  const windows = windowSum;
  const gramParts = gramSum;
  const lines = held;
  const { keyStart, ownLine, ownPart, winStart, winLine, winPart, gramStart, gramLine, gramPart, lineSlot, none, pages } = s;
  const pageLines = 2 ** s.pageBits;
  const { ids, gids, nGrams } = w;
  const nKeys = ids.length;
  // Per plan key its own and window cursors in the page at hand; per plan gram its cursor in the page at hand.
  const nLists = gids?.length ?? 0;
  const at = new Int32Array(2 * nKeys + nLists);
  const total = lineSlot.length;
  for (let page = 0; page < pages; page++) {
    const first = page * pageLines;
    const last = Math.min(total, first + pageLines);
    for (let k = 0; k < nKeys; k++) if (ids[k] >= 0) { at[k] = keyStart[ids[k] * pages + page]; at[nKeys + k] = winStart[ids[k] * pages + page]; }
    for (let g = 0; g < nLists; g++) if (gids![g] >= 0 && gids![g] < s.gramIds) at[2 * nKeys + g] = gramStart[gids![g] * pages + page];
    // Blocks of the page (the sums' lines), the lists' lines counted from the page's first.
    for (let lo = first; lo < last; lo += own.length) {
      if (state && Atomics.load(state, 0) === ABANDONED) return null;
      const block = Math.min(own.length, last - lo);
      const from = lo - first;
      let h = 0;
      // The words' parts, in plan term order (as proseBest adds them).
      for (let k = 0; k < nKeys; k++) {
        const id = ids[k];
        if (id < 0) continue;
        let e = at[k];
        for (const end = Math.min(keyStart[id * pages + page + 1], ownLine.length); e < end; e++) {
          const i = ownLine[e] - from;
          if (i >= block) break;
          if (own[i] === 0) lines[h++] = i;
          own[i] += ownPart[e];
        }
        at[k] = e;
        e = at[nKeys + k];
        for (const end = Math.min(winStart[id * pages + page + 1], winLine.length); e < end; e++) {
          const i = winLine[e] - from;
          if (i >= block) break;
          windows[i] += winPart[e];
        }
        at[nKeys + k] = e;
      }
      // The grams' parts, in plan gram order: added to every line of the block (one that holds no term is
      // not read: no test per entry), or passed over where no line of the block holds a term.
      for (let g = 0; g < nLists; g++) {
        const gid = gids![g];
        if (gid < 0 || gid >= s.gramIds) continue;
        let e = at[2 * nKeys + g];
        const end = Math.min(gramStart[gid * pages + page + 1], gramLine.length);
        if (h === 0) e = firstFrom(gramLine, e, end, from + block);
        else {
          for (; e < end; e++) {
            const i = gramLine[e] - from;
            if (i >= block) break;
            gramParts[i] += gramPart[e];
          }
        }
        at[2 * nKeys + g] = e;
      }
      for (let q = 0; q < h; q++) {
        const i = lines[q];
        const slot = lineSlot[lo + i];
        // proseStatsOf's norms of the document.
        norms.norm = nKeys * none[slot];
        norms.gramNorm = nGrams * none[slot];
        const lexical = proseLexical(own[i], windows[i], gramParts[i], norms);
        if (lexical > best[slot]) best[slot] = lexical;
        own[i] = 0;
      }
      windows.fill(0);
      if (h > 0 && nLists > 0) gramParts.fill(0);
    }
  }
  return best;
}

/** The first index in [from, to) of the ascending `line` whose value is at least `least` (`to` if none). */
function firstFrom(line: Uint16Array, from: number, to: number, least: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) { const mid = (lo + hi) >>> 1; if (line[mid] < least) lo = mid + 1; else hi = mid; }
  return lo;
}
