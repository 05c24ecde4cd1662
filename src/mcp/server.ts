// The MCP server: tools `search`, `find_related`, `index` and `status` (what each is for: guide.ts),
// their schemas and annotations. What they do is a ToolRunner's (tools.ts): in this process, or in the
// resident engine that many `simgrep mcp` processes share (engine-link.ts), with the same answers.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { IndexProgress } from '../workspace/build/indexer.js';
import { FIND_RELATED_DESCRIPTION, INDEX_DESCRIPTION, INSTRUCTIONS, SEARCH_DESCRIPTION, STATUS_DESCRIPTION } from './guide.js';
import { asNumber, MAX_QUERY_CHARS, narrowingShape } from './search-args.js';
import { strictArgs } from './strict-args.js';
import type { ToolRunner } from './tools.js';
import { counted } from '../text/cut.js';


export interface McpServerOptions {
  /** What runs the tools: the resident engine's link (engine-link.ts) or a runner in this process (tools.ts). */
  tools: ToolRunner;
  version: string;
}

const matchShape = z.object({
  path: z.string(),
  start_line: z.number().int().describe('1-based first line of the hunk'),
  end_line: z.number().int().describe('1-based last line of the hunk (inclusive)'),
  match_line: z.number().int().describe('1-based best-matching line'),
  score: z.number().describe('0..1, higher is better, one scale in every mode (docs/agents.md)'),
  code: z.string().optional().describe('the hunk\'s lines (full matches)'),
  line: z.string().optional().describe('the match line (compact matches)'),
  signature: z.string().nullable().optional().describe('the enclosing definition (compact matches)'),
  compact: z.literal(true).optional(),
});

/** The structured content of a search or find_related answer (buildAnswer's, answer.ts). */
export const answerShape = {
  matches: z.array(matchShape),
  count: z.number().int(),
  files_searched: z.number().int(),
  truncated: z.boolean().describe('more matches existed than came back'),
  index: z.enum(['fresh', 'building', 'scanned']).describe('fresh: the index answered; building: files were read while the index is first built; scanned: files were read directly'),
  notes: z.array(z.string()),
  budget: z.object({ max_tokens: z.number().int(), used_tokens: z.number().int(), compacted: z.number().int(), dropped: z.number().int() }),
};

/**
 * Between the last progress notification and the result (see the index tool). The SDK's client drops a
 * progress handler when the result arrives and handles a notification a microtask late, so both in one
 * read give the client an "unknown token" error: 20 ms was not enough for a client at load ~12 (an e2e run
 * saw it); an index call takes seconds, so 100 ms more is not felt.
 */
const PROGRESS_GAP_MS = 100;

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

export function createMcpServer(o: McpServerOptions): McpServer {
  const server = new McpServer({ name: 'simgrep', version: o.version }, { instructions: INSTRUCTIONS });

  server.registerTool('search', {
    title: 'Semantic code search',
    description: SEARCH_DESCRIPTION,
    inputSchema: strictArgs({
      query: z.string().min(1).describe(`What to look for: words, identifiers, or a pasted block of code (over ${MAX_QUERY_CHARS} characters is cut, with a note)`),
      ...narrowingShape,
    }),
    outputSchema: answerShape,
    annotations: { title: 'Semantic code search', ...READ_ONLY },
  }, async (a, extra) => o.tools.call('search', a, { signal: extra.signal }));

  server.registerTool('find_related', {
    title: 'Find related code',
    description: FIND_RELATED_DESCRIPTION,
    inputSchema: strictArgs({
      file_path: z.string().min(1).max(4096).describe('A file inside the root: a path a search returned (as it came back), or one relative to the root'),
      line: asNumber(z.number().int().min(1)).describe('1-based line in it: the code around it (its 48-line chunk) is what similar code is found for'),
      ...narrowingShape,
    }),
    outputSchema: answerShape,
    annotations: { title: 'Find related code', ...READ_ONLY },
  }, async (a, extra) => o.tools.call('find_related', a, { signal: extra.signal }));

  server.registerTool('index', {
    title: 'Build or refresh the index',
    description: INDEX_DESCRIPTION,
    annotations: { title: 'Build or refresh the index', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    inputSchema: strictArgs({ directory: z.string().optional().describe('Directory to index, inside the server root (default: the root)') }),
    outputSchema: { workspace: z.string(), files: z.number().int(), indexed: z.number().int(), unchanged: z.number().int(), deleted: z.number().int(), chunks: z.number().int(), errors: z.number().int(), notes: z.array(z.string()).optional().describe('present when the run had warnings: one note with their count by code and the first of them (files it could not read, a ranking snapshot it could not save)') },
  }, async (a, extra) => {
    const token = extra._meta?.progressToken;
    // Every notification goes out before the result, and not in the same read: the SDK's client handles
    // a notification a microtask late, and one read with the result after it finds the token forgotten.
    const sent: Promise<void>[] = [];
    // MCP: the progress value must increase with each notification. Files checked and files indexed both
    // only grow: their sum moves when either does, and a report that moved neither is not sent (before
    // audit44 the value was the files checked, the same in every notification while the indexed count grew).
    let last = -1;
    const onProgress = token === undefined ? undefined : (p: IndexProgress) => {
      const progress = p.files + p.indexed;
      if (progress <= last) return;
      last = progress;
      sent.push(extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, message: `${counted(p.files, 'file')} checked, ${p.indexed} indexed` } }).catch(() => {}));
    };
    const result = await o.tools.call('index', a, { onProgress });
    if (sent.length > 0) {
      await Promise.all(sent);
      await new Promise((r) => setTimeout(r, PROGRESS_GAP_MS));
    }
    return result;
  });

  server.registerTool('status', {
    title: 'Index status',
    description: STATUS_DESCRIPTION,
    annotations: { title: 'Index status', ...READ_ONLY },
    inputSchema: strictArgs({ directory: z.string().optional().describe('Directory inside the server root (default: the root)') }),
    outputSchema: { directory: z.string(), indexed: z.boolean(), building: z.literal(true).optional().describe('present while the index is being built in the background (indexed is false until it is done; files, chunks and lines are what the build has read so far)'), incomplete: z.literal(true).optional().describe('present when no build of the index has finished: one was cut short (its process killed), or is still running in another process (a first `simgrep index`): indexed is false, the counts are of the part it wrote; the next search rebuilds it in the background, the index tool now'), build_failed: z.string().optional().describe('why the last background build failed (searches read the files meanwhile; the index tool retries it)'), workspace: z.string().nullable(), files: z.number().int().describe('files the index holds that still exist'), gone: z.number().int().optional().describe('present when files the index holds were deleted or renamed away since its last run (searches skip them; the index tool drops them)'), chunks: z.number().int(), lines: z.number().int(), model: z.string().nullable().describe('the index\'s model: a Hugging Face id, "bundled", or a local model directory (its path inside the root, else its name only)'), updated: z.string().nullable(), notes: z.array(z.string()).optional().describe('present when status had something to say: one note with the warnings\' count by code and the first of them (a ranking snapshot it rebuilt and could not save)') },
  }, async (a, extra) => o.tools.call('status', a, { signal: extra.signal }));

  return server;
}
