// In-memory sources: a string (searchContent) or bytes already read (stdin), named by the caller.
import type { Entry, Source } from './source.js';

export function createContentSource(name: string, content: string | Uint8Array): Source {
  const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
  const entry: Entry = { path: name, size: bytes.length };
  return {
    async *list() { yield entry; },
    read: async () => bytes,
  };
}

/** Streams standard input without holding it whole (a GB pipe stays in bounded memory). */
export function createStdinSource(stdin: NodeJS.ReadableStream, name = '<stdin>'): Source {
  const entry: Entry = { path: name };
  return {
    async *list() { yield entry; },
    read: async () => {
      const chunks: Buffer[] = [];
      for await (const c of stdin) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
      return Buffer.concat(chunks);
    },
    async *stream() {
      for await (const c of stdin) yield typeof c === 'string' ? Buffer.from(c) : (c as Buffer);
    },
  };
}
