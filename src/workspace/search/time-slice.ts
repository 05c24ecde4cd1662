// Background work on a resident process's main thread (kept-documents.ts counting prose documents,
// warm-chunks.ts warming code chunks) in slices, so a search that comes meanwhile waits at most one slice.
// The timers keep no process alive: one that is done exits, leaving the rest undone.

/**
 * How long background work holds the thread before it lets the event loop turn. It gets about one
 * slice per turn, and an agent's back-to-back searches turn the loop rarely: with 2 ms slices a fresh
 * index's 1,387 bench documents (~5 s of counting) were still uncounted 25 s later, so every search
 * decoded the statistics file's postings instead (~12-14 ms a call, and its garbage); with 8 they are
 * counted before the first warm search (MCP harness: find_related p50 235-293 -> 129-143 ms).
 */
export const SLICE_MS = 8;

/**
 * Lets the event loop turn once the slice has held the thread SLICE_MS (a timer: searches' I/O and
 * messages go first). A slice that starts at -Infinity turns at once.
 */
export async function turn(slice: { at: number }): Promise<void> {
  if (performance.now() - slice.at < SLICE_MS) return;
  await pause(0);
  slice.at = performance.now();
}

/** Waits `ms` on a timer that keeps no process alive. */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
