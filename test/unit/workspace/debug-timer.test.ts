// The debug timer (SIMGREP_DEBUG_TIMING=1): a search's and an MCP call's phases without the memory figures
// (branch fixed43: process.memoryUsage and /proc/self/status at each of a warm search's ~14 marks cost its main
// thread ~2-3 ms in a resident engine, which the stage probe counted in the stages), an index run's with them.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { timer } from '../../../src/workspace/debug-timer.js';

afterEach(() => { vi.unstubAllEnvs(); vi.restoreAllMocks(); });

function linesOf(run: () => void): string[] {
  const lines: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => { lines.push(String(s)); return true; });
  run();
  return lines;
}

describe('timer', () => {
  it('is silent without SIMGREP_DEBUG_TIMING', () => {
    vi.stubEnv('SIMGREP_DEBUG_TIMING', '');
    expect(linesOf(() => timer('search', { memory: false })('walk'))).toEqual([]);
  });

  it("writes a search's phase with its wall and CPU time only, an index run's with the memory figures too", () => {
    vi.stubEnv('SIMGREP_DEBUG_TIMING', '1');
    const [search] = linesOf(() => timer('search', { memory: false })('walk'));
    expect(search).toMatch(/^\[search\] walk: \d+\.\d ms \(at \d+ ms since start(; main thread CPU \d+\.\d ms)?\)\n$/);
    vi.restoreAllMocks();
    const [index] = linesOf(() => timer('index')('update'));
    expect(index).toMatch(/^\[index\] update: \d+\.\d ms \(at \d+ ms since start(; main thread CPU \d+\.\d ms)?; rss \d+ MB(, peak \d+ MB)?, heap \d+ MB, external \d+ MB\)\n$/);
  });
});
