// Made-up searches the resident engine runs over the index its background build has just made, while
// the agent is idle (issue 30). V8 optimizes a function only once it has run a while, and the indexed
// search's own code (the candidate pass, the prose listing, the chunk scorer on this thread) first runs
// when the index turns fresh: an agent's first few dozen searches then ran partly unoptimized, while V8's
// compiler threads took the other core (the MCP harness, branch warm32: as much CPU as the main thread's
// over its 40 warm searches). The index answers as soon as it is built: a made-up search starts only when
// no tool call the index answers is under way and none ended IDLE_MS ago or less (an agent's next call comes
// seconds later), so a real call waits at most for the one made-up search under way. A call answered from a
// scan (begun while the index was being built) does not hold them back: an agent whose calls come back to
// back has one under way when the build publishes, for seconds, and never pauses after it (branch hop40: its
// first 40 indexed searches then ran before any made-up one). The answers are dropped; what the searches
// leave behind (the walk, kept text, caches) makes later searches cheaper, never different.
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

/** find_related on the top hits of the first searches: its own code (the chunk's terms) warms too. */
const RELATED = 3;

/** Gives up waiting for the agent to pause after this long: a made-up search then matters no more. */
const GIVE_UP_MS = 10 * 60_000;

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
 * Runs the made-up searches of `dir` in `ws` one after another, as the MCP tools ask (their defaults),
 * each only once the agent is idle or only scanning (`calls`); they end once the server closes (`calls.stopped`) or a search fails.
 */
export async function warmSearches(ws: Workspace, dir: string, calls: AgentCalls): Promise<void> {
  const mark = timer('mcp');
  const { k: topK, mode, nLines } = planOf({});
  const until = performance.now() + GIVE_UP_MS;
  const idle = async (): Promise<boolean> => {
    while (calls.stopped || calls.inFlight > calls.scanning || performance.now() - calls.lastEnded < IDLE_MS) {
      if (calls.stopped || performance.now() > until) return false;
      await new Promise((r) => setTimeout(r, IDLE_MS).unref());
    }
    return true;
  };
  const tops: { path: string; line: number }[] = [];
  let here = 0;
  for (const query of WARM_QUERIES) {
    if (!(await idle())) return;
    const r = await ws.search({ query, paths: [dir], topK, mode, nLines });
    ran++; here++;
    const top = r.results[0];
    if (top && tops.length < RELATED) tops.push({ path: top.filename, line: top.match_line + 1 });
  }
  for (const like of tops) {
    if (!(await idle())) return;
    await ws.search({ query: '', like, paths: [dir], topK, mode, nLines });
    ran++; here++;
  }
  mark(`warm searches (${here})`);
}
