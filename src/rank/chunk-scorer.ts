// Lexical side of hybrid ranking, run in the workers: cuts a file's lines into fixed chunks, counts
// query terms per chunk (BM25 over identifier-aware terms plus the file's path terms), finds lines
// that define a symbol the query names, and picks each chunk's most telling line.
import type { RankPlan } from './plan.js';
import { definedName } from './definitions.js';
import { identifierParts, partStems, pathText } from './lexical/terms.js';
import { pathSignals } from './path-signals.js';
import { isDigit, isIdentChar, probeOf, pushRunTerms, tally, termIndexOf } from './term-index.js';
import { HASH_START, hashStep, identifierRuns, ownCopy } from './run-table.js';
import { probeStarts, probesPattern } from './probe-starts.js';
import { fold, isAscii, textWords } from './lexical/words.js';

export interface ChunkStats {
  /** Range-relative lines [from, to) of the chunk. */
  from: number;
  to: number;
  /** BM25 of the chunk (its lines plus its file's path terms). */
  bm25: number;
  /** 0..1: how well a line of the chunk defines a symbol the query names. */
  symbol: number;
  /** The chunk's line that holds the most query terms (chunk-relative), -1 when none does. */
  best: number;
  /** The chunk's first non-blank line (chunk-relative), -1 when all are blank. */
  first: number;
}

/**
 * Counts of each plan term in a text's identifiers (added into `tf`); returns true if any matched.
 * `touched` gets each term whose count was 0 before (so callers reset and sum only those).
 */
export function countTerms(text: string, plan: RankPlan, tf: Float64Array, touched?: number[]): boolean {
  return isAscii(text) ? countAsciiTerms(text, plan, tf, touched) : countWordTerms(text, plan, tf, touched);
}

/** Each term's probe (term-index.ts probeOf), by plan terms list: one slice per term, not per line. */
const termProbes = new WeakMap<RankPlan['terms'], string[]>();

/**
 * An identifier's parts' stems, by identifier: the same words recur from line to line (bounded: cleared
 * when full). Kept by its own copy: a defined name is a slice of a decoded range, which it kept alive.
 */
const identStems = new Map<string, string[]>();
const IDENT_STEMS = 50_000;

function stemsOf(ident: string): string[] {
  let stems = identStems.get(ident);
  if (!stems) {
    if (identStems.size >= IDENT_STEMS) identStems.clear();
    identStems.set(ownCopy(ident), stems = partStems(ident));
  }
  return stems;
}

/** countTerms of a text known to be ASCII. */
function countAsciiTerms(text: string, plan: RankPlan, tf: Float64Array, touched?: number[]): boolean {
  let probes = termProbes.get(plan.terms);
  if (!probes) termProbes.set(plan.terms, probes = plan.terms.map(probeOf));
  const lower = text.toLowerCase();
  const spans = identStarts(text, lower, probes);
  if (!spans) return false;
  const terms = spanHits;
  terms.length = 0;
  let last = -1;
  for (const s of spans) {
    if (s === last) continue;
    last = s;
    spanTerms(text, s, plan, terms);
  }
  for (const t of terms) { if (touched && tf[t] === 0) touched.push(t); tf[t]++; }
  return terms.length > 0;
}

/** The terms spanTerms finds for countAsciiTerms (reused: a call's are counted before it returns). */
const spanHits: number[] = [];

/**
 * Where the identifiers holding a probe start in an ASCII text (`lower`: the text lower-cased), sorted,
 * maybe with repeats; null when none does. An identifier never spans a line end, so the starts in lines
 * joined by \n are each line's own. Probes of identifier characters (nearly all): in one pass over the
 * text (probe-starts.ts), not one per probe.
 */
function identStarts(text: string, lower: string, probes: string[]): number[] | null {
  const pattern = probesPattern(probes);
  if (pattern) return probeStarts(text, lower, pattern);
  let spans: number[] | null = null;
  for (const probe of probes) {
    // An empty probe is at every place, and `p + 0` never moves on: no term is empty (query-terms.ts), and
    // none is counted should one come another way.
    if (probe.length === 0) continue;
    for (let p = lower.indexOf(probe); p >= 0; p = lower.indexOf(probe, p + probe.length)) {
      let s = p;
      while (s > 0 && isIdentChar(text.charCodeAt(s - 1))) s--;
      // A word's leading digits are not part of it (words.ts): `8_8` is the word `_8`, `2025` none.
      while (s < text.length && isDigit(text.charCodeAt(s))) s++;
      (spans ??= []).push(s);
    }
  }
  if (spans) spans.sort((a, b) => a - b);
  return spans;
}

/**
 * Adds to `out` each plan term the ASCII identifier starting at `s` counts for, once per count: its
 * run's terms in the thread's run dictionary (run-table.ts, term-index.ts pushRunTerms: the whole term
 * equal to it lower-cased, the part term of each of its parts' stems), worked out once per distinct
 * identifier and plan. Was a slice, a lower-cased slice and a Map of stems (50,000, cleared when full)
 * per identifier, compared with every term: the bench tree's code holds ~280,000 distinct words (first36).
 */
function spanTerms(text: string, s: number, plan: RankPlan, out: number[]): void {
  let e = s;
  let h = HASH_START;
  while (e < text.length) {
    const c = text.charCodeAt(e);
    if (!isIdentChar(c)) break;
    h = hashStep(h, c);
    e++;
  }
  if (e === s) return;
  pushRunTerms(termIndexOf(plan), plan, identifierRuns.id(text, s, e, h), out);
}

/** Distinct probes by plan terms list (a plan made again for the same query shares it). */
const planProbeLists = new WeakMap<RankPlan['terms'], string[]>();

/** The term hits of consecutive lines: hit k is of term `terms[k]` in line `lines[k]`, in line order. */
export interface LineHits { lines: number[]; terms: number[] }

/**
 * What countTerms counts in each of consecutive ASCII lines, found in one pass over the lines joined (one
 * lower-casing and one pass of the probes (identStarts) for a scored range, not per line: most code lines hold no query
 * term): each line's hits in the order countTerms counts them. null when the lines are not all ASCII,
 * where lower-casing may change a text's length and countTerms reads words otherwise, or a probe is empty.
 * `ascii`: whether the lines are all ASCII, where the caller knows it (the bytes it decoded them from: a scan's
 * batch, whose regular-expression test over every range was ~20 ms of each worker's first scan); else tested here.
 * A wrong `true` whose lower-casing changes the text's length gives null too (not a throw).
 */
export function asciiLineHits(lines: string[], plan: RankPlan, ascii?: boolean): LineHits | null {
  if (ascii === false) return null;
  let probes = planProbeLists.get(plan.terms);
  if (!probes) planProbeLists.set(plan.terms, probes = [...new Set(plan.terms.map(probeOf))]);
  if (probes.some((p) => p.length === 0)) return null;
  const text = lines.join('\n');
  if (ascii === undefined && NON_ASCII.test(text)) return null;
  const lower = text.toLowerCase();
  // A caller's `ascii` said wrongly (lower-casing changed the length: the spans would not be the text's): each line on its own.
  if (lower.length !== text.length) return null;
  const hits: LineHits = { lines: [], terms: [] };
  const spans = identStarts(text, lower, probes);
  if (!spans) return hits;
  let line = 0;
  let lineEnd = lines[0].length;
  let last = -1;
  for (const s of spans) {
    if (s === last) continue;
    last = s;
    while (s > lineEnd) lineEnd += 1 + lines[++line].length;
    spanTerms(text, s, plan, hits.terms);
    while (hits.lines.length < hits.terms.length) hits.lines.push(line);
  }
  return hits;
}

const NON_ASCII = /[^\x00-\x7f]/;

const planProbes = new WeakMap<RankPlan, string[]>();

/**
 * countTerms of a text that is not ASCII: each of its words (any script, words.ts) against each term.
 * On ASCII text it counts what countTerms' fast path counts (the unit tests check it on random text).
 */
export function countWordTerms(text: string, plan: RankPlan, tf: Float64Array, touched?: number[]): boolean {
  const terms = plan.terms;
  const count = tally(tf, touched);
  const folded = fold(text);
  let probes = planProbes.get(plan);
  if (!probes) planProbes.set(plan, probes = terms.map(probeOf));
  if (!probes.some((probe) => folded.includes(probe))) return false;
  for (const word of textWords(text)) {
    const whole = fold(word);
    let stems: string[] | null = null;
    for (let t = 0; t < terms.length; t++) {
      const term = terms[t];
      if (term.whole) {
        if (whole === term.key) count.hit(t);
        continue;
      }
      stems ??= partStems(word);
      for (const partStem of stems) if (partStem === term.key) count.hit(t);
    }
  }
  return count.matched;
}

/**
 * Boost of a line defining `name`: the symbol's strength, x1.5 when the file is named after it. The name
 * folded as the terms are (fold: `Straße` is `strasse`, `👍🏽` is `👍`), not lower-cased alone (left37).
 */
export function symbolScore(name: string, plan: RankPlan, fileStem: string): number {
  const lower = fold(name.replace(/^\$+/, ''));
  const strength = plan.symbols.find((s) => s.name === lower)?.strength;
  if (strength === undefined) return 0;
  return strength * (stemNames(fold(fileStem), lower) ? 1.5 : 1);
}

/** Share of the query terms' idf that a defined name's parts carry (`add_api_route` for "how are routes added"). */
export function nameCoverage(name: string, plan: RankPlan): number {
  if (!(plan.idfSum > 0)) return 0;
  const lower = fold(name);
  const stems = stemsOf(name);
  let covered = 0;
  for (const term of plan.terms) {
    if (term.whole ? lower === term.key : stems.includes(term.key)) covered += term.idf;
  }
  return covered / plan.idfSum;
}

function stemNames(fileStem: string, name: string): boolean {
  const flat = fileStem.replace(/_/g, '');
  return fileStem === name || flat === name || fileStem.replace(/s+$/, '') === name || flat.replace(/s+$/, '') === name;
}

/** The counts of a path's terms (countTerms of pathText), kept for the last path and plan: a file's ranges come one after another. */
let lastPath: { path: string; terms: RankPlan['terms']; tf: Float64Array; termList: number[]; length: number } | null = null;

function pathCounts(path: string, plan: RankPlan): { tf: Float64Array; terms: number[]; length: number } {
  if (lastPath === null || lastPath.path !== path || lastPath.terms !== plan.terms) {
    const text = pathText(path);
    const tf = new Float64Array(plan.terms.length);
    const termList: number[] = [];
    countTerms(text, plan, tf, termList);
    lastPath = { path, terms: plan.terms, tf, termList, length: text.length };
  }
  return { tf: lastPath.tf, terms: lastPath.termList, length: lastPath.length };
}

/**
 * Chunk statistics for one scored range of a file: `lines` are its lines, the first being file line
 * `firstLine`; chunks are cut at file lines that are multiples of plan.chunkLines. `ascii`: as asciiLineHits takes it.
 */
export function chunkStats(lines: string[], firstLine: number, path: string, plan: RankPlan, signals = pathSignals(path, plan), ascii?: boolean): ChunkStats[] {
  const nTerms = plan.terms.length;
  const { tf: pathTf, terms: pathTerms, length: pathLength } = pathCounts(path, plan);
  const { fileStem } = signals;
  const { k1, b, avgdl, tokensPerChar } = plan.bm25;
  // Only the terms a line or chunk holds are reset and summed (a long query has up to RANK_DEFAULTS.maxQueryTerms), and in
  // plan order, so the sums are the very floats the index computes.
  const lineTf = new Float64Array(nTerms);
  const lineTerms: number[] = [];
  const tf = new Float64Array(nTerms);
  const chunkTerms: number[] = [];
  const byOrder = (x: number, y: number) => x - y;
  // Each line's terms, found for all the lines at once (null: count each line on its own).
  const hits = asciiLineHits(lines, plan, ascii);
  let h = 0;
  const out: ChunkStats[] = [];
  const size = plan.chunkLines;
  let from = 0;
  while (from < lines.length) {
    const to = Math.min(lines.length, from + size - ((firstLine + from) % size));
    for (const t of chunkTerms) tf[t] = 0;
    chunkTerms.length = 0;
    for (const t of pathTerms) { tf[t] = pathTf[t]; chunkTerms.push(t); }
    let chars = pathLength;
    let symbol = 0;
    let best = -1;
    let bestKey = 0;
    let first = -1;
    for (let i = from; i < to; i++) {
      const line = lines[i];
      chars += line.length;
      if (first < 0 && line.trim() !== '') first = i - from;
      lineTerms.length = 0;
      if (hits !== null) {
        if (h === hits.lines.length || hits.lines[h] !== i) continue;
        for (; h < hits.lines.length && hits.lines[h] === i; h++) {
          const t = hits.terms[h];
          if (lineTf[t] === 0) lineTerms.push(t);
          lineTf[t]++;
        }
      } else if (!countTerms(line, plan, lineTf, lineTerms)) continue;
      lineTerms.sort(byOrder);
      let lexical = 0;
      for (const t of lineTerms) {
        if (tf[t] === 0) chunkTerms.push(t);
        tf[t] += lineTf[t];
        lexical += plan.terms[t].idf;
        lineTf[t] = 0;
      }
      // hits: the file is ASCII (asciiLineHits answers only then).
      const name = definedName(line, hits !== null || undefined);
      const defines = name ? Math.max(symbolScore(name, plan, fileStem), plan.definitionBoost * nameCoverage(name, plan)) : 0;
      if (defines > symbol) symbol = defines;
      const key = lexical + defines * plan.idfSum * 4;
      if (key > bestKey) { bestKey = key; best = i - from; }
    }
    const dl = chars * tokensPerChar;
    let bm25 = 0;
    chunkTerms.sort(byOrder);
    for (const t of chunkTerms) {
      const f = tf[t];
      if (f > 0) bm25 += plan.terms[t].idf * (f * (k1 + 1)) / (f + k1 * (1 - b + (b * dl) / avgdl));
    }
    out.push({ from, to, bm25, symbol, best, first });
    from = to;
  }
  return out;
}

/** The chunks of one scored range with no lexical signal (semantic mode): bounds only, as chunkStats cuts them. */
export function chunkBounds(lineCount: number, firstLine: number, plan: RankPlan): ChunkStats[] {
  const out: ChunkStats[] = [];
  const size = plan.chunkLines;
  for (let from = 0; from < lineCount; ) {
    const to = Math.min(lineCount, from + size - ((firstLine + from) % size));
    out.push({ from, to, bm25: 0, symbol: 0, best: -1, first: -1 });
    from = to;
  }
  return out;
}
