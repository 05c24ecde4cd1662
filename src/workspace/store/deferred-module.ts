// A CommonJS dependency of a dependency that simgrep never calls, loaded only if something touches it:
// LanceDB requires @opentelemetry/api (44 files, ~10 ms) for a metrics hook simgrep does not use.
import { createRequire, Module } from 'node:module';

/**
 * Puts a stand-in for `id` (as `from` resolves it) into require's cache: the first property read
 * loads the real module and forwards to it. No effect once the module is loaded, or if it is missing.
 */
export function deferModule(from: string, id: string): void {
  const req = createRequire(from);
  let file: string;
  try { file = req.resolve(id); } catch { return; }
  if (req.cache[file]) return;
  let real: Record<PropertyKey, unknown> | null = null;
  const load = (): Record<PropertyKey, unknown> => {
    if (!real) {
      delete req.cache[file];
      real = req(file) as Record<PropertyKey, unknown>;
    }
    return real;
  };
  // The id says what it is (the real module's id is its file name).
  const standIn = new Module(`${file} (deferred)`) as Module & { filename: string; loaded: boolean };
  standIn.filename = file;
  standIn.loaded = true;
  standIn.exports = new Proxy({}, {
    get: (_, key) => load()[key],
    has: (_, key) => key in load(),
    ownKeys: () => Reflect.ownKeys(load()),
    getOwnPropertyDescriptor: (_, key) => {
      const d = Reflect.getOwnPropertyDescriptor(load(), key);
      return d && { ...d, configurable: true };
    },
  });
  req.cache[file] = standIn;
}
