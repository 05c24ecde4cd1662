// What the MCP tools do, apart from how they are reached: one runner per root, over an action engine
// (the model, the workspaces). `simgrep mcp` calls it in its own process with --no-server or when no
// engine can be reached; the resident engine (engine.ts) calls the very same code for every front, so
// an answer is the same whichever process gives it. Every failure is a tool error (isError), never a throw.
import type { ActionEngine } from '../actions/engine.js';
import type { SearchMode } from '../types.js';
import { SimgrepError } from '../errors.js';
import type { WireToolResult } from '../server/protocol.js';
import type { SourceWarning } from '../sources/source.js';
import type { IndexProgress } from '../workspace/build/indexer.js';
import type { Workspace } from '../workspace/workspace.js';
import { timer } from '../workspace/debug-timer.js';
import { buildAnswer, DEFAULT_MAX_TOKENS } from './answer.js';
import { createConfinedWorkspaces, RETRY_BUILD_MS } from './confined-workspaces.js';
import { resolveFileInside, resolveInside, type Root } from './scope.js';
import { boundQuery, filtersOf, planOf, type Narrowing } from './search-args.js';
import { bundledModelDir } from '../model/default-model.js';
import { argStrings, errorRedaction, errorText } from './error-redaction.js';
import { toolTerms } from './tool-terms.js';
import { outsidePlaces } from './outside-places.js';
import { shownModel } from './redact.js';
import { warningNote } from './warning-note.js';
import { filterNote } from './filter-note.js';
import { counted } from '../text/cut.js';

export type ToolName = 'search' | 'find_related' | 'index' | 'status';
export const TOOL_NAMES: readonly ToolName[] = ['search', 'find_related', 'index', 'status'];

/** Runs one tool with arguments the MCP server has already checked against its input schema. */
export interface ToolRunner {
  /**
   * `onProgress`: an index call's; `signal`: the call's client gave up (a search or find_related then stops
   * its scan or its index search, a status its reading of the index, and answers with an error no one reads;
   * the index is never left half-written).
   */
  call(tool: ToolName, args: Record<string, unknown>, o?: CallOptions): Promise<WireToolResult>;
  /**
   * Settles when no index is being built in the background, nor the made-up searches after one run, nor (unless
   * `keeping` is false: an engine's stop) the keeping of an engine's start (confined-workspaces.ts).
   */
  settled?(o?: { keeping?: boolean }): Promise<void>;
  /**
   * Runs made-up searches over the root's index when one is built (an engine started over an index made
   * earlier: confined-workspaces.ts warmUp); resolves with its workspace and how many ran, or null.
   */
  warmUp?(): Promise<{ workspace: string; ran: number } | null>;
  /** Ends the made-up searches (before the action engine closes). */
  close?(): Promise<void>;
}

export interface CallOptions { onProgress?: (p: IndexProgress) => void; signal?: AbortSignal }

type SearchArgs = Narrowing & { query: string };
type RelatedArgs = Narrowing & { file_path: string; line: number };

/**
 * `onRedacted`: the whole message of a failure the client was told without its paths outside the root (for
 * the server's log); `model`: the engine's --model (its folder is a place outside the root: outside-places.ts).
 */
export function createToolRunner(engine: ActionEngine, root: Root, o: { model?: string; onRedacted?: (message: string) => void } = {}): ToolRunner {
  const outside = outsidePlaces({ root: root.real, rootGiven: root.given, model: o.model });
  const redact = errorRedaction(root, { ...o, outside });
  const workspaces = createConfinedWorkspaces(engine, root, redact);

  async function search(a: SearchArgs, signal?: AbortSignal): Promise<WireToolResult> {
    // With SIMGREP_DEBUG_TIMING=1, the MCP side's stages around the search's own (workspace/search-run.ts).
    const mark = timer('mcp', { memory: false });
    const dir = resolveInside(root, a.directory);
    const plan = planOf(a);
    const { query, notes } = boundQuery(a.query);
    const { ws, r } = await workspaces.forSearch(dir, async (ws) => {
      mark('covering');
      return { ws, r: await (ws ?? engine.searcher).search({ query, paths: [dir], topK: plan.k, mode: plan.mode, ...filtersOf(a), nLines: plan.nLines, signal }) };
    });
    mark('searched');
    const results = r.results;
    const answer = buildAnswer({
      results, mode: plan.mode, maxTokens: plan.maxTokens, withCode: plan.withCode,
      filesSearched: r.stats.files, more: r.more === true, ...where(ws, r, dir, plan.mode, [...notes, ...filtered(a, r, dir, plan.maxTokens), ...warned(ws, withHanded(ws, dir, r), plan.maxTokens)]),
    });
    mark('answer built');
    return answer;
  }

  async function findRelated(a: RelatedArgs, signal?: AbortSignal): Promise<WireToolResult> {
    // With SIMGREP_DEBUG_TIMING=1, the MCP side's stages around the search's own (workspace/search-run.ts).
    const mark = timer('mcp', { memory: false });
    const file = resolveFileInside(root, a.file_path);
    const dir = resolveInside(root, a.directory);
    const plan = planOf(a);
    const { ws, r } = await workspaces.forSearch(dir, async (ws) => {
      mark('covering');
      return { ws, r: await (ws ?? engine.searcher).search({ query: '', like: { path: file, line: a.line }, paths: [dir], topK: plan.k, mode: plan.mode, ...filtersOf(a), nLines: plan.nLines, signal }) };
    });
    mark('searched');
    const results = r.results;
    const answer = buildAnswer({
      results, mode: plan.mode, maxTokens: plan.maxTokens, withCode: plan.withCode,
      filesSearched: r.stats.files, more: r.more === true, ...where(ws, r, dir, plan.mode, [...filtered(a, r, dir, plan.maxTokens), ...warned(ws, withHanded(ws, dir, r), plan.maxTokens)]),
    });
    mark('answer built');
    return answer;
  }

  /**
   * An answer of `ws` for `dir` with the warnings said once that the made-up searches of the same `dir` after
   * its build or at the engine's start met (WATCH_OFF; SNAPSHOT_NOT_SAVED, of any dir: confined-workspaces.ts
   * takeNotes), where it has none of that code itself: after its own, which a small max_tokens then keeps (each
   * names its path: WATCH_OFF's is `dir`, SNAPSHOT_NOT_SAVED's the index).
   */
  function withHanded(ws: Workspace | null, dir: string, r: { warnings: SourceWarning[] }): { warnings: SourceWarning[] } {
    const handed = ws ? workspaces.takeNotes(ws, dir).filter((n) => !r.warnings.some((w) => w.code === n.code)) : [];
    return handed.length > 0 ? { warnings: [...r.warnings, ...handed] } : r;
  }

  /** A note when the file filters left no file to search (filter-note.ts), held to a share of `maxTokens`. */
  function filtered(a: Narrowing, r: { stats: { files: number } }, dir: string, maxTokens: number): string[] {
    const note = filterNote(a, { filesSearched: r.stats.files, dir, root: root.real, maxTokens });
    return note === null ? [] : [note];
  }

  /** The search's warnings (what the CLI prints on stderr) as one note, naming nothing outside the root. */
  function warned(ws: { dir: string } | null, r: { warnings: SourceWarning[] }, maxTokens: number): string[] {
    const note = warningNote(r.warnings, { root: root.real, rootGiven: root.given, indexDir: ws?.dir, outside, maxTokens });
    return note === null ? [] : [note];
  }

  /** Where an answer came from, with a note when the files were read: the index builds, its build failed, or it could not be read. */
  function where(ws: unknown, r: { stats: { index?: unknown } }, dir: string, mode: SearchMode, notes: string[]): { index: 'fresh' | 'building' | 'scanned'; notes: string[] } {
    // Line mode is never served by the index: said, so that an agent does not take "scanned" for a fault and call index (agent47).
    if (ws) return { index: r.stats.index ? 'fresh' : 'scanned', notes: !r.stats.index && mode === 'line' ? [...notes, LINE_NOTE] : notes };
    const failure = workspaces.buildFailure(dir);
    if (!failure) return { index: 'building', notes: [...notes, BUILDING_NOTE] };
    if (failure.unreadable) return { index: 'scanned', notes: [...notes, `the index of this directory could not be read (${failure.why}); this answer comes from reading the files (the same matches, found more slowly)`] };
    return { index: 'scanned', notes: [...notes, `the background build of this directory's index failed (${failure.why}); this answer comes from reading the files (the same matches, found more slowly); a search after ${RETRY_BUILD_MS / 1000} s, or the index tool now, tries the build again`] };
  }

  async function index(a: { directory?: string }, onProgress?: (p: IndexProgress) => void): Promise<WireToolResult> {
    const dir = resolveInside(root, a.directory);
    const { ws, roots } = await workspaces.forIndex(dir);
    const r = await ws.index(roots, { onProgress });
    // The run's warnings (files it could not read, a ranking snapshot it could not save: a search beside it
    // leaves those to it), as a search's: one note (mend41).
    const notes = warned(ws, r, DEFAULT_MAX_TOKENS);
    const out = { workspace: ws.name, files: r.files, indexed: r.indexed, unchanged: r.unchanged, deleted: r.deleted, chunks: r.chunks, errors: r.errors, ...(notes.length > 0 ? { notes } : {}) };
    const text = `workspace ${ws.name}: ${counted(r.files, 'file')} checked, ${r.indexed} indexed, ${r.unchanged} unchanged, ${r.deleted} removed, ${counted(r.errors, 'error')}${noteLines(notes)}`;
    return { content: [{ type: 'text', text }], structuredContent: out };
  }

  /** `signal`: read where it waits (the workspace found, its file list read, the files' directories listed). */
  async function status(a: { directory?: string }, signal?: AbortSignal): Promise<WireToolResult> {
    const dir = resolveInside(root, a.directory);
    const found = await workspaces.forStatus(dir);
    if (signal?.aborted) throw new SimgrepError('ABORTED', 'status was aborted');
    const out: Record<string, unknown> = { directory: dir, indexed: false, workspace: null, files: 0, chunks: 0, lines: 0, model: null, updated: null };
    let notes: string[] = [];
    if (found?.building) {
      // Tables being built hold part of the tree: not "indexed" until the build is done. What the build
      // has indexed so far comes from its progress in memory: a status of the tables would wait for the
      // busy build (seconds).
      const p = found.progress;
      // Every count of the same files, those read so far (trial37: chunks stayed 0, counted only once
      // written, while files grew).
      Object.assign(out, { workspace: found.ws.name, files: p?.indexed ?? 0, chunks: p?.chunks ?? 0, lines: p?.lines ?? 0, model: null, building: true });
    } else if (found?.incomplete) {
      // A build cut short left part of the tree in the tables: not indexed, and not "not indexed yet"
      // (trial37); the counts are of that part, read from the tables' file states (no snapshot made).
      const s = await found.ws.status({ signal });
      Object.assign(out, { workspace: s.name, files: s.files, chunks: s.chunks, lines: s.lines, incomplete: true });
      statusNotes(found.ws, s);
    } else if (found) {
      const s = await found.ws.status({ signal });
      statusNotes(found.ws, s);
      Object.assign(out, { indexed: s.files + s.gone > 0, workspace: s.name, files: s.files, chunks: s.chunks, lines: s.lines, model: s.model ? shownModel(s.model, { root: root.real, rootGiven: root.given, bundledDir: bundledModelDir() }) : null, updated: s.updated });
      if (s.gone > 0) out.gone = s.gone;
    }
    // Status read the index: a failure to read it is over; a build's is not.
    const f = workspaces.buildFailure(dir);
    const failure = f && !f.unreadable ? f.why : null;
    if (failure) out.build_failed = failure;
    const text = failure
      ? `${dir}: the background build of its index failed (${failure}); searches read the files; the index tool tries again`
      : out.building
      ? `${dir}: the index of workspace ${String(out.workspace)} is being built in the background (${counted(Number(out.files), 'file')} so far); searches read the files meanwhile`
      : out.incomplete
      ? `${dir}: the index of workspace ${String(out.workspace)} is incomplete: no build of it has finished, one was cut short or is still running (${counted(Number(out.files), 'file')} written); the next search rebuilds it in the background and reads the files meanwhile, the index tool finishes it now`
      : out.indexed ? `${dir}: indexed in workspace ${String(out.workspace)} (${counted(Number(out.files), 'file')}, ${counted(Number(out.chunks), 'chunk')}${out.gone ? `; ${String(out.gone)} more gone since its last run, skipped by searches, dropped by the index tool` : ''})` : `${dir}: not indexed yet (the first search builds the index)`;
    return { content: [{ type: 'text', text: `${text}${noteLines(notes)}` }], structuredContent: out };

    /** What status met (a ranking snapshot it rebuilt and could not save) as one note, as a search's (mend41). */
    function statusNotes(ws: { dir: string }, s: { warnings?: SourceWarning[] }): void {
      notes = warned(ws, { warnings: s.warnings ?? [] }, DEFAULT_MAX_TOKENS);
      if (notes.length > 0) out.notes = notes;
    }
  }

  /** The notes of an index or status answer, a line each after its text. */
  function noteLines(notes: string[]): string {
    return notes.map((n) => `\nnote: ${n}`).join('');
  }

  return {
    settled: (o) => workspaces.settled(o),
    warmUp: () => workspaces.warmUp(root.real),
    close: () => workspaces.close(),
    call: (tool, args, { onProgress, signal } = {}) => workspaces.during(() => guard((message) => redact(message, argStrings(args)), () => {
      switch (tool) {
        case 'search': return search(args as SearchArgs, signal);
        case 'find_related': return findRelated(args as RelatedArgs, signal);
        case 'index': return index(args as { directory?: string }, onProgress);
        case 'status': return status(args as { directory?: string }, signal);
        default: throw new Error(`unknown tool ${String(tool)}`);
      }
    })),
  };
}

const LINE_NOTE = '"mode": "line" reads the files on every search (the index serves hybrid, semantic, lexical and bm25): index: scanned is expected here, not a fault; calling index does not change it';

const BUILDING_NOTE = 'the index of this directory is being built in the background; this answer comes from reading the files (the same matches, found more slowly)';

/**
 * A failure is a tool error the client can read (isError), never a crash or a line on stdout, naming
 * nothing outside the root (error-redaction.ts).
 */
async function guard(redact: (message: string) => string, fn: () => Promise<WireToolResult>): Promise<WireToolResult> {
  try {
    return await fn();
  } catch (e) {
    return { isError: true, content: [{ type: 'text', text: toolTerms(redact(errorText(e))) }] };
  }
}
