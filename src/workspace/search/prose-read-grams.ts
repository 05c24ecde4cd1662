// A prose document's grams counted line by line from its bytes, for the lines that hold a query key
// (issue 30): the index's statistics file keeps each gram's most in a line only, so the bound on a
// document's best line taken from it counts every gram at its most in every such line. A long query's
// ~100 grams then put most documents within reach of the results, each read and scored whole (a
// 100,000-character query read 115 of the bench tree's Markdown files, 8 before the lexical parts were
// added before their saturation). Counted from the bytes, the bound is those lines' own lexical score.
import crypto from 'node:crypto';
import { openChunks } from '../build/file-chunks.js';
import { gramKey } from '../../rank/lexical/grams.js';
import { lineGrams } from '../../rank/prose.js';
import { gramIndexIn, internGram, type DocumentGrams } from '../../rank/prose-doc-grams.js';
import type { RankPlan } from '../../rank/plan.js';
import type { ProsePlanTerms } from '../../types.js';

/**
 * `grams` (a document's from the statistics file: ids, document frequencies and most in a line) with
 * each of the `held` lines (ascending) given its own count of each plan gram, as the scorer counts them
 * (rank/prose.ts lineGrams of the line's text). `bytes` are the document's, `hash` its indexed sha256
 * and `lengths` its lines' as counted. Null when the bytes are not that document (another hash, another
 * count or length of lines) or a line holds a gram more often than the file says: the bound from the
 * file stays then.
 */
export async function readLineGrams(bytes: Uint8Array, hash: string, lengths: Uint32Array, held: Uint16Array, grams: DocumentGrams, plan: ProsePlanTerms): Promise<DocumentGrams | null> {
  if (sha256Hex(bytes) !== hash) return null;
  const texts = await heldLines(bytes, lengths, held);
  if (!texts) return null;
  // Each plan gram's index among the document's grams (-1: the document holds none).
  const list = plan.prose?.grams ?? [];
  const at = Int32Array.from(list, (g) => gramIndexIn(grams, internGram(gramKey(g))));
  const n = grams.gramId.length;
  const perGram: { line: number[]; count: number[] }[] = Array.from({ length: n }, () => ({ line: [], count: [] }));
  for (let q = 0; q < held.length; q++) {
    // lineGrams reads only the plan's grams.
    const row = lineGrams(texts[q], plan as RankPlan);
    for (let k = 0; k < row.grams.length; k++) {
      const i = at[row.grams[k]];
      if (i < 0 || row.gramCounts[k] > grams.gramMost[i]) return null;
      perGram[i].line.push(held[q]);
      perGram[i].count.push(row.gramCounts[k]);
    }
  }
  const lineStart = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) lineStart[i + 1] = lineStart[i] + perGram[i].line.length;
  const line = new Uint16Array(lineStart[n]);
  const count = new Uint32Array(lineStart[n]);
  perGram.forEach((p, i) => { line.set(p.line, lineStart[i]); count.set(p.count, lineStart[i]); });
  return { slot: -1, gramId: grams.gramId, gramDf: grams.gramDf, gramMost: grams.gramMost, lineStart, line, count };
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

const sha256Hex: (bytes: Uint8Array) => string = typeof crypto.hash === 'function'
  ? (bytes) => crypto.hash('sha256', bytes, 'hex')
  : (bytes) => crypto.createHash('sha256').update(bytes).digest('hex');
