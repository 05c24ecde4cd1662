// Store writes with one kind of failure: a full disk or a permission problem becomes a typed error
// that says how to fix it (and that what was indexed before is kept).
import { SimgrepError, isSimgrepError } from '../../errors.js';

/** Runs a store write, turning an I/O failure into a clear, typed error. */
export async function writing<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (isSimgrepError(e)) throw e;
    const msg = (e as Error).message ?? String(e);
    const hint = /No space|ENOSPC|quota/i.test(msg) ? 'the disk is full; free some space and run simgrep index again (what was indexed before is kept)'
      : 'check the index directory\'s permissions and free space, then run simgrep index again (what was indexed before is kept)';
    throw new SimgrepError('INDEX_WRITE_FAILED', `writing the index failed: ${msg}; ${hint}`, { cause: e });
  }
}
