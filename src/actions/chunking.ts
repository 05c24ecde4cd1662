// How vector.index_files cuts a file: one chunk per non-blank line, per paragraph (runs of non-blank
// lines) or per document. Lines are 0-based and end_line is exclusive.

export const CHUNK_TYPES = ['line', 'paragraph', 'document'] as const;
export type ChunkType = typeof CHUNK_TYPES[number];

export interface TextChunk {
  text: string;
  start_line: number;
  end_line: number;
}

export function chunkText(text: string, by: ChunkType): TextChunk[] {
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const blank = (l: string) => l.trim() === '';
  if (by === 'document') {
    return lines.every(blank) ? [] : [{ text: lines.join('\n'), start_line: 0, end_line: lines.length }];
  }
  if (by === 'line') {
    return lines.flatMap((l, i) => (blank(l) ? [] : [{ text: l, start_line: i, end_line: i + 1 }]));
  }
  const out: TextChunk[] = [];
  let start = -1;
  for (let i = 0; i <= lines.length; i++) {
    const isBlank = i === lines.length || blank(lines[i]);
    if (!isBlank && start < 0) start = i;
    if (isBlank && start >= 0) {
      out.push({ text: lines.slice(start, i).join('\n'), start_line: start, end_line: i });
      start = -1;
    }
  }
  return out;
}
