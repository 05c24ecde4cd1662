// A store that keeps nothing: an update run against it only works out its snapshot patch. A one-shot
// search that finds a few changed files re-reads and embeds them for its own answer through it,
// instead of loading LanceDB and committing them (that is simgrep index's work).
import type { IndexStore } from './store.js';

export const unsavedStore: IndexStore = {
  uri: 'unsaved:',
  readMeta: async () => ({}),
  writeMeta: async () => ({}),
  version: async () => 'unsaved',
  isEmpty: async () => true,
  fileStates: async () => [],
  chunkVectors: async () => [],
  // Nothing to reuse: every chunk of a changed file is embedded (a few files at most).
  vectorsByHash: async () => new Map(),
  addChunks: async () => {},
  deleteChunksOf: async () => {},
  writeFiles: async () => {},
  deleteFiles: async () => {},
  compact: async () => ({ chunks: 0, files: 0 }),
  clear: async () => {},
  close: () => {},
};
