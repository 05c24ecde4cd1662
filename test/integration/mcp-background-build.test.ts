// The MCP tools' background build when the ground moves under a resident engine: its home deleted while
// it lives (the bench harness did this; the engine then answered "index: building" forever, each search
// queuing a build that failed on the vanished workspace), and a build that cannot succeed at all.
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { toolRunnerTree, uploadFiles } from '../helpers/tool-runner-tree.js';

const t = toolRunnerTree(uploadFiles(4, () => 'retry failed uploads'));

const ask = async (tool: 'search' | 'status' | 'index', args: Record<string, unknown> = { query: 'retry failed uploads' }) => {
  const r = await t.runner.call(tool, args);
  expect(r.isError, JSON.stringify(r.content)).toBeUndefined();
  return r.structuredContent as { index?: string; notes?: string[]; matches?: { path: string }[]; build_failed?: string; indexed?: boolean };
};

describe('a resident engine whose index is removed behind its back', () => {
  it('builds it again instead of answering "index: building" forever', async () => {
    expect((await ask('search')).index).toBe('building');
    await t.runner.settled!();
    expect((await ask('search')).index).toBe('fresh');

    rmSync(process.env.SIMGREP_HOME!, { recursive: true, force: true });
    const scanned = await ask('search');
    expect(scanned.index).toBe('building');
    expect(scanned.matches!.length).toBeGreaterThan(0);
    await t.runner.settled!();
    const again = await ask('search');
    expect(again.index).toBe('fresh');
    expect(again.matches!.map((m) => m.path).sort()).toEqual(scanned.matches!.map((m) => m.path).sort());
  });

  it('says so when the background build fails, and the index tool tries again', async () => {
    // The home cannot be made: a file stands where its parent directory should be.
    rmSync(process.env.SIMGREP_HOME!, { recursive: true, force: true });
    const saved = process.env.SIMGREP_HOME!;
    const blocker = path.join(t.home.dir, 'blocked');
    writeFileSync(blocker, 'not a directory');
    process.env.SIMGREP_HOME = path.join(blocker, 'home');
    try {
      expect((await ask('search')).index).toBe('building');
      await t.runner.settled!();
      const failed = await ask('search');
      expect(failed.index).toBe('scanned');
      expect(failed.matches!.length).toBeGreaterThan(0);
      expect(failed.notes!.join(' ')).toMatch(/background build of this directory's index failed \(.*ENOTDIR/);
      const status = await ask('status', {});
      expect(status.build_failed).toMatch(/ENOTDIR/);
      // Not retried by every search: the next one scans at once, without a build behind it.
      expect((await ask('search')).index).toBe('scanned');

      rmSync(blocker);
      // Built by another process (as when \`simgrep index\` held the lock: INDEX_LOCKED): once that index
      // answers, the failure is over, with no index call (trial34's review: build_failed stayed for good).
      const other = await runCli(['index', t.tree, '-J', '0'], { env: { SIMGREP_HOME: process.env.SIMGREP_HOME! } });
      expect(other.code, other.stderr).toBe(0);
      expect((await ask('search')).index).toBe('fresh');
      expect((await ask('status', {})).build_failed).toBeUndefined();
      await ask('index', {});
      expect((await ask('status', {})).build_failed).toBeUndefined();
      expect((await ask('search')).index).toBe('fresh');
    } finally {
      process.env.SIMGREP_HOME = saved;
    }
  });
});
