// The prose sweep's lists live in one shared arena used again by every sweep made (rank/prose-sweep-arena.ts):
// a worker thread that walked an old sweep holds this one buffer, not the old lists' own (review of rescore42:
// an idle worker kept each old sweep's 63 MiB alive until its own GC). Sweeps made over an old one's bytes
// bound every document as a sweep made in fresh memory does.
import { afterAll, describe, expect, it } from 'vitest';
import { parseLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan } from '../../../src/rank/plan.js';
import { ProseLinesBuilder, releaseProseLines, sweepProseLines } from '../../../src/rank/prose-lines.js';
import { forgetSweptBests, prepareSweep, setSweepLimitBytes, sweepHeld, sweptLexical, walkAhead } from '../../../src/rank/prose-sweep.js';
import { arenaHeld } from '../../../src/rank/prose-sweep-arena.js';
import { SWEEP_BYTES } from '../../../src/rank/prose-sweep-bound.js';
import type { HandedWalk } from '../../../src/rank/prose-sweep-walk.js';
import type { PackedProseLines } from '../../../src/rank/prose-lines-build.js';

const lexicon = parseLexicon('#docs\t1000\ncastle\t10\nthe\t900\nindex\t100\n');
const WORDS = ['garden', 'tomato', 'soil', 'water', 'castle', 'index', 'retry', 'upload', 'format', 'version', 'river', 'stone', 'the'];
let seed = 7;
const rnd = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
/** A document of `lines` lines of seeded words (batches differ in their words and sizes). */
function doc(lines: number, words: readonly string[]): PackedProseLines {
  const b = new ProseLinesBuilder();
  for (let i = 0; i < lines; i++) b.add(Array.from({ length: 6 + (i % 7) }, () => words[Math.floor(rnd() * words.length)] + (rnd() < 0.2 ? String(Math.floor(rnd() * 50)) : '')).join(' '));
  const t = b.done() as PackedProseLines;
  sweepProseLines(t);
  return t;
}
const plans = ['retry upload', 'castle river stone', 'the index format version', 'garden tomato soil water'].map((q) => buildRankPlan(q, 'hybrid', lexicon));

/** The buffer the sweep's lists are in (a walk handed over carries them). */
function listsBuffer(): ArrayBufferLike {
  forgetSweptBests();
  let w: HandedWalk | null = null;
  walkAhead(plans[0], (x) => { w = x; });
  expect(w).not.toBeNull();
  const lists = w!.lists;
  const buffers = new Set([lists.lineSlot, lists.none, lists.keyStart, lists.ownLine, lists.ownPart, lists.winStart, lists.winLine, lists.winPart, lists.gramStart, lists.gramLine, lists.gramPart].map((a) => a.buffer));
  expect(buffers.size).toBe(1);
  forgetSweptBests();
  return [...buffers][0];
}

/** Every live document's swept bound for every plan, walked again. */
function bounds(docs: readonly PackedProseLines[]): (number | undefined)[][] {
  return plans.map((plan) => { forgetSweptBests(); return docs.map((t) => sweptLexical(t, plan)); });
}

let all: PackedProseLines[] = [];
afterAll(() => {
  setSweepLimitBytes(SWEEP_BYTES);
  for (const t of all) releaseProseLines(t);
});

describe('the prose sweep\'s arena', () => {
  it('every sweep made, growing, shrinking and made over an old one\'s bytes, has its lists in the one arena, and bounds every document as a sweep in fresh memory does', async () => {
    const first = Array.from({ length: 30 }, (_, i) => doc(20 + i, WORDS.slice(0, 8)));
    all = [...first];
    await prepareSweep();
    const arena = listsBuffer();
    expect(arena.byteLength).toBe(SWEEP_BYTES);
    // Grown: made at the other end while the first answers.
    const second = Array.from({ length: 30 }, (_, i) => doc(40 + i, WORDS.slice(4)));
    all.push(...second);
    await prepareSweep();
    expect(sweepHeld().documents).toBe(60);
    expect(listsBuffer()).toBe(arena);
    // The first let go and others counted: made over the first sweep's bytes (zeroed first).
    for (const t of first) releaseProseLines(t);
    const third = Array.from({ length: 40 }, (_, i) => doc(10 + 3 * i, WORDS));
    all.push(...third);
    await prepareSweep();
    const live = [...second, ...third];
    expect(sweepHeld().documents).toBe(live.length);
    expect(listsBuffer()).toBe(arena);
    const inArena = bounds(live);
    expect(inArena.flat().every((x) => x !== undefined)).toBe(true);
    expect(arenaHeld()).toMatchObject({ reservedBytes: SWEEP_BYTES, outsideBytes: 0 });
    expect(arenaHeld().writtenBytes).toBeLessThanOrEqual(SWEEP_BYTES);
    expect(sweepHeld().residentBytes).toBe(arenaHeld().writtenBytes);
    // Both ends written: the first sweep's (made over since) and the second's.
    expect(arenaHeld().writtenBytes).toBeGreaterThan(arenaHeld().usedBytes);
    // The same documents swept in a fresh arena (another bound makes one): the same floats.
    setSweepLimitBytes(SWEEP_BYTES + 8);
    await prepareSweep();
    const fresh = listsBuffer();
    expect(fresh).not.toBe(arena);
    expect(bounds(live)).toEqual(inArena);
  });
});
