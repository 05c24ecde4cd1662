// A model handed to worker threads that started before it was loaded: the pool's threads load their
// code (~150-300 ms each) while the calling thread reads the model, instead of after it. Each thread
// asks on a BroadcastChannel of its pool; the pool answers with the model once loaded (its tables are
// shared memory: one copy for all, as through workerData), or with why it could not load.
import type { ModelData } from '../types.js';
import { serializeError, deserializeError, type SerializedError } from '../errors.js';

type Offer = { model: ModelData } | { error: SerializedError };

let channels = 0;

/** Answers every thread that asks on the returned channel's name with the model, once it loads. */
export function offerModel(model: Promise<ModelData>): { name: string; close(): void } {
  const name = `simgrep-model-${process.pid}-${++channels}-${Math.random().toString(36).slice(2)}`;
  const channel = new BroadcastChannel(name);
  let closed = false;
  const offer: Promise<Offer> = model.then((m) => ({ model: m }), (e: unknown) => ({ error: serializeError(e) }));
  channel.onmessage = () => { void offer.then((o) => { if (!closed) channel.postMessage(o); }); };
  // The pool's threads keep the process alive while they run; the channel alone must not.
  (channel as unknown as { unref?: () => void }).unref?.();
  return { name, close: () => { closed = true; channel.close(); } };
}

/** In a worker thread: the model its pool offers on `name` (asked for now). */
export function receiveModel(name: string): Promise<ModelData> {
  return new Promise((resolve, reject) => {
    const channel = new BroadcastChannel(name);
    channel.onmessage = (e: MessageEvent) => {
      const o = e.data as Offer | string;
      if (typeof o !== 'object' || o === null) return; // another thread's request
      channel.close();
      if ('model' in o) resolve(o.model); else reject(deserializeError(o.error));
    };
    channel.postMessage('model');
  });
}
