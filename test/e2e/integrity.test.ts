// A damaged index never gives a silently wrong answer (issue 28, items 6 and 8): through the real
// CLI, over a real LanceDB directory, a snapshot.bin with one chunk's vector or one postings block
// zeroed and a LanceDB data file cut short or overwritten. Searches answer as a scan does; simgrep
// index says what was damaged and repairs it.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { chunkVectorBytes, sectionBytes } from '../helpers/snapshot-bytes.js';

let tmp = '';
let tree = '';
let env: Record<string, string> = {};

const WORDS = ['upload', 'retry', 'invoice', 'socket', 'parser', 'render', 'cache', 'token', 'backoff', 'queue', 'payment', 'login', 'database', 'network'];
function file(seed: number, lines: number): string {
  return Array.from({ length: lines }, (_, i) => `const ${WORDS[(seed + i) % 14]}${i} = ${WORDS[(seed * 7 + i) % 14]}(${i}); // ${WORDS[(i * 3 + seed) % 14]} ${WORDS[(i * 5 + seed * 3) % 14]} handling`).join('\n');
}

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-integrity-'));
  tree = path.join(tmp, 'tree');
  for (let f = 0; f < 40; f++) {
    mkdirSync(path.join(tree, `d${f % 4}`), { recursive: true });
    writeFileSync(path.join(tree, `d${f % 4}`, `f${f}.ts`), file(f, 120));
  }
  env = { SIMGREP_HOME: path.join(tmp, 'home'), SIMGREP_CACHE_DIR: path.join(tmp, 'cache') };
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const wsDir = (name: string) => path.join(env.SIMGREP_HOME, 'workspaces', name);
const zero = (file: string, from: number, to: number) => {
  const bytes = readFileSync(file);
  bytes.fill(0, from, to);
  writeFileSync(file, bytes);
};

describe('a damaged snapshot.bin', () => {
  it('a damaged snapshot.bin (one chunk vector zeroed) is used as is: the search gives the scan answer, simgrep index says so and repairs it', async () => {
    expect((await runCli(['index', tree, '-w', 'snap'], { env })).code).toBe(0);
    const args = ['payment failed for the user login', tree, '--mode', 'semantic', '--json', '--top-k', '3'];
    const scan = await runCli([...args, '--no-index'], { env });
    expect(scan.code).toBe(0);
    const best = JSON.parse(scan.stdout).results[0];
    const snapshot = path.join(wsDir('snap'), 'snapshot.bin');
    const damage = () => { const { from, to } = chunkVectorBytes(snapshot, best.filename, best.match_line_number); zero(snapshot, from, to); };
    damage();
    const indexed = await runCli([...args, '-w', 'snap'], { env });
    expect([indexed.code, indexed.stdout]).toEqual([0, scan.stdout]);
    // Damaged again: simgrep index checks the file, says what it found and rebuilds it from LanceDB.
    damage();
    const damaged = readFileSync(snapshot);
    const repaired = await runCli(['index', tree, '-w', 'snap'], { env });
    expect(repaired.code).toBe(0);
    expect(repaired.stderr).toContain(`simgrep: workspace snap: ${snapshot} is damaged (its vectors section fails its checksum); rebuilt it from the index\n`);
    expect(repaired.stderr).toMatch(/40 files checked, 0 indexed .*, 40 unchanged/);
    expect(readFileSync(snapshot).equals(damaged)).toBe(false);
    const again = await runCli(['index', tree, '-w', 'snap'], { env });
    expect(again.stderr).not.toContain('damaged');
    expect((await runCli([...args, '-w', 'snap'], { env })).stdout).toBe(scan.stdout);
  });

  it('a damaged snapshot.bin postings block (read lazily, a key at a time) is a miss too: the lexical answer equals the scan', async () => {
    expect((await runCli(['index', tree, '-w', 'lex'], { env })).code).toBe(0);
    const args = ['invoice backoff', tree, '--mode', 'lexical', '--json', '--top-k', '5'];
    const scan = await runCli([...args, '--no-index'], { env });
    const snapshot = path.join(wsDir('lex'), 'snapshot.bin');
    for (const section of ['stemChunk', 'stemCount']) {
      const { from, to } = sectionBytes(snapshot, section);
      zero(snapshot, from, to);
      const indexed = await runCli([...args, '-w', 'lex'], { env });
      expect([section, indexed.code, indexed.stdout]).toEqual([section, 0, scan.stdout]);
    }
  });
});

describe('temp files of failed snapshot writes', () => {
  it('a failed snapshot write leaves snapshot.bin.<pid>.tmp files, never swept: the next write sweeps those of dead pids and old ones', async () => {
    expect((await runCli(['index', tree, '-w', 'sweep'], { env })).code).toBe(0);
    const dir = wsDir('sweep');
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid;
    const names = { dead: `snapshot.bin.${deadPid}.tmp`, old: `snapshot.delta.bin.${process.pid}.tmp`, live: `snapshot.bin.${process.pid}.tmp` };
    for (const n of Object.values(names)) writeFileSync(path.join(dir, n), Buffer.alloc(1 << 20));
    const longAgo = new Date(Date.now() - 20 * 60_000);
    utimesSync(path.join(dir, names.old), longAgo, longAgo);
    writeFileSync(path.join(tree, 'd1', 'f1.ts'), file(1001, 120));
    const r = await runCli(['index', tree, '-w', 'sweep'], { env });
    expect(r.stderr).toContain('40 files checked, 1 indexed');
    // A live process's recent temp file may be a write in progress: kept.
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([names.live]);
  });
});

describe('a damaged LanceDB file', () => {
  for (const [how, damage] of [
    ['cut to half its size', (f: string) => truncateSync(f, Math.floor(statSync(f).size / 2))],
    ['its last 100 bytes overwritten', (f: string) => { const b = readFileSync(f); b.fill(0x5a, b.length - 100); writeFileSync(f, b); }],
  ] as const) {
    it(`one damaged LanceDB file blocks everything (a chunks data file ${how}): searches scan and name the workspace, simgrep index rebuilds it`, async () => {
      const name = `lance-${how.length}`;
      expect((await runCli(['index', tree, '-w', name], { env })).code).toBe(0);
      const args = ['retry the upload with backoff', tree, '--json', '--top-k', '3'];
      const scan = await runCli([...args, '--no-index'], { env });
      const data = path.join(wsDir(name), 'chunks.lance', 'data');
      damage(path.join(data, readdirSync(data)[0]));
      // Without its snapshot, a search must read LanceDB (the snapshot, checksummed, would still answer).
      rmSync(path.join(wsDir(name), 'snapshot.bin'));
      for (let i = 0; i < 2; i++) {
        const r = await runCli([...args, '-w', name], { env });
        expect([r.code, r.stdout]).toEqual([0, scan.stdout]);
        expect(r.stderr).toMatch(new RegExp(`^simgrep: workspace ${name} not used: the index at ${wsDir(name)} is damaged \\([^\\n/]+\\); this search scanned the files instead; simgrep index rebuilds it\\n$`));
      }
      const rebuilt = await runCli(['index', tree, '-w', name], { env });
      expect(rebuilt.code).toBe(0);
      expect(rebuilt.stderr).toContain(`simgrep: workspace ${name}: the index at ${wsDir(name)} is damaged (`);
      expect(rebuilt.stderr).toMatch(/; rebuilt it from the files\nsimgrep: workspace \S+: 40 files checked, 40 indexed/);
      const after = await runCli([...args, '-w', name, '--stats'], { env });
      expect([after.code, after.stdout]).toEqual([0, scan.stdout]);
      expect(after.stderr).toMatch(new RegExp(`^simgrep: searched 40 files, .* from workspace ${name} \\(0 files re-indexed first\\)`));
    });
  }
});

