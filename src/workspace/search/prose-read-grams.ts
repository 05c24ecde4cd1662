// A prose document's grams counted line by line from its bytes, for the lines that hold a query key
// (issue 30): the index's statistics file keeps each gram's most in a line only, so the bound on a
// document's best line taken from it counts every gram at its most in every such line. A long query's
// ~100 grams then put most documents within reach of the results, each read and scored whole (a
// 100,000-character query read 115 of the bench tree's Markdown files, 8 before the lexical parts were
// added before their saturation). Counted from the bytes, the bound is those lines' own lexical score.
import { openChunks } from '../build/file-chunks.js';
import { sha256Hex } from '../build/hex-digest.js';
import { gramKey } from '../../rank/lexical/grams.js';
import { lineGrams, proseLexical, PROSE_B, PROSE_K1, type ProseStats } from '../../rank/prose.js';
import { proseLineStats } from '../../rank/prose-lines.js';
import { keyIdOf, proseTermKeys, type PackedProseLines } from '../../rank/prose-lines-build.js';
import { gramIndexIn, internGram, type DocumentGrams } from '../../rank/prose-doc-grams.js';
import type { RankPlan } from '../../rank/plan.js';
import type { ProsePlanTerms } from '../../types.js';

/**
 * `t`'s grams (a document's from the statistics file: ids, document frequencies and most in a line,
 * each at its most in every line that holds a key) with the `held` lines (ascending: those that hold a
 * key) given their own counts of the plan's grams, as the scorer counts them (rank/prose.ts lineGrams of
 * the line's text), from the line whose bound with its grams at their most is highest down, until the
 * next one's is no more than the best lexical score counted: the lines left keep their grams at their
 * most, which cannot lift them past that line, so the best line's bound is its own score. `bytes` are
 * the document's, `hash` its indexed sha256. Null when the bytes are not that document (another hash,
 * another count or length of lines) or a line holds a gram more often than the file says: the bound from
 * the file stays then.
 */
export async function readLineGrams(bytes: Uint8Array, hash: string, t: PackedProseLines, held: Uint16Array, plan: ProsePlanTerms): Promise<DocumentGrams | null> {
  if (sha256Hex(bytes) !== hash) return null;
  const texts = await heldLines(bytes, t.lengths, held);
  if (!texts) return null;
  const grams = t.grams;
  const n = grams.gramId.length;
  // lineGrams, proseLineStats and proseLexical read only the plan's terms and grams.
  const rank = plan as RankPlan;
  const stats = proseLineStats(t, rank);
  const { own, window } = wordParts(t, rank, stats);
  // Each plan gram's index among the document's grams (-1: the document holds none).
  const at = Int32Array.from(plan.prose?.grams ?? [], (g) => gramIndexIn(grams, internGram(gramKey(g))));
  const normOf = (l: number) => PROSE_K1 * (1 - PROSE_B + (PROSE_B * t.lengths[l]) / stats.avgChars);
  const part = (g: number, f: number, norm: number) => stats.gramIdf[g] * (f * (PROSE_K1 + 1)) / (f + norm);
  const most = Float64Array.from(held, (l) => {
    let sum = 0;
    for (let g = 0; g < at.length; g++) if (at[g] >= 0) sum += part(g, grams.gramMost[at[g]], normOf(l));
    return proseLexical(own[l], window[l], sum, stats);
  });
  const order = Array.from(held.keys()).sort((x, y) => most[y] - most[x]);
  /** Per held line counted: its (gram index, count) pairs; null: not counted (each gram at its most). */
  const rows: (number[] | null)[] = new Array(held.length).fill(null);
  let best = -Infinity;
  for (const q of order) {
    if (most[q] <= best) break;
    const l = held[q];
    const row = lineGrams(texts[q], rank);
    const pairs: number[] = [];
    let sum = 0;
    for (let k = 0; k < row.grams.length; k++) {
      const i = at[row.grams[k]];
      if (i < 0 || row.gramCounts[k] > grams.gramMost[i]) return null;
      pairs.push(i, row.gramCounts[k]);
      sum += part(row.grams[k], row.gramCounts[k], normOf(l));
    }
    best = Math.max(best, proseLexical(own[l], window[l], sum, stats));
    rows[q] = pairs;
  }
  // Each gram's lines in ascending order, as DocumentGrams lays them out (addLinesGramBm25 searches them):
  // the held lines in their order, a counted one with its own counts, the others with each gram at its most.
  const perGram: { line: number[]; count: number[] }[] = Array.from({ length: n }, () => ({ line: [], count: [] }));
  for (let q = 0; q < held.length; q++) {
    const pairs = rows[q];
    if (pairs) for (let j = 0; j < pairs.length; j += 2) { perGram[pairs[j]].line.push(held[q]); perGram[pairs[j]].count.push(pairs[j + 1]); }
    else for (let i = 0; i < n; i++) { perGram[i].line.push(held[q]); perGram[i].count.push(grams.gramMost[i]); }
  }
  const lineStart = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) lineStart[i + 1] = lineStart[i] + perGram[i].line.length;
  const line = new Uint16Array(lineStart[n]);
  const count = new Uint32Array(lineStart[n]);
  perGram.forEach((p, i) => { line.set(p.line, lineStart[i]); count.set(p.count, lineStart[i]); });
  return { slot: -1, gramId: grams.gramId, gramDf: grams.gramDf, gramMost: grams.gramMost, lineStart, line, count };
}

/** Each line's BM25 and its window's for the plan's prose terms (its terms and numbers), from the document's key postings (as proseBest sums them). */
function wordParts(t: PackedProseLines, plan: RankPlan, stats: ProseStats): { own: Float64Array; window: Float64Array } {
  const own = new Float64Array(t.lines);
  const window = new Float64Array(t.lines);
  proseTermKeys(plan).forEach((key, k) => {
    const id = keyIdOf(key);
    const x = id === undefined ? -1 : t.indexOf(id);
    if (x < 0) return;
    const w = stats.idf[k];
    for (let j = t.ownStart[x]; j < t.ownStart[x + 1]; j++) own[t.ownLine[j]] += w * t.ownPart[j];
    for (let j = t.winStart[x]; j < t.winStart[x + 1]; j++) window[t.winLine[j]] += w * t.winPart[j];
  });
  return { own, window };
}

/** The text of the held lines, cut as the statistics were counted (build/file-chunks.ts); null when the lines are not those counted. */
async function heldLines(bytes: Uint8Array, lengths: Uint32Array, held: Uint16Array): Promise<string[] | null> {
  const opened = await openChunks((async function* () { yield bytes; })(), 1 << 16);
  if (opened.binary) return null;
  const texts: string[] = [];
  let q = 0;
  for await (const chunk of opened.chunks) {
    for (; q < held.length && held[q] < chunk.end; q++) {
      if (held[q] < chunk.start) return null;
      const text = chunk.lines[held[q] - chunk.start];
      if (text.length !== lengths[held[q]]) return null;
      texts.push(text);
    }
  }
  return q === held.length && opened.lines() === lengths.length ? texts : null;
}
