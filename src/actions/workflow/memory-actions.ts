// TEA's memory.store and memory.retrieve (memory_actions.py over its InMemoryBackend): a key-value store
// that lives as long as the run, in namespaces, with an optional time to live in seconds. Its other
// memory.* actions (summarize, cloud, mem0) need a model or a service and stay refused.
import type { Action } from '../registry.js';
import { cloneValue, isNumeric, toNumber } from './py-float.js';
import { typeName } from './py-methods.js';
import { pyStr } from './py-values.js';

export const MEMORY_ACTION_NAMES = ['memory.store', 'memory.retrieve', 'actions.memory_store', 'actions.memory_retrieve'];

interface Entry { value: unknown; expiresAt: number | null }

/** One run's memory: what memory.store puts, memory.retrieve finds (results shaped as TEA's). */
export function createMemoryActions(now: () => number = () => performance.now() / 1000): Record<string, Action> {
  const spaces = new Map<string, Map<string, Entry>>();
  const store: Action = async (_state, p) => {
    if (p.key === null || p.key === undefined) return { stored: false, key: null, error: 'Key is required' };
    const key = pyStr(p.key);
    // The params keep Python's floats (ttl: 100.0 is a boxed float): any int, float or bool is seconds.
    const ttl = p.ttl ?? null;
    if (ttl !== null && !isNumeric(ttl)) return { stored: false, key, error: `unsupported operand type(s) for +: 'float' and '${typeName(ttl)}' (ttl is a number of seconds)` };
    const namespace = pyStr(p.namespace ?? 'default');
    if (!spaces.has(namespace)) spaces.set(namespace, new Map());
    spaces.get(namespace)!.set(key, { value: cloneValue(p.value ?? null), expiresAt: ttl === null ? null : now() + toNumber(ttl) });
    return { stored: true, key, namespace };
  };
  const retrieve: Action = async (_state, p) => {
    const dflt = p.default ?? null;
    if (p.key === null || p.key === undefined) return { value: dflt, found: false, key: null, error: 'Key is required' };
    const key = pyStr(p.key);
    const space = spaces.get(pyStr(p.namespace ?? 'default'));
    const entry = space?.get(key);
    if (entry && entry.expiresAt !== null && now() > entry.expiresAt) space!.delete(key);
    // TEA's backend answers None for a key it lacks, so a stored None is "not found" too.
    const value = entry && (entry.expiresAt === null || now() <= entry.expiresAt) ? entry.value : null;
    return value === null ? { value: dflt, found: false, key } : { value: cloneValue(value), found: true, key };
  };
  return { 'memory.store': store, 'memory.retrieve': retrieve, 'actions.memory_store': store, 'actions.memory_retrieve': retrieve };
}
