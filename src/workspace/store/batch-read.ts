// A table's rows read batch by batch, with a stop check between batches: a status or a snapshot rebuild
// given up while a big table is read stops within one batch (one toArrow() read could not be given up on:
// a status of an index no run finished read its whole file list after its client had cancelled, trust43's left).
import type * as LanceDB from '@lancedb/lancedb';
import type { RecordBatch } from 'apache-arrow';
import { SimgrepError } from '../../errors.js';

/** Rows a batch holds at most: the work left after a stop is read (one batch's native read and decoding). */
export const READ_BATCH_ROWS = 1024;

/** What a read checks between its batches: true once it must stop (an AbortSignal has this shape). */
export interface ReadStop { readonly aborted: boolean }

/** What `each` puts into one list from every batch of `q`'s rows, in the table's order; ABORTED once `stop` is. */
export async function readBatches<T>(q: LanceDB.Query, stop: ReadStop | undefined, each: (b: RecordBatch, out: T[]) => void): Promise<T[]> {
  const out: T[] = [];
  if (stop?.aborted) throw readStopped();
  // `execute` (batches as they come, of a chosen size) is typed `protected` in @lancedb/lancedb's .d.ts (0.37.1) but is
  // a plain method in its JS (QueryBase.execute(options) -> nativeExecute(options): the native stream toArrow() also
  // reads, through RecordBatchIterable, with the same options); hence the cast. On a LanceDB upgrade check in
  // dist/query.js that execute still takes `{ maxBatchLength }` and returns an async iterator of RecordBatch, and that
  // a batch still holds at most that many rows (test/integration/mcp-cancel-status-incomplete.test.ts: a cancelled
  // status reads at most 3 batches of rows); if not, read by the public [Symbol.asyncIterator] (the default batch
  // size) or by pages (limit/offset).
  const batches = (q as unknown as { execute(o: { maxBatchLength: number }): AsyncGenerator<RecordBatch> }).execute({ maxBatchLength: READ_BATCH_ROWS });
  for await (const b of batches) {
    // Leaving the loop returns the iterator, which ends the native read.
    if (stop?.aborted) throw readStopped();
    each(b, out);
  }
  return out;
}

function readStopped(): SimgrepError {
  return new SimgrepError('ABORTED', 'aborted while the index\'s tables were read');
}
