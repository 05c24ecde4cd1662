// Public API of simgrep (re-exports only).
export { SimgrepError, ErrorCodes } from './errors.js';
export type { ErrorCode } from './errors.js';
export type { LineBatch, TokenizedBatch, ModelData, EmbedderKind } from './types.js';
