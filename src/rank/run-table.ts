// The identifier runs a process has seen, each once with what it is made of (lower-cased whole, its
// parts' stems), found in place in a text by a hash taken as the run is scanned: an ASCII prose line's
// terms and grams are counted per identifier run (prose-run-terms.ts), and text repeats its identifiers,
// so most runs cost one probe here, no string made and no split or stem, whatever the query.
import { partStems } from './lexical/terms.js';

/** FNV-1a's offset basis and step: call hashStep per char from HASH_START. */
export const HASH_START = 0x811c9dc5 | 0;

export function hashStep(h: number, c: number): number {
  return Math.imul(h ^ c, 0x01000193);
}

/** Distinct runs kept (~10 MB at most); when full, the dictionary starts again empty. */
export const RUN_LIMIT = 1 << 16;

export interface RunDictionary {
  /** The id of the run text[from, to) hashed `h` (by hashStep), added when new. */
  id(text: string, from: number, to: number, h: number): number;
  /** The run lower-cased (ASCII runs: the folded text's slice). */
  whole(id: number): string;
  /** Its parts' stems, in order (identifierParts, then stem). */
  stems(id: number): string[];
  /** Changes when the dictionary starts again: ids taken before mean nothing after. */
  readonly generation: number;
  readonly size: number;
}

export function createRunDictionary(maxRuns = RUN_LIMIT): RunDictionary {
  let mask = 1023;
  let slots = new Int32Array(mask + 1).fill(-1);
  let hashes: number[] = [];
  let keys: string[] = [];
  let wholes: string[] = [];
  /** Each run's parts' stems, worked out when first asked (most runs match no term: their probes tell). */
  let stemLists: (string[] | undefined)[] = [];
  let generation = 0;

  const sameRun = (key: string, text: string, from: number, to: number): boolean => {
    if (key.length !== to - from) return false;
    for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) !== text.charCodeAt(from + i)) return false;
    return true;
  };
  const place = (e: number) => {
    let at = hashes[e] & mask;
    while (slots[at] !== -1) at = (at + 1) & mask;
    slots[at] = e;
  };
  const add = (run: string, h: number): number => {
    if (keys.length >= maxRuns) {
      generation++;
      mask = 1023;
      slots = new Int32Array(mask + 1).fill(-1);
      hashes = []; keys = []; wholes = []; stemLists = [];
    }
    const e = keys.length;
    hashes.push(h);
    keys.push(run);
    wholes.push(run.toLowerCase());
    stemLists.push(undefined);
    // At most half full, so a probe soon ends at an empty slot.
    if (keys.length * 2 > mask + 1) {
      mask = mask * 2 + 1;
      slots = new Int32Array(mask + 1).fill(-1);
      for (let x = 0; x < keys.length; x++) place(x);
    } else {
      place(e);
    }
    return e;
  };

  return {
    get generation() { return generation; },
    get size() { return keys.length; },
    id(text, from, to, h) {
      for (let at = h & mask; ; at = (at + 1) & mask) {
        const e = slots[at];
        if (e === -1) return add(ownCopy(text.slice(from, to)), h);
        if (hashes[e] === h && sameRun(keys[e], text, from, to)) return e;
      }
    },
    whole: (id) => wholes[id],
    stems: (id) => (stemLists[id] ??= partStems(keys[id])),
  };
}

/**
 * A run's text that holds none of the text it was cut from: V8 makes a slice of 13 characters or more a
 * view of its whole source (a decoded batch range, a chunk's lines joined), which a dictionary of 65,536
 * runs would keep alive for the thread's life. The slice of a concatenation is cut from a flat copy of it.
 */
export function ownCopy(run: string): string {
  return run.length < 13 ? run : (' ' + run).slice(1);
}

/** The thread's tables (their marks cleared when the tokens come round again: newRunToken). */
const tables: RunSlotTable[] = [];
let lastToken = 0;
/** How many times the tokens came round: an owner of an older round holds a token a newer owner may hold too. */
let round = 0;

/**
 * The bounds of the run tables' owners, a module value so that a test can lower them (run-table.test.ts):
 * `tokens`, the last token before they come round again (Int32Array marks); `list`, the entries an owner's list
 * may hold before it starts over (runList).
 */
export const runTableLimits = { tokens: 0x7fffffff, list: RUN_LIMIT };

/**
 * What each dictionary run counts for, per owner (a plan's terms: term-index.ts; its grams: prose-run-terms.ts):
 * one table a thread shares between the owners of a kind, each entry marked with the token of the owner that
 * worked it out (`first` and `count` are that owner's). A new plan takes no table of its own: tables per plan, of
 * the runs met so far (RUN_LIMIT on a big tree), were two Int32Arrays of 256 KB zeroed and filled, ~0.8 ms of each
 * warm search's main thread (branch warm38). An entry another owner took since is worked out again (what any run's
 * first sight costs), so owners that take turns (searches interleaved) get the same answers.
 */
export class RunSlotTable {
  /** Per run id, the token of the owner whose entry it is (0: none). */
  owner = new Int32Array(1024);
  /** Per run id, where its entries start in the owner's list, and how many. */
  first = new Int32Array(1024);
  count = new Int32Array(1024);

  constructor() {
    tables.push(this);
  }

  /** Makes room for run `id` (the same entries). */
  grow(id: number): void {
    const n = Math.min(RUN_LIMIT, Math.max(id + 1, this.owner.length * 2));
    const owner = new Int32Array(n); owner.set(this.owner); this.owner = owner;
    const first = new Int32Array(n); first.set(this.first); this.first = first;
    const count = new Int32Array(n); count.set(this.count); this.count = count;
  }
}

/**
 * An owner of entries in a RunSlotTable: its token (unique among the thread's owners of the current round), the
 * round it was taken in, and the table of its kind. An owner of an older round has no entries: its token may be
 * a newer owner's, so runFirst finds none of its and runList gives it a new token and an empty list.
 */
export interface RunSlots { token: number; round: number; readonly table: RunSlotTable }

/** A new owner of entries in `table` (no entries yet). */
export function newRunSlots(table: RunSlotTable): RunSlots {
  const token = newRunToken();
  return { token, round, table };
}

/**
 * A token no entry of any table holds. When the tokens come round (runTableLimits.tokens), every table's marks
 * are cleared and the round goes up: owners of the older round hold tokens that new owners take again, and take
 * a new one themselves before they mark an entry (runList), so no two owners of a round share a token.
 */
function newRunToken(): number {
  if (lastToken >= runTableLimits.tokens) {
    lastToken = 0;
    round++;
    for (const t of tables) t.owner.fill(0);
  }
  return ++lastToken;
}

/**
 * The list the owner `s` adds a run's entries to (the run not its: runFirst -1), `list` itself or, when it holds
 * more than runTableLimits.list entries (owners that take turns for long work runs out again, and a list is
 * never cut otherwise) or the owner's token is of an older round, an empty one under a new token (a restart
 * only means working the runs out again).
 */
export function runList<T>(s: RunSlots, list: T[]): T[] {
  if (list.length <= runTableLimits.list && s.round === round) return list;
  s.token = newRunToken();
  s.round = round;
  return [];
}

/** Where run `id`'s entries start in the list of the owner `s`, or -1 when they are not its (not worked out, or another owner's since). */
export function runFirst(s: RunSlots, id: number): number {
  const t = s.table;
  return id < t.owner.length && t.owner[id] === s.token && s.round === round ? t.first[id] : -1;
}

/** Marks run `id`'s entries as the owner's: `count` of them from `first` in its list (the one runList gave). */
export function setRun(s: RunSlots, id: number, first: number, count: number): void {
  const t = s.table;
  if (id >= t.owner.length) t.grow(id);
  t.owner[id] = s.token;
  t.first[id] = first;
  t.count[id] = count;
}

/** The process's dictionary (one per thread: each worker has its own). */
export const identifierRuns = createRunDictionary();
