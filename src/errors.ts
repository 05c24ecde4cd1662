// SimgrepError and the one catalog of error codes. Every message says what failed and how to fix it.

export const ErrorCodes = {
  BAD_FLAG: 'Invalid command-line flag or option value',
  BAD_QUERY: 'The query is empty or unusable',
  PATH_NOT_FOUND: 'A path given to search does not exist',
  PATH_UNREADABLE: 'A file or directory could not be read',
  UNSUPPORTED_SCHEME: 'A path uses a URI scheme simgrep cannot read',
  MODEL_NOT_FOUND: 'The model could not be found locally or in the cache',
  MODEL_OFFLINE: 'The model is not cached and downloads are disabled',
  MODEL_DOWNLOAD: 'Downloading the model failed',
  MODEL_CORRUPT: 'A model file is corrupt or in an unknown format',
  TOKENIZER_CORRUPT: 'tokenizer.json is corrupt or uses an unsupported tokenizer',
  EMBEDDER_UNAVAILABLE: 'The requested embedder backend could not start',
  WORKER_FAILED: 'A worker thread failed',
  ABORTED: 'The operation was aborted',
  REMOTE_CREDENTIALS: 'Credentials for a remote store are missing, unsupported or were rejected',
  REMOTE_ACCESS_DENIED: 'A remote store refused access to a bucket, container or object',
  REMOTE_UNAVAILABLE: 'A remote store did not answer, timed out or failed after retries',
  REMOTE_ERROR: 'A remote store answered with an unexpected error',
  REMOTE_CHANGED: 'A remote object changed while it was being read',
  INDEX_UNREADABLE: 'A workspace index could not be opened or read (missing, foreign or corrupt)',
  INDEX_DAMAGED: 'A workspace index\'s tables are damaged (a data file cut short or overwritten); simgrep index rebuilds it',
  INDEX_INCOMPATIBLE: 'A workspace index was written by another model or a newer simgrep',
  INDEX_LOCKED: 'Another process is updating the workspace index',
  INDEX_WRITE_FAILED: 'Writing the workspace index failed (disk full, permissions)',
  WORKSPACE_NOT_FOUND: 'No workspace by that name or none covers the paths',
  SERVER_UNAVAILABLE: 'A workspace server could not start (its socket is taken or its directory is not private)',
  CLUSTER_UNAVAILABLE: 'The cluster\'s Redis could not be reached or was lost mid-query',
  CLUSTER_NO_WORKER: 'No cluster worker took the shards in time',
  CLUSTER_INCOMPATIBLE: 'A cluster worker runs another simgrep version or model than the coordinator',
  CLUSTER_JOB_REFUSED: 'A cluster worker refused a job: malformed, or reaching outside the paths its operator allows (--allow)',
  INTERNAL: 'An internal error; please report it',
} as const;

export type ErrorCode = keyof typeof ErrorCodes;

export class SimgrepError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SimgrepError';
    this.code = code;
  }
}

export function isSimgrepError(e: unknown): e is SimgrepError {
  return e instanceof SimgrepError;
}

/** Plain, structured-clone-safe form used to carry an error across the worker boundary. */
export interface SerializedError { code: ErrorCode; message: string }

export function serializeError(e: unknown): SerializedError {
  if (e instanceof SimgrepError) return { code: e.code, message: e.message };
  const message = e instanceof Error ? e.message : String(e);
  return { code: 'INTERNAL', message };
}

export function deserializeError(e: SerializedError): SimgrepError {
  const code = (e.code in ErrorCodes ? e.code : 'INTERNAL') as ErrorCode;
  return new SimgrepError(code, e.message);
}
