// The MCP server: tools `search`, `index` and `status`, thin adapters over the workspace index. A
// directory's workspace is built on its first search and refreshed incrementally by every later one,
// so repeated queries answer from the index. Every tool keeps to the root (scope.ts) and to workspaces
// whose roots lie inside it (confined-workspaces.ts).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { ActionEngine } from '../actions/engine.js';
import { isSimgrepError } from '../errors.js';
import type { IndexProgress } from '../workspace/build/indexer.js';
import { SEARCH_MODES } from '../searcher.js';
import { createConfinedWorkspaces } from './confined-workspaces.js';
import { realRoot, resolveInside } from './scope.js';

export const MAX_QUERY_CHARS = 1000;
export const MAX_K = 50;
const MAX_PREVIEW_CHARS = 2000;

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
  score: z.number().describe('relevance, higher is better (1 - distance)'),
  preview: z.string().optional(),
});

export function createMcpServer(o: McpServerOptions): McpServer {
  const root = realRoot(o.root ?? process.cwd());
  const server = new McpServer({ name: 'simgrep', version: o.version });
  const workspaces = createConfinedWorkspaces(o.engine, root);

  server.registerTool('search', {
    title: 'Semantic code search',
    description: 'Find the lines of a directory that mean what the query says (hybrid lexical + embedding ranking, answered from a local index that is built on first use and kept fresh).',
    inputSchema: {
      query: z.string().min(1).max(MAX_QUERY_CHARS).describe('What to look for, in words or identifiers'),
      k: z.number().int().optional().describe(`How many results (clamped to 1..${MAX_K}; default 10)`),
      directory: z.string().optional().describe('Directory to search, inside the server root (default: the root)'),
      mode: z.enum(SEARCH_MODES).optional().describe('hybrid (default), semantic, lexical or line'),
      extensions: z.array(z.string()).optional().describe('Only files with these extensions, e.g. [".py", ".md"]'),
      n_lines: z.number().int().min(0).max(20).optional().describe('Context lines around each match (default 3)'),
      show_preview: z.boolean().optional().describe('Include the hunk text in each match'),
    },
    outputSchema: { matches: z.array(matchShape), count: z.number().int(), files_searched: z.number().int(), truncated: z.boolean() },
  }, async (a) => guard(async () => {
    const dir = resolveInside(root, a.directory);
    const k = Math.min(MAX_K, Math.max(1, a.k ?? 10));
    const ws = await workspaces.forSearch(dir);
    // One more than asked: `truncated` then says whether anything was left out, not that k came back.
    const r = await ws.search({ query: a.query, paths: [dir], topK: k + 1, mode: a.mode, extensions: a.extensions, nLines: a.n_lines ?? 3 });
    const matches = r.results.slice(0, k).map((x) => ({
      path: x.filename, start_line: x.start + 1, end_line: x.end, match_line: x.match_line + 1, score: 1 - x.distance,
      ...(a.show_preview ? { preview: x.lines.join('\n').slice(0, MAX_PREVIEW_CHARS) } : {}),
    }));
    const out = { matches, count: matches.length, files_searched: r.stats.files, truncated: r.results.length > k };
    const text = matches.length === 0 ? `no match in ${r.stats.files} files` : matches.map((m) => `${m.path}:${m.match_line} (${m.score.toFixed(3)})${m.preview !== undefined ? `\n${m.preview}` : ''}`).join('\n');
    return { content: [{ type: 'text' as const, text }], structuredContent: out };
  }));

  server.registerTool('index', {
    title: 'Build or refresh the index',
    description: 'Build or refresh the search index of a directory (reports progress); later searches of it are fast.',
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
    description: 'Whether a directory is indexed, and the size of its index.',
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

/** A failure is a tool error the client can read (isError), never a crash or a line on stdout. */
async function guard<T>(fn: () => Promise<T>): Promise<T | { isError: true; content: { type: 'text'; text: string }[] }> {
  try {
    return await fn();
  } catch (e) {
    const message = isSimgrepError(e) ? `${e.code}: ${e.message}` : (e as Error)?.message ?? String(e);
    return { isError: true, content: [{ type: 'text', text: message }] };
  }
}
