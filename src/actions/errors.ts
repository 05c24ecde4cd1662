// The action layer never throws: every failure becomes { success: false, error, error_type }, with
// error_type from this one catalogue, mapped from SimgrepError codes.
import { isSimgrepError, type ErrorCode } from '../errors.js';

export const ERROR_TYPES = {
  file_not_found: 'A file, directory or glob named in the parameters does not exist',
  permission_error: 'A file, directory or remote store refused access',
  model_load_error: 'The embedding model could not be found, downloaded or read',
  // TEA's name for a bad parameter (its actions' tests expect it): the message names the parameter.
  validation_error: 'A parameter is missing, has the wrong type or is out of range',
  timeout: 'A remote store did not answer in time',
  remote_error: 'A remote store answered with an error',
  index_error: 'An index or vector collection could not be read or written',
  workspace_not_found: 'No workspace by that name exists',
  unknown_action: 'No action by that name is registered',
  aborted: 'The operation was aborted',
  // semtools.search: TEA's action reports a failed semtools run (a missing file, an unreadable one) as cli_error.
  cli_error: 'semtools.search could not search the files (the message says which and why)',
  internal_error: 'An internal error; please report it',
} as const;

export type ErrorType = keyof typeof ERROR_TYPES;

export type ActionFailure = {
  success: false;
  error: string;
  error_type: ErrorType;
};

const BY_CODE: Record<ErrorCode, ErrorType> = {
  BAD_FLAG: 'validation_error',
  BAD_QUERY: 'validation_error',
  UNSUPPORTED_SCHEME: 'validation_error',
  PATH_NOT_FOUND: 'file_not_found',
  PATH_UNREADABLE: 'permission_error',
  MODEL_NOT_FOUND: 'model_load_error',
  MODEL_OFFLINE: 'model_load_error',
  MODEL_DOWNLOAD: 'model_load_error',
  MODEL_CORRUPT: 'model_load_error',
  TOKENIZER_CORRUPT: 'model_load_error',
  EMBEDDER_UNAVAILABLE: 'model_load_error',
  WORKER_FAILED: 'internal_error',
  ABORTED: 'aborted',
  REMOTE_CREDENTIALS: 'permission_error',
  REMOTE_ACCESS_DENIED: 'permission_error',
  REMOTE_UNAVAILABLE: 'timeout',
  REMOTE_ERROR: 'remote_error',
  REMOTE_CHANGED: 'remote_error',
  INDEX_UNREADABLE: 'index_error',
  INDEX_DAMAGED: 'index_error',
  INDEX_INCOMPATIBLE: 'index_error',
  INDEX_LOCKED: 'index_error',
  INDEX_WRITE_FAILED: 'index_error',
  WORKSPACE_NOT_FOUND: 'workspace_not_found',
  SERVER_UNAVAILABLE: 'internal_error',
  CLUSTER_UNAVAILABLE: 'remote_error',
  CLUSTER_NO_WORKER: 'timeout',
  CLUSTER_INCOMPATIBLE: 'validation_error',
  CLUSTER_JOB_REFUSED: 'permission_error',
  INTERNAL: 'internal_error',
};

export function errorTypeOf(code: ErrorCode): ErrorType {
  return BY_CODE[code] ?? 'internal_error';
}

export function failure(e: unknown): ActionFailure {
  if (isSimgrepError(e)) return { success: false, error: e.message, error_type: errorTypeOf(e.code) };
  const err = e as NodeJS.ErrnoException;
  if (err?.code === 'ENOENT') return { success: false, error: err.message, error_type: 'file_not_found' };
  if (err?.code === 'EACCES' || err?.code === 'EPERM') return { success: false, error: err.message, error_type: 'permission_error' };
  return { success: false, error: err instanceof Error ? err.message : String(e), error_type: 'internal_error' };
}

export function fail(error_type: ErrorType, error: string): ActionFailure {
  return { success: false, error, error_type };
}
