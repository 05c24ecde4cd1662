// Queries the workspace benches send over the generated code tree: index.ts repeats QUERIES; agents.ts
// sends each of QUERIES and AGENT_QUERIES once per surface (an agent rarely asks the same thing twice).
export const QUERIES = [
  'where do we retry failed uploads', 'parse the config file and validate settings', 'close the database connection on timeout',
  'render the user profile page', 'cache invalidation after writes', 'hash the password with a salt', 'open a socket and send the request',
  'list all files in a directory', 'convert the date to a timestamp', 'log an error and exit', 'sort the results by score',
  'read the json settings', 'retry', 'UserSession', 'http request timeout', 'validate email address', 'queue worker shutdown',
  'compress the payload', 'token refresh on expiry', 'database migration script',
];

/** What a coding agent asks of a tree: behaviour in words, identifiers, and a mix of both. */
export const AGENT_QUERIES = [
  'where is the request handler registered', 'how are errors propagated to the caller', 'function that merges two sorted lists',
  'load environment variables at startup', 'rate limit incoming requests', 'paginate the query results', 'upload a file to storage',
  'parseConfig', 'send an email notification', 'check user permissions before delete', 'write the report to disk',
  'connection pool size', 'graceful shutdown of the server', 'decode base64 payload', 'unit test for the login flow',
  'fetchUserProfile', 'serialize the object to json', 'background job scheduler', 'how is the session token validated',
  'delete expired cache entries',
];

/** Sent before measuring (not measured): model, snapshot, JIT and page cache warm-up. */
export const WARMUP_QUERIES = ['warm up', 'open the file', 'handle the error', 'config', 'retry the request later'];
