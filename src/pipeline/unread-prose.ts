// Which prose files a search need not read: a file none of whose lines can enter the top-k, known from
// its source's line terms and bounds before it is read (exact: rank/prose.ts, rank/prose-lines.ts). What it
// learns of a file it leaves to be read (its statistics; whether it holds no term of the plan) is kept for
// the read (pipeline.ts processEntry takes it).
import { isProsePath, termlessProseDistance, type ProseStats } from '../rank/prose.js';
import { proseBest, proseHoldsNoTerm, proseLineReach, proseLineStats, proseReach } from '../rank/prose-lines.js';
import type { RankPlan } from '../rank/plan.js';
import type { Entry, Source } from '../sources/source.js';
import type { ProseLineTerms } from '../types.js';
import type { PipelineOptions } from './types.js';

/** How often outOfReach asked proseLineReach (a prose document's lines, each with its own cosine bound) and how often that skipped the document (tests). */
const lineReachWork = { calls: 0, skips: 0 };
export function proseLineReachWork(): { calls: number; skips: number } {
  return { ...lineReachWork };
}

export class UnreadProse {
  /** Prose entries' statistics from their source's line terms, until they are read (take). */
  private readonly known = new Map<Entry, ProseStats>();
  /** Prose entries to be read whose source's line terms hold no term of the plan (their lines' lexical scores are 0), until they are read. */
  private readonly termless = new Set<Entry>();

  /**
   * `floor`: the top-k's floor distance now (it only falls); `settle`: scores everything listed so far, once,
   * so that the floor prunes what comes next.
   */
  constructor(
    private readonly o: PipelineOptions,
    private readonly floor: () => number,
    private readonly settle: () => Promise<void>,
  ) {}

  /** What was learnt of an entry left to be read: its statistics (if counted from its line terms) and whether it holds no term. Forgotten once taken. */
  take(entry: Entry): { stats: ProseStats | undefined; termless: boolean } {
    const stats = this.known.get(entry);
    this.known.delete(entry);
    return { stats, termless: this.termless.delete(entry) };
  }

  /**
   * A source that lists by its bounds for this very plan (listWithin: prose-source.ts), with no
   * --max-filesize and the gates of outOfReach's skips: everything listed before is scored first, and
   * the entries whose listed bound is past the floor then are left out of its listing (outOfReach would
   * skip each at its turn: the floor only falls; ~1,400 entries a search on the bench tree, nearly all
   * out of reach), counted as searched as outOfReach counts them, once the listing is through (a search
   * cut by its deadline before then never came to them). null: list() as it is.
   */
  async listWithin(source: Source): Promise<{ entries: Entry[]; left: number } | null> {
    const { o } = this;
    const plan = o.rank;
    if (!source.listWithin || !plan?.prose || o.ignoreCase || !source.holdsAnyTerm || o.maxFileBytes !== undefined) return null;
    await this.settle();
    return source.listWithin(plan, this.floor());
  }

  /**
   * A prose file none of whose lines holds a query term (its source knows before reading it) whose best
   * case cannot enter the full top-k: skipped unread, since its lines would be dropped. Exact: its
   * lines' lexical score is 0 and their cosine at most 1 (rank/prose.ts); the heap's floor only falls, and a
   * heap that is not full (--max-distance alone, or too few hits yet) skips nothing.
   */
  async outOfReach(source: Source, entry: Entry): Promise<boolean> {
    const { o } = this;
    const plan = o.rank;
    if (!plan?.prose || o.ignoreCase || !source.holdsAnyTerm) return false;
    const listed = source.listedBound?.(entry, plan);
    if (listed === undefined && !isProsePath(entry.path)) return false;
    await this.settle();
    const rank = entry.rank ?? entry.path;
    // The bound the source listed it by, for this very plan (prose-source.ts): what the checks below start
    // with, worked out once for the listing, not again per entry (~1,400 a search on the bench tree): for
    // a document whose postings hold a term, proseReach of its line terms at a cosine of 1 (with the path's
    // facts, as pathSignals takes them from the path); for one that holds none, termlessProseDistance at a
    // cosine of 1. Either is at most every line's distance at any cosine, and the same plan means the
    // same terms, so the same documents hold none. Line terms counted again since the listing are the same
    // document state's: the bound holds for them. Skipped only where the checks below may skip (not a file
    // --max-filesize cuts; the gates above).
    if (listed !== undefined && listed > this.floor() && this.uncut(entry)) return true;
    // The source knows which words an entry holds, not which numbers: with the query's numbers (terms of
    // a prose line too: rank/prose.ts proseTermCount) any entry may hold one, and its line terms tell.
    if (plan.prose.numbers.length > 0 || source.holdsAnyTerm(entry, plan.terms)) {
      // Its line terms, when the source keeps them, give its statistics (exactly those counting it
      // gives) and a bound on its best line unread (rank/prose-lines.ts), unless --max-filesize would
      // cut it: skipped when that cannot enter the top-k.
      const lines = this.uncut(entry) ? source.proseLines?.(entry, plan) : null;
      if (!lines) return false;
      // The cheap bound first (a few sums per term and gram, a cosine of 1), then with a bound on its lines'
      // cosines where the source keeps one, the one from its lines only when those are within reach.
      const floor = this.floor();
      // A heap that is not full skips nothing: no bound is worth its cost yet.
      if (floor === Infinity) return this.toRead(entry, lines, plan);
      if (proseReach(lines, plan, rank) > floor) return true;
      const cosine = this.cosineBound(source, entry);
      if (cosine < 1 && proseReach(lines, plan, rank, undefined, cosine) > floor) return true;
      if (proseBest(lines, plan, rank, undefined, floor, cosine) > floor) return true;
      // Line by line, each line's lexical bound with its own cosine bound (rank/prose-lines.ts proseLineReach).
      const lineCosine = cosine < 1 ? source.proseLineCosine?.(entry, o.query) : null;
      if (lineCosine) {
        lineReachWork.calls++;
        if (proseLineReach(lines, plan, rank, lineCosine, cosine) > floor) { lineReachWork.skips++; return true; }
      }
      // Its lines' grams counted from its bytes where that bound took each at its most (the index's statistics file).
      const read = await source.proseLinesRead?.(entry, plan);
      if (read && proseBest(read, plan, rank, undefined, floor, cosine) > floor) return true;
      return this.toRead(entry, lines, plan);
    }
    const best = termlessProseDistance(plan, rank);
    if (best === Infinity || best > this.floor()) return true;
    const cosine = this.cosineBound(source, entry);
    if (cosine < 1 && termlessProseDistance(plan, rank, cosine) > this.floor()) return true;
    // Read and scored: its statistics from its line terms where the source keeps them (exactly those
    // counting it gives: its grams' document frequencies), so its lines are not counted again first.
    const lines = this.uncut(entry) ? source.proseLines?.(entry, plan) : null;
    return lines ? this.toRead(entry, lines, plan) : false;
  }

  /** Whether --max-filesize leaves the entry whole (no cap, or a size known within it): kept line terms stand for it only then. */
  uncut(entry: Entry): boolean {
    return this.o.maxFileBytes === undefined || (entry.size ?? Infinity) <= this.o.maxFileBytes;
  }

  /** An entry outOfReach leaves to be read, with its source's line terms: their statistics, and whether they hold no term. */
  private toRead(entry: Entry, lines: ProseLineTerms, plan: RankPlan): false {
    this.known.set(entry, proseLineStats(lines, plan));
    if (proseHoldsNoTerm(lines, plan)) this.termless.add(entry);
    return false;
  }

  /** At least the cosine of every line of a prose entry (the source's bound: a resident index's kept tokens), 1 when unknown or when the cosine does not weigh. */
  private cosineBound(source: Source, entry: Entry): number {
    return (this.o.rank?.prose?.semantic ?? 0) > 0 && source.proseCosine ? source.proseCosine(entry, this.o.query) : 1;
  }
}
