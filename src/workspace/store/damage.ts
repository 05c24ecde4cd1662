// A local LanceDB table whose files were cut short or overwritten answers with raw Lance errors (a
// cargo path in them), from every search and index run that reads it. Those become one typed error,
// INDEX_DAMAGED, that names the index: a search then scans, and simgrep index rebuilds it.
import { SimgrepError, isSimgrepError } from '../../errors.js';
import type { IndexStore } from './store.js';

/** Failures of the disk or of permissions, not of the data: they keep their own message (writing.ts). */
const NOT_DAMAGE = /ENOSPC|No space left|EROFS|Read-only file system|EACCES|EPERM|Permission denied|quota|EMFILE|ENFILE|ENOMEM/i;

/** The typed form of a raw store error that says the stored data is unreadable, else null. */
export function damageOf(e: unknown, dir: string): SimgrepError | null {
  if (isSimgrepError(e) || !(e instanceof Error) || NOT_DAMAGE.test(e.message)) return null;
  return new SimgrepError('INDEX_DAMAGED', `the index at ${dir} is damaged (${cleaned(e.message)})`, { cause: e });
}

/** Whether `e` is a damaged index (this store's typed error). */
export function isDamage(e: unknown): e is SimgrepError {
  return isSimgrepError(e) && e.code === 'INDEX_DAMAGED';
}

/** The Lance message without its source location and the layers of "Error:" around it. */
function cleaned(message: string): string {
  const m = message.replace(/,?\s*\/rustc\/\S+/g, '').replace(/^(Error:\s*)+/, '').trim();
  return m.length > 240 ? `${m.slice(0, 240)}...` : m;
}

/** `store` with every failure that is the data's turned into INDEX_DAMAGED. */
export function guardDamage(store: IndexStore, dir: string): IndexStore {
  const guarded = { ...store } as Record<string, unknown>;
  for (const [name, fn] of Object.entries(store)) {
    if (typeof fn !== 'function' || name === 'close') continue;
    guarded[name] = (...args: unknown[]) => (fn as (...a: unknown[]) => Promise<unknown>).apply(store, args).catch((e: unknown) => { throw damageOf(e, dir) ?? e; });
  }
  return guarded as unknown as IndexStore;
}
