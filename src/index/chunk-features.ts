// What the index keeps of a chunk's text so the ranker's lexical signals can be recomputed for any
// query without the text: its identifiers with counts (BM25 term frequencies), the names its lines
// define (symbol boosts), its length in characters (BM25 document length) and whether it is blank.
import { definedName } from '../rank/chunk-scorer.js';

export interface ChunkFeatures {
  /** Sum of the lines' lengths (UTF-16 units, terminators excluded), as chunkStats counts them. */
  chars: number;
  /** True when every line is blank (such a chunk has no line to show in lexical mode). */
  blank: boolean;
  /** Identifier occurrences: each maximal [A-Za-z0-9_] run without its leading digits, with its count. */
  identifiers: Map<string, number>;
  /** Names defined by the chunk's lines (definedName), distinct. */
  definitions: string[];
}

export function chunkFeatures(lines: string[]): ChunkFeatures {
  const identifiers = new Map<string, number>();
  const definitions = new Set<string>();
  let chars = 0;
  let blank = true;
  for (const line of lines) {
    chars += line.length;
    if (blank && line.trim() !== '') blank = false;
    addIdentifiers(line, identifiers);
    const name = definedName(line);
    if (name) definitions.add(name);
  }
  return { chars, blank, identifiers, definitions: [...definitions] };
}

/** The identifiers countTerms would expand a match to: ident-char runs with leading digits dropped. */
export function addIdentifiers(text: string, into: Map<string, number>): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (!isIdentChar(text.charCodeAt(i))) { i++; continue; }
    let s = i;
    while (i < n && isIdentChar(text.charCodeAt(i))) i++;
    while (s < i && isDigit(text.charCodeAt(s))) s++;
    if (s < i) {
      const ident = text.slice(s, i);
      into.set(ident, (into.get(ident) ?? 0) + 1);
    }
  }
}

/** Serialised form stored in the index: "ident count ident count ...". */
export function encodeIdentifiers(m: Map<string, number>): string {
  const parts: string[] = [];
  for (const [k, v] of m) parts.push(k, String(v));
  return parts.join(' ');
}

export function decodeIdentifiers(s: string, visit: (ident: string, count: number) => void): void {
  if (s === '') return;
  const parts = s.split(' ');
  for (let i = 0; i + 1 < parts.length; i += 2) visit(parts[i], Number(parts[i + 1]));
}

function isIdentChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
