// Which prose files of a workspace search can hold a query term (prose-source.ts filesWithTerms): the
// postings searched for each prose file's chunk range (a compacted snapshot's ascending lists) or each
// entry's file marked (a list that does not ascend), the same answer as a file's chunks' postings give, for a
// short question and a pasted block's 24 terms, in a compacted and an appended snapshot. And how they are
// listed (issue 30, branch warm30): within the pipeline's floor (listWithin), by their paths' signals as
// pathSignals gives them, and by their kept line terms once those are counted.
import { describe, expect, it } from 'vitest';
import { bundledLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan } from '../../../src/rank/plan.js';
import { termlessProseDistance } from '../../../src/rank/prose.js';
import { pathSignals } from '../../../src/rank/path-signals.js';
import { documentState, keepDocument, keptLinesCounted } from '../../../src/workspace/search/kept-documents.js';
import type { Entry, Source } from '../../../src/sources/source.js';
import { toFloat16 } from '../../../src/workspace/packed/float16.js';
import { proseFilesWork, splitProse } from '../../../src/workspace/search/prose-source.js';
import { emptySnapshot, patchSnapshot, type ChunkRow, type Snapshot } from '../../../src/workspace/snapshot/snapshot.js';
import { TermCollector } from '../../../src/workspace/snapshot/term-collector.js';
import { mulberry32 } from '../../helpers/seeded.js';
import { idents } from '../../helpers/snapshots.js';

const DIM = 8;
const WORDS = ['retry', 'upload', 'failed', 'config', 'parse', 'session', 'token', 'cache', 'file', 'handler', 'request', 'queue', 'worker', 'castle', 'river', 'bridge', 'market', 'garden', 'winter', 'harbor', 'lantern', 'meadow', 'summit', 'valley', 'orchard', 'canyon'];
const rnd = mulberry32(30);
const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];

function changes(keys: string[], dropped: Set<string>, dense = false) {
  const terms = new TermCollector();
  const rows: ChunkRow[] = [];
  for (const key of keys) {
    for (let c = 0; c < 3; c++) {
      // Sparse words: many files hold none of a question's terms.
      const text = Array.from({ length: Math.floor(rnd() * (dense ? 6 : 3)) }, () => (rnd() < (dense ? 0.9 : 0.3) ? pick(WORDS) : `x${Math.floor(rnd() * 40)}`)).join(' ');
      terms.add(rows.length, idents(terms, text));
      rows.push({ path: key, start: c * 48, end: c * 48 + 48, hasTokens: true, chars: 100 + Math.floor(rnd() * 1200), blank: false, defs: [], halves: toFloat16(Float32Array.from({ length: DIM }, () => rnd() - 0.5)) });
    }
  }
  const files = keys.map((key) => ({ key, size: 1, mtime: 2, hash: `${key}${rows.length}`, kind: 'text' as const, lines: 144 }));
  return { dropChunksOf: dropped, dropFiles: new Set<string>(), files, rows, terms };
}

// In key order, as an index's build adds them: the compacted snapshot's lists then ascend by chunk.
const keys = Array.from({ length: 160 }, (_, f) => `/t/d${f % 9}/f-${f}.${f % 3 === 0 ? 'ts' : 'md'}`).sort();
const compacted = patchSnapshot(emptySnapshot(DIM, '1.1'), changes(keys, new Set()), '1.1');
const changed = keys.filter((_, f) => f % 5 === 1);
const appended = patchSnapshot(compacted, changes(changed, new Set(changed)), '1.2', { compactAbove: 0.9 });
// Many words a chunk: a term's list holds more entries than a few prose files shown (searched by galloping).
const dense = patchSnapshot(emptySnapshot(DIM, '1.1'), changes(keys, new Set(), true), '1.1');
// Rows added out of key order: the chunks are numbered in key order, and each list is merged by chunk, so it ascends still.
const shuffled = patchSnapshot(emptySnapshot(DIM, '1.1'), changes([...keys].sort((a, b) => (a.slice(-5) < b.slice(-5) ? -1 : 1)), new Set()), '1.1');
// Lists that do not ascend (a snapshot file written before the lists were merged by chunk): each one reversed.
const reversed = (lists: Snapshot['byLower']): Snapshot['byLower'] =>
  Object.create(lists, { find: { value: (key: string) => { const got = lists.find(key); return got && { chunk: got.chunk.slice().reverse(), count: got.count.slice().reverse() }; } } });
const unordered = { ...compacted, byLower: reversed(compacted.byLower), byStem: reversed(compacted.byStem) } as Snapshot;

/** Whether one of the file's chunks lists one of the terms (the reference: every entry's file). */
function holds(s: Snapshot, f: number, terms: { key: string; whole: boolean }[]): boolean {
  const { firstChunk, chunkCount } = s.files[f];
  return terms.some((t) => {
    const found = (t.whole ? s.byLower : s.byStem).find(t.key);
    return !!found && Array.from(found.chunk).some((c) => c >= firstChunk && c < firstChunk + chunkCount);
  });
}

describe('the prose files that can hold a query term', () => {
  it('are asked of a compacted snapshot whose lists ascend and of one whose lists do not', () => {
    const stems = buildRankPlan(WORDS.join(' '), 'hybrid', bundledLexicon()).terms.map((t) => t.key);
    const ascends = (s: Snapshot, key: string) => { const c = s.byStem.find(key)!.chunk; return c.every((x, i) => i === 0 || c[i - 1] <= x); };
    expect(stems.length).toBeGreaterThan(20);
    expect(stems.every((k) => ascends(compacted, k))).toBe(true);
    expect(stems.every((k) => ascends(shuffled, k))).toBe(true);
    expect(stems.every((k) => ascends(appended, k))).toBe(true);
    expect(stems.some((k) => !ascends(unordered, k))).toBe(true);
  });

  it('are those whose chunks list a term, from ascending lists and others alike', async () => {
    const pasted = WORDS.map((w, i) => `${w}Thing${i} ${w}`).join(' ');
    let asked = 0;
    let holding = 0;
    let galloped = 0;
    // Every file shown, and a few (lists of more entries than the prose files shown are searched by galloping, the others marked).
    for (const [s, label, every] of [[compacted, 'compacted', 1], [appended, 'appended', 1], [shuffled, 'shuffled', 1], [unordered, 'unordered', 1], [unordered, 'unordered, a few shown', 4], [dense, 'dense', 1], [dense, 'dense, a few shown', 4], [appended, 'appended, a few shown', 4]] as const) {
      const display = s.files.map((f, i) => (i % every === 0 ? f.key : undefined));
      const shown = display.filter((k) => k?.endsWith('.md')).length;
      for (const text of ['retry failed uploads', 'castle river', 'winter harbor lantern', 'nothing here matches', pasted]) {
        const plan = buildRankPlan(text, 'hybrid', bundledLexicon());
        galloped += plan.terms.filter((t) => ((t.whole ? s.byLower : s.byStem).find(t.key)?.chunk.length ?? 0) > shown).length;
        const { prose } = splitProse(s, display, {} as Source, plan, { keepBytes: false });
        const entries: Entry[] = [];
        for await (const e of prose!.list()) entries.push(e);
        expect(entries.length).toBe(shown);
        for (const e of entries) {
          const f = s.files.findIndex((x) => x.key === e.path);
          const expected = holds(s, f, plan.terms);
          expect(prose!.holdsAnyTerm!(e, plan.terms), `${label} "${text.slice(0, 30)}" ${e.path}`).toBe(expected);
          // Asked with other terms (the pipeline's own plan), the answer is worked out again.
          const few = plan.terms.slice(0, 1);
          expect(prose!.holdsAnyTerm!(e, few)).toBe(holds(s, f, few));
          asked++;
          if (expected) holding++;
        }
      }
    }
    const md = keys.filter((k) => k.endsWith('.md'));
    const fewShown = (s: Snapshot) => s.files.filter((f, i) => i % 4 === 0 && f.key.endsWith('.md')).length;
    expect(asked).toBe(25 * md.length + 5 * (fewShown(dense) + fewShown(appended) + fewShown(unordered)));
    expect(galloped).toBeGreaterThan(20);
    expect(holding).toBeGreaterThan(100);
    expect(holding).toBeLessThan(asked - 100);
  });

  it('are found by reading a term\'s list only while some prose file is not marked, each list checked to ascend once', async () => {
    // Every chunk of every file holds all the question's words: its first term's list marks every file.
    const words = ['castle', 'river', 'bridge', 'market', 'garden'];
    const docs = Array.from({ length: 30 }, (_, f) => `/w/doc-${String(f).padStart(2, '0')}.md`);
    const terms = new TermCollector();
    const rows: ChunkRow[] = [];
    for (const path of docs) {
      for (let c = 0; c < 3; c++) {
        terms.add(rows.length, idents(terms, `${words.join(' ')} x${Math.floor(rnd() * 40)}`));
        rows.push({ path, start: c * 48, end: c * 48 + 48, hasTokens: true, chars: 200, blank: false, defs: [], halves: toFloat16(Float32Array.from({ length: DIM }, () => rnd() - 0.5)) });
      }
    }
    const files = docs.map((key, i) => ({ key, size: 1, mtime: 2, hash: `w${i}`, kind: 'text' as const, lines: 144 }));
    const s = patchSnapshot(emptySnapshot(DIM, '1.1'), { dropChunksOf: new Set<string>(), dropFiles: new Set<string>(), files, rows, terms }, '1.1');
    const display = s.files.map((f) => f.key);
    const plan = buildRankPlan(words.join(' '), 'hybrid', bundledLexicon());
    const found = plan.terms.filter((t) => (t.whole ? s.byLower : s.byStem).find(t.key));
    expect(found.length).toBeGreaterThanOrEqual(words.length);
    for (let round = 0; round < 2; round++) {
      const before = proseFilesWork();
      const { prose } = splitProse(s, display, {} as Source, plan, { keepBytes: false });
      const after = proseFilesWork();
      // The first list (3 entries a file: galloped, once checked to ascend) marks every file: no other is read.
      expect(after.lists - before.lists).toBe(1);
      expect(after.checked - before.checked).toBe(round === 0 ? 1 : 0);
      for await (const e of prose!.list()) expect(prose!.holdsAnyTerm!(e, plan.terms)).toBe(true);
    }
  });

  it('are listed by a bound the pipeline takes for the very plan they were listed for only (listedBound)', async () => {
    const display = compacted.files.map((f) => f.key);
    const query = 'castle river';
    const lexical = buildRankPlan(query, 'lexical', bundledLexicon());
    const hybrid = buildRankPlan(query, 'hybrid', bundledLexicon());
    const { prose } = splitProse(compacted, display, {} as Source, lexical, { keepBytes: false });
    const entries: Entry[] = [];
    for await (const e of prose!.list()) entries.push(e);
    const termless = entries.filter((e) => !prose!.holdsAnyTerm!(e, lexical.terms));
    expect(termless.length).toBeGreaterThan(10);
    for (const e of termless) {
      // Listed for a lexical plan: no line of a document without its words can score (the pipeline skips it);
      expect(prose!.listedBound!(e, lexical)).toBe(Infinity);
      // a hybrid search ranks the same document's lines by their cosine: the lexical listing's bound is not its.
      expect(termlessProseDistance(hybrid, e.path)).toBeLessThan(1);
      expect(prose!.listedBound!(e, hybrid)).toBeUndefined();
    }
    // Listed for the hybrid plan: each termless document by its best case, in that order.
    const own = splitProse(compacted, display, {} as Source, hybrid, { keepBytes: false }).prose!;
    const bounds: number[] = [];
    for await (const e of own.list()) if (!own.holdsAnyTerm!(e, hybrid.terms)) bounds.push(own.listedBound!(e, hybrid)!);
    expect(bounds).toEqual(termless.map((e) => termlessProseDistance(hybrid, e.path)).sort((a, b) => a - b));
  });

  it('are listed within a floor (listWithin): those whose listed bound is past it left out and counted, the others in list()\'s order', async () => {
    const display = compacted.files.map((f) => f.key);
    const hybrid = buildRankPlan('castle river', 'hybrid', bundledLexicon());
    const prose = splitProse(compacted, display, {} as Source, hybrid, { keepBytes: false }).prose!;
    const all: Entry[] = [];
    for await (const e of prose.list()) all.push(e);
    const bounds = all.map((e) => prose.listedBound!(e, hybrid));
    const finite = bounds.filter((b): b is number => b !== undefined).sort((a, b) => a - b);
    expect(finite.length).toBeGreaterThan(10);
    for (const floor of [-Infinity, finite[0], finite[Math.floor(finite.length / 2)], finite[finite.length - 1], Infinity]) {
      const within = prose.listWithin!(hybrid, floor)!;
      const kept = all.filter((_, i) => !(bounds[i]! > floor));
      expect(within.entries).toEqual(kept);
      expect(within.left).toBe(all.length - kept.length);
    }
    expect(prose.listWithin!(hybrid, -Infinity)!.left).toBeGreaterThan(10);
    // For another plan object (a search that planned again), as it was listed: not at all.
    expect(prose.listWithin!(buildRankPlan('castle river', 'hybrid', bundledLexicon(), 0.5), 0)).toBeNull();
  });

  it('are bounded with their paths\' signals as pathSignals gives them, a path word matching their names or not', async () => {
    // Paths named after the query's words (directories and files), the others not.
    const named = Array.from({ length: 120 }, (_, f) => f % 2 === 0 ? `/n/${WORDS[f % WORDS.length]}/${WORDS[(f * 7) % WORDS.length]}Notes-${f}.md` : `/n/misc${f % 5}/page-${f}.md`).sort();
    const s = patchSnapshot(emptySnapshot(DIM, '1.1'), changes(named, new Set()), '1.1');
    const display = s.files.map((f) => f.key);
    const pasted = WORDS.map((w, i) => `${w}Thing${i} ${w}`).join(' ');
    let matched = 0;
    let bounded = 0;
    for (const text of ['castle river', 'retry failed uploads', 'winter harbor lantern', 'tests of the valley summit', 'nothing here matches', pasted]) {
      const plan = buildRankPlan(text, 'hybrid', bundledLexicon());
      const prose = splitProse(s, display, {} as Source, plan, { keepBytes: false }).prose!;
      for await (const e of prose.list()) {
        if (prose.holdsAnyTerm!(e, plan.terms)) continue;
        expect(prose.listedBound!(e, plan), `"${text.slice(0, 30)}" ${e.path}`).toBe(termlessProseDistance(plan, e.path));
        bounded++;
        if (pathSignals(e.path, plan).pathMatch > 0) matched++;
      }
    }
    expect(bounded).toBeGreaterThan(100);
    expect(matched).toBeGreaterThan(20);
  });

  it('are listed by their kept line terms from the search after those were counted (keepBytes)', async () => {
    const docs = Array.from({ length: 12 }, (_, f) => `/k/doc-${f}.md`);
    // Each document's one chunk lists the query's words (the postings: it can hold a term).
    const terms = new TermCollector();
    const rows: ChunkRow[] = docs.map((path, i) => {
      terms.add(i, idents(terms, 'castle river bridge'));
      return { path, start: 0, end: 48, hasTokens: true, chars: 60, blank: false, defs: [], halves: toFloat16(Float32Array.from({ length: DIM }, () => rnd() - 0.5)) };
    });
    const files = docs.map((key, i) => ({ key, size: 40 + i, mtime: 2, hash: `h${i}`, kind: 'text' as const, lines: 4 }));
    const s = patchSnapshot(emptySnapshot(DIM, '1.1'), { dropChunksOf: new Set<string>(), dropFiles: new Set<string>(), files, rows, terms }, '1.1');
    const display = s.files.map((f) => f.key);
    const plan = buildRankPlan('castle river bridge', 'hybrid', bundledLexicon());
    const listed = async () => {
      const prose = splitProse(s, display, {} as Source, plan, { keepBytes: true }).prose!;
      const out: (number | undefined)[] = [];
      for await (const e of prose.list()) if (prose.holdsAnyTerm!(e, plan.terms)) out.push(prose.listedBound!(e, plan));
      return out;
    };
    const before = await listed();
    expect(before.length).toBe(docs.length);
    // Not counted yet: read and counted by the search (listed first, by no bound).
    expect(before.every((b) => b === undefined)).toBe(true);
    s.files.forEach((f, i) => keepDocument(documentState(f), new TextEncoder().encode(`# Doc ${i}\n\nThe castle by the river${' and the road'.repeat(i)}.\nA bridge ${i}.\n`)));
    const alive = setInterval(() => {}, 1000);
    await keptLinesCounted();
    clearInterval(alive);
    // The same covered paths (the coverage's prose files kept): their line terms now known, each listed by its reach.
    const after = await listed();
    expect(after.length).toBe(before.length);
    expect(after.every((b) => b !== undefined && b < 1)).toBe(true);
    expect(after).toEqual([...after].sort((a, b) => a! - b!));
    // Within a floor among their bounds: those past it left out, the others in the same order.
    const floor = after[Math.floor(after.length / 2)]!;
    expect(after.filter((b) => b! > floor).length).toBeGreaterThan(2);
    const prose = splitProse(s, display, {} as Source, plan, { keepBytes: true }).prose!;
    const within = prose.listWithin!(plan, floor)!;
    expect(within.entries.map((e) => prose.listedBound!(e, plan))).toEqual(after.filter((b) => !(b! > floor)));
    expect(within.left).toBe(after.filter((b) => b! > floor).length);
  });
});
