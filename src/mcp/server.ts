// The MCP server: tools `search`, `find_related`, `index` and `status` (what each is for: guide.ts), thin adapters over the workspace index. A
// directory's workspace is built on its first search and refreshed incrementally by every later one,
// so repeated queries answer from the index. Every tool keeps to the root (scope.ts) and to workspaces
// whose roots lie inside it (confined-workspaces.ts).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { ActionEngine } from '../actions/engine.js';
import { isSimgrepError } from '../errors.js';
import type { IndexProgress } from '../workspace/build/indexer.js';
import { buildAnswer } from './answer.js';
import { createConfinedWorkspaces } from './confined-workspaces.js';
import { FIND_RELATED_DESCRIPTION, INDEX_DESCRIPTION, INSTRUCTIONS, SEARCH_DESCRIPTION, STATUS_DESCRIPTION } from './guide.js';
import { realRoot, resolveFileInside, resolveInside } from './scope.js';
import { boundQuery, filtersOf, MAX_QUERY_CHARS, narrowingShape, planOf } from './search-args.js';


export interface McpServerOptions {
  engine: ActionEngine;
  /** Directories outside this one are refused (default: the working directory). */
  root?: string;
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

const answerShape = {
  matches: z.array(matchShape),
  count: z.number().int(),
  files_searched: z.number().int(),
  truncated: z.boolean().describe('more matches existed than came back'),
  index: z.enum(['fresh', 'building', 'scanned']).describe('fresh: the index answered; building: files were read while the index is first built; scanned: files were read directly'),
  notes: z.array(z.string()),
  budget: z.object({ max_tokens: z.number().int(), used_tokens: z.number().int(), compacted: z.number().int(), dropped: z.number().int() }),
};

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

export function createMcpServer(o: McpServerOptions): McpServer {
  const root = realRoot(o.root ?? process.cwd());
  const server = new McpServer({ name: 'simgrep', version: o.version }, { instructions: INSTRUCTIONS });
  const workspaces = createConfinedWorkspaces(o.engine, root);

  server.registerTool('search', {
    title: 'Semantic code search',
    description: SEARCH_DESCRIPTION,
    inputSchema: {
      query: z.string().min(1).describe(`What to look for: words, identifiers, or a pasted block of code (over ${MAX_QUERY_CHARS} characters is cut, with a note)`),
      ...narrowingShape,
    },
    outputSchema: answerShape,
    annotations: { title: 'Semantic code search', ...READ_ONLY },
  }, async (a) => guard(async () => {
    const dir = resolveInside(root, a.directory);
    const plan = planOf(a);
    const { query, notes } = boundQuery(a.query);
    const ws = await workspaces.forSearch(dir);
    if (!ws) notes.push(BUILDING_NOTE);
    const r = await (ws ?? o.engine.searcher).search({ query, paths: [dir], topK: plan.fetchK, mode: plan.mode, ...filtersOf(a), nLines: plan.nLines });
    const results = r.results;
    return buildAnswer({
      results: results.slice(0, plan.k), mode: plan.mode, maxTokens: plan.maxTokens, withCode: plan.withCode,
      filesSearched: r.stats.files, more: results.length > plan.k, index: freshness(ws, r), notes,
    });
  }));

  server.registerTool('find_related', {
    title: 'Find related code',
    description: FIND_RELATED_DESCRIPTION,
    inputSchema: {
      file_path: z.string().min(1).max(4096).describe('A file inside the root (relative to it), e.g. a path a search returned'),
      line: z.number().int().min(1).describe('1-based line in it: the code around it (its 48-line chunk) is what similar code is found for'),
      ...narrowingShape,
    },
    outputSchema: answerShape,
    annotations: { title: 'Find related code', ...READ_ONLY },
  }, async (a) => guard(async () => {
    const file = resolveFileInside(root, a.file_path);
    const dir = resolveInside(root, a.directory);
    const plan = planOf(a);
    const ws = await workspaces.forSearch(dir);
    const r = await (ws ?? o.engine.searcher).search({ query: '', like: { path: file, line: a.line }, paths: [dir], topK: plan.fetchK, mode: plan.mode, ...filtersOf(a), nLines: plan.nLines });
    const results = r.results;
    return buildAnswer({
      results: results.slice(0, plan.k), mode: plan.mode, maxTokens: plan.maxTokens, withCode: plan.withCode,
      filesSearched: r.stats.files, more: results.length > plan.k, index: freshness(ws, r), notes: ws ? [] : [BUILDING_NOTE],
    });
  }));

  server.registerTool('index', {
    title: 'Build or refresh the index',
    description: INDEX_DESCRIPTION,
    annotations: { title: 'Build or refresh the index', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    inputSchema: { directory: z.string().optional().describe('Directory to index, inside the server root (default: the root)') },
    outputSchema: { workspace: z.string(), files: z.number().int(), indexed: z.number().int(), unchanged: z.number().int(), deleted: z.number().int(), chunks: z.number().int(), errors: z.number().int() },
  }, async (a, extra) => guard(async () => {
    const dir = resolveInside(root, a.directory);
    const token = extra._meta?.progressToken;
    const onProgress = token === undefined ? undefined : (p: IndexProgress) => {
      void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: p.files, message: `${p.files} files checked, ${p.indexed} indexed` } }).catch(() => {});
    };
    const { ws, roots } = await workspaces.forIndex(dir);
    const r = await ws.index(roots, { onProgress });
    const out = { workspace: ws.name, files: r.files, indexed: r.indexed, unchanged: r.unchanged, deleted: r.deleted, chunks: r.chunks, errors: r.errors };
    return { content: [{ type: 'text' as const, text: `workspace ${ws.name}: ${r.files} files checked, ${r.indexed} indexed, ${r.unchanged} unchanged, ${r.deleted} removed, ${r.errors} errors` }], structuredContent: out };
  }));

  server.registerTool('status', {
    title: 'Index status',
    description: STATUS_DESCRIPTION,
    annotations: { title: 'Index status', ...READ_ONLY },
    inputSchema: { directory: z.string().optional().describe('Directory inside the server root (default: the root)') },
    outputSchema: { directory: z.string(), indexed: z.boolean(), workspace: z.string().nullable(), files: z.number().int(), chunks: z.number().int(), lines: z.number().int(), model: z.string().nullable(), updated: z.string().nullable() },
  }, async (a) => guard(async () => {
    const dir = resolveInside(root, a.directory);
    const ws = await workspaces.forStatus(dir);
    const out = { directory: dir, indexed: false, workspace: null as string | null, files: 0, chunks: 0, lines: 0, model: null as string | null, updated: null as string | null };
    if (ws) {
      const s = await ws.status();
      Object.assign(out, { indexed: s.files > 0, workspace: s.name, files: s.files, chunks: s.chunks, lines: s.lines, model: s.model || null, updated: s.updated });
    }
    const text = out.indexed ? `${dir}: indexed in workspace ${out.workspace} (${out.files} files, ${out.chunks} chunks)` : `${dir}: not indexed yet (the first search builds the index)`;
    return { content: [{ type: 'text' as const, text }], structuredContent: out };
  }));

  return server;
}

const BUILDING_NOTE = 'the index of this directory is being built in the background; this answer comes from reading the files (the same matches, found more slowly)';

/** Where an answer came from: the index, a scan while the index builds, or a scan (the index could not answer). */
function freshness(ws: unknown, r: { stats: { index?: unknown } }): 'fresh' | 'building' | 'scanned' {
  return !ws ? 'building' : r.stats.index ? 'fresh' : 'scanned';
}

/** A failure is a tool error the client can read (isError), never a crash or a line on stdout. */
async function guard<T>(fn: () => Promise<T>): Promise<T | { isError: true; content: { type: 'text'; text: string }[] }> {
  try {
    return await fn();
  } catch (e) {
    const message = isSimgrepError(e) ? `${e.code}: ${e.message}` : (e as Error)?.message ?? String(e);
    return { isError: true, content: [{ type: 'text', text: message }] };
  }
}
