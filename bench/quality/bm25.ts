// The BM25 baseline (semble's recipe): code files only, ~1,500-character chunks at line boundaries,
// identifier tokens plus the file stem twice and the last three directory names, Lucene BM25.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { tokenizeIdentifiers } from './identifiers.js';

/**
 * Code extensions of the dev sets' languages, as semble classifies them (no .pyx/.pxd, .json, .md,
 * .map, .erb/.heex templates or config): semble-dev's Python/JS/TS, then semble-dev2's languages.
 */
export const CODE_EXTENSIONS = [
  '.py', '.pyi', '.js', '.mjs', '.cjs', '.jsx', '.ts', '.mts', '.cts', '.tsx',
  '.java', '.php', '.rb', '.rs', '.cs', '.kt', '.kts', '.scala', '.ex', '.exs', '.swift',
  '.c', '.h', '.cc', '.cpp', '.cxx', '.hpp', '.hxx', '.hs', '.zig', '.sh', '.bash', '.zsh', '.lua',
];
export const CHUNK_CHARS = 1500;
export const K1 = 1.5;
export const B = 0.75;
/** semble skips larger files. */
const MAX_FILE_BYTES = 1_000_000;
const IGNORED_DIRS = new Set(['node_modules', '__pycache__', 'dist', 'build']);

export interface Chunk { file: string; start: number; end: number }
export interface RankedChunk extends Chunk { score: number }

export interface Bm25Index {
  chunks: Chunk[];
  /** Tokens per chunk (document length). */
  lengths: Float64Array;
  avgLength: number;
  postings: Map<string, { docs: number[]; tfs: number[] }>;
  codeFiles: number;
}

/** Lines (terminators kept) grouped greedily into chunks of at most maxChars; a longer line stands alone. */
export function chunkLines(text: string, maxChars = CHUNK_CHARS): { start: number; end: number; text: string }[] {
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const out: { start: number; end: number; text: string }[] = [];
  let start = 0;
  let buf = '';
  lines.forEach((line, i) => {
    if (buf !== '' && buf.length + line.length > maxChars) {
      out.push({ start, end: i, text: buf });
      start = i;
      buf = '';
    }
    buf += line;
  });
  if (buf !== '') out.push({ start, end: lines.length, text: buf });
  return out.filter((c) => c.text.trim() !== '');
}

/** Tokens semble adds to every chunk of a file: its stem twice and its last three directory names. */
export function pathTokens(file: string): string[] {
  const parts = file.split('/');
  const name = parts.pop() ?? '';
  const stem = name.includes('.') ? name.slice(0, name.lastIndexOf('.')) : name;
  return tokenizeIdentifiers(`${stem} ${stem} ${parts.slice(-3).join(' ')}`);
}

/** Code files under root (relative posix paths, sorted), hidden entries and build folders skipped. */
export function listCodeFiles(root: string, rel = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(root, rel)).sort()) {
    if (name.startsWith('.')) continue;
    const r = rel ? `${rel}/${name}` : name;
    const st = statSync(path.join(root, r));
    if (st.isDirectory()) {
      if (!IGNORED_DIRS.has(name)) out.push(...listCodeFiles(root, r));
    } else if (st.isFile() && st.size <= MAX_FILE_BYTES && CODE_EXTENSIONS.some((e) => name.endsWith(e))) {
      out.push(r);
    }
  }
  return out;
}

/** Indexes root's code files; `name` maps a root-relative path to the path recorded in results. */
export function buildBm25Index(root: string, name: (rel: string) => string = (r) => r): Bm25Index {
  const chunks: Chunk[] = [];
  const lengths: number[] = [];
  const postings = new Map<string, { docs: number[]; tfs: number[] }>();
  const files = listCodeFiles(root);
  for (const rel of files) {
    const file = name(rel);
    const extra = pathTokens(file);
    for (const c of chunkLines(readFileSync(path.join(root, rel), 'utf8'))) {
      const doc = chunks.length;
      const tokens = [...tokenizeIdentifiers(c.text), ...extra];
      const tf = new Map<string, number>();
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [t, n] of tf) {
        let p = postings.get(t);
        if (!p) postings.set(t, (p = { docs: [], tfs: [] }));
        p.docs.push(doc);
        p.tfs.push(n);
      }
      chunks.push({ file, start: c.start, end: c.end });
      lengths.push(tokens.length);
    }
  }
  const avgLength = lengths.length ? lengths.reduce((s, x) => s + x, 0) / lengths.length : 0;
  return { chunks, lengths: Float64Array.from(lengths), avgLength, postings, codeFiles: files.length };
}

/** Lucene's idf: ln(1 + (N - df + 0.5) / (df + 0.5)). */
export const luceneIdf = (n: number, df: number): number => Math.log(1 + (n - df + 0.5) / (df + 0.5));

/** Chunks with a positive score, best first (ties: file, then start line). A repeated query term counts again. */
export function searchBm25(index: Bm25Index, query: string): RankedChunk[] {
  const n = index.chunks.length;
  const scores = new Float64Array(n);
  for (const term of tokenizeIdentifiers(query)) {
    const p = index.postings.get(term);
    if (!p) continue;
    const idf = luceneIdf(n, p.docs.length);
    for (let i = 0; i < p.docs.length; i++) {
      const d = p.docs[i];
      const tf = p.tfs[i];
      scores[d] += (idf * tf) / (tf + K1 * (1 - B + (B * index.lengths[d]) / index.avgLength));
    }
  }
  const ranked: RankedChunk[] = [];
  for (let d = 0; d < n; d++) if (scores[d] > 0) ranked.push({ ...index.chunks[d], score: scores[d] });
  return ranked.sort((a, b) => b.score - a.score || (a.file < b.file ? -1 : a.file > b.file ? 1 : a.start - b.start));
}
