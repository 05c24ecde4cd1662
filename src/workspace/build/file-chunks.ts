// A file's text cut into the aligned chunks the ranker scores, read exactly as a search reads it
// (binary sniff, UTF-16 transcoding, long lines cut by the splitter). The indexer embeds these
// chunks, the snapshot's features come from them, and indexed answers read their lines back.
import { decodeLines } from '../../text/decode.js';
import { LineSplitter } from '../../text/line-splitter.js';
import { openText } from '../../text/text-stream.js';

export interface FileChunk {
  /** File lines [start, end). */
  start: number;
  end: number;
  lines: string[];
  /** The chunk's lines as bytes (terminators kept) and their offsets (lines + 1). */
  bytes: Uint8Array;
  offsets: Uint32Array;
}

export interface OpenedChunks {
  binary: boolean;
  chunks: AsyncIterable<FileChunk>;
  /** Lines seen so far (all of them once `chunks` is done). */
  lines(): number;
}

/** `decode: false`: the chunks' `lines` are left empty (a caller that needs their bytes alone: search/warm-chunks.ts). */
export async function openChunks(raw: AsyncIterable<Uint8Array>, chunkLines: number, o: { decode?: boolean } = {}): Promise<OpenedChunks> {
  const decode = o.decode ?? true;
  const text = await openText(raw);
  const splitter = new LineSplitter({ pieceLines: chunkLines * 64, contextLines: 0, maxPieceBytes: 1 << 20, alignLines: chunkLines });
  async function* chunks(): AsyncGenerator<FileChunk> {
    const cut = function* (pieces: ReturnType<LineSplitter['end']>): Generator<FileChunk> {
      for (const piece of pieces) {
        const n = piece.offsets.length - 1;
        const lines = decode ? decodeLines(piece.bytes, piece.offsets, 0, n) : [];
        for (let from = 0; from < n; from += chunkLines) {
          const to = Math.min(n, from + chunkLines);
          yield {
            start: piece.firstLine + from, end: piece.firstLine + to, lines: lines.slice(from, to),
            bytes: piece.bytes.subarray(piece.offsets[from], piece.offsets[to]),
            offsets: piece.offsets.slice(from, to + 1).map((x) => x - piece.offsets[from]),
          };
        }
      }
    };
    if (text.kind === 'text') for await (const part of text.chunks) yield* cut(splitter.push(part));
    yield* cut(splitter.end());
  }
  return { binary: text.kind === 'binary', chunks: chunks(), lines: () => splitter.linesSeen };
}
