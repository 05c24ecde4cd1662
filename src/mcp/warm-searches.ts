// Made-up searches the resident engine runs over an index right after its background build publishes it, and
// as the engine starts over an index built earlier (branch start42: confined-workspaces.ts warmUp), so that
// the agent's first indexed searches do not run cold code (issue 30).
// V8 optimizes a function only once it has run a while, and the indexed search's own code (the candidate
// pass, the prose listing, the chunk scorer on this thread) first runs when the index turns fresh: an
// agent's first few dozen searches then ran partly unoptimized, while V8's compiler threads took the other
// core (the MCP harness, branch warm32: as much CPU as the main thread's over its 40 warm searches). They run
// back to back, and the index's calls wait for them (at most WARM_HOLD_MS from publish, or from the engine's
// start: ~0.3 s of CPU near idle after a build, much of it beside the scan under way at publish); what is left
// after that runs only while the agent is idle (no tool call the index answers under way, none ended
// IDLE_MS ago or less), so a real call then waits at most for the one made-up search under way. A call
// answered from a scan (begun while the index was being built) never holds them back. Before branch warm41
// they ran only while the agent was idle or only scanning: how many ran before an agent's back-to-back
// indexed calls hung on how long the scan under way at publish lasted (branch warm41's harness runs: all 15
// at load ~20, 12 at load ~13, the last 3 then run inside the agent's measured calls' time), and those that
// had not ran never, or among the agent's calls. The answers are dropped; what the searches leave behind
// (the walk, kept text, caches) makes later searches cheaper, never different. One the index did not answer
// (a scan: another process holds its lock over files changed since) ends them: a made-up scan warms nothing.
// A warning said once, which no later search repeats (WATCH_OFF: the walk cache's note that watching is off),
// is handed on (`onNote`) for the agent's next answer of the workspace: before notes42 the first made-up
// search took it and dropped it.
import type { SourceWarning } from '../sources/source.js';
import { FRESH_ONLY } from '../searcher/api.js';
import { NOT_FRESH } from '../workspace/search-run.js';
import { timer } from '../workspace/debug-timer.js';
import { IDLE_MS } from '../workspace/search/warm-chunks.js';
import type { Workspace } from '../workspace/workspace.js';
import { planOf } from './search-args.js';

/** Questions of the kind agents ask (words, identifiers, both), none of the bench's own. */
export const WARM_QUERIES = [
  'read the input file line by line', 'handleRequest', 'where are the default options set', 'throw an error when the argument is missing',
  'iterate over the map entries', 'createClient', 'free the resources when done', 'format a number as text',
  'count the items in the collection', 'initialize the logger', 'compare two strings ignoring case', 'what happens on a failed write',
];

/**
 * The warnings a search says once and no later search of the same paths repeats: handed on, not dropped.
 * WATCH_OFF is said once per walk (of one directory); SNAPSHOT_NOT_SAVED by the search that rebuilt the
 * ranking snapshot and could not write it (later ones use it in memory): once per rebuild, of the workspace.
 */
const SAID_ONCE = new Set(['WATCH_OFF', 'SNAPSHOT_NOT_SAVED']);

/** Of those, the ones of the whole workspace, not of one directory's walk: any directory's next answer says them. */
export const OF_WORKSPACE: ReadonlySet<string> = new Set(['SNAPSHOT_NOT_SAVED']);

/** find_related on the top hits of the first searches: its own code (the chunk's terms) warms too. */
const RELATED = 3;

/** Gives up waiting for the agent to pause after this long: a made-up search then matters no more. */
const GIVE_UP_MS = 10 * 60_000;

/**
 * The index's calls wait at most this long after the build publishes for the made-up searches (all 15 take
 * ~0.3 s of CPU near idle; under load they take longer, and the rest then wait for the agent to be idle).
 */
export const WARM_HOLD_MS = 1_000;
let holdMs = WARM_HOLD_MS;

/** Sets how long the index's calls wait for the made-up searches (tests: 0, none waits). */
export function setWarmHoldMs(ms: number): void {
  holdMs = ms;
}

/** How long the index's calls wait for the made-up searches now (setWarmHoldMs). */
export function warmHoldMs(): number {
  return holdMs;
}

let ran = 0;

/** How many made-up searches this process has run (tests). */
export function warmSearchesRun(): number {
  return ran;
}

/**
 * The agent's tool calls (every tool) as the warm-up sees them: under way, how many of those answer from a
 * scan (no index to warm: they do not hold the made-up searches back), when the last one ended, and whether the server is closing.
 */
export interface AgentCalls { inFlight: number; scanning: number; lastEnded: number; stopped?: boolean }

/**
 * Runs the made-up searches of `dir` in `ws` one after another, as the MCP tools ask (their defaults): back
 * to back until they end or `holdMs` has passed since `since` (a performance.now(), default now: when the
 * index's calls began to wait), when `held` is called (the index's calls wait for it), then each only once
 * the agent is idle or only scanning (`calls`); they end once the server closes (`calls.stopped`), a search
 * fails, or one is answered by a scan (`held` is called by then in any case). `onNote`: told each warning
 * they met that is said once (SAID_ONCE), for the agent's next answer to say. `freshOnly` (the engine's
 * start): they end at the first that finds files changed since the index, which saves and reads none of
 * them (the agent's first search does). Resolves with how many ran (one so ended not counted).
 */
export async function warmSearches(ws: Workspace, dir: string, calls: AgentCalls, o: { held?: () => void; since?: number; onNote?: (w: SourceWarning) => void; freshOnly?: boolean } = {}): Promise<number> {
  const mark = timer('mcp');
  const { k: topK, mode, nLines } = planOf({});
  const until = performance.now() + GIVE_UP_MS;
  const tops: { path: string; line: number }[] = [];
  const handOn = (r: { warnings: SourceWarning[] }) => { for (const w of r.warnings) if (SAID_ONCE.has(w.code)) o.onNote?.(w); };
  let here = 0;
  /** What is left of the hold: none when the calls began to wait WARM_HOLD_MS ago (a model load outlasted it). */
  const left = holdMs - (performance.now() - (o.since ?? performance.now()));
  // Past the bound already, the calls were let go (confined-workspaces.ts holdCalls): the first waits for the
  // agent to be idle too (review of start42: it began at once beside the agent's call).
  let holding = holdMs > 0 && left > 0;
  let held = o.held;
  const release = () => {
    clearTimeout(bound);
    if (holding) mark(`made-up searches held the index's calls (${here} ran)`);
    holding = false;
    held?.();
    held = undefined;
  };
  // A timer, not a check between searches: a search under way at the bound does not keep the calls waiting.
  const bound = setTimeout(release, Math.max(0, left));
  bound.unref();
  if (!holding) release();
  const idle = async (): Promise<boolean> => {
    while (calls.stopped || (!holding && (calls.inFlight > calls.scanning || performance.now() - calls.lastEnded < IDLE_MS))) {
      if (calls.stopped || performance.now() > until) return false;
      await new Promise((r) => setTimeout(r, IDLE_MS).unref());
    }
    return true;
  };
  try {
    for (const query of WARM_QUERIES) {
      if (!(await idle())) return here;
      const r = await ws.search({ query, paths: [dir], topK, mode, nLines, [FRESH_ONLY]: o.freshOnly });
      handOn(r);
      if (r.warnings.some((w) => w.code === NOT_FRESH)) return here;
      ran++; here++;
      if (!r.stats.index) return here;
      const top = r.results[0];
      if (top && tops.length < RELATED) tops.push({ path: top.filename, line: top.match_line + 1 });
    }
    for (const like of tops) {
      if (!(await idle())) return here;
      // A hit's file changed since its search (cut short: its line past the end) ends them, as a changed file does.
      const r = await ws.search({ query: '', like, paths: [dir], topK, mode, nLines, [FRESH_ONLY]: o.freshOnly }).catch(() => null);
      if (!r) return here;
      handOn(r);
      if (r.warnings.some((w) => w.code === NOT_FRESH)) return here;
      ran++; here++;
    }
    mark(`warm searches (${here})`);
    return here;
  } finally {
    release();
  }
}
