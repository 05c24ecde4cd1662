// Public API of simgrep (re-exports only).
export { createSearcher } from './searcher.js';
export type { Searcher, SearcherOptions, SearchOptions, SearchContentOptions, SearchResponse, SearchMode } from './searcher.js';
export type { SearchResult } from './rank/windows.js';
export type { SearchStats } from './pipeline.js';
export type { Source, Entry, SourceWarning } from './sources/source.js';
export { createFsSource } from './sources/fs.js';
export { createContentSource } from './sources/content.js';
export { loadModel } from './model/load.js';
export type { LoadModelOptions } from './model/load.js';
export { SimgrepError, ErrorCodes } from './errors.js';
export type { ErrorCode } from './errors.js';
export type { LineBatch, TokenizedBatch, ModelData, EmbedderKind } from './types.js';
