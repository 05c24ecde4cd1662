// --stats after a --timeout that fires inside one big file (the built CLI, -J 0 and one worker): the file's lines
// and bytes are counted together, for the part scored. Before trust43 its bytes read were counted and none of its
// lines ("searched 0 files, 0 lines, 8,384,532 bytes"): notes42 made the in-process search stop between one
// file's batches, so a --timeout there became common.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { isolatedHome } from '../helpers/isolated-home.js';

let dir = '';
let home: ReturnType<typeof isolatedHome>;
/** Each line's byte length with its terminator. */
let lineBytes: number[] = [];

beforeAll(() => {
  home = isolatedHome();
  dir = mkdtempSync(path.join(tmpdir(), 'simgrep-stats-timeout-'));
  const W = ['upload', 'retry', 'invoice', 'socket', 'parser', 'render', 'cache', 'token', 'backoff', 'queue'];
  const lines: string[] = [];
  let bytes = 0;
  for (let i = 0; bytes < (8 << 20) - 4096; i++) {
    const line = `const ${W[i % 10]}${i} = ${W[(i * 7) % 10]}(${i}); // ${W[(i * 3) % 10]} handling of the ${W[(i * 11) % 10]}`;
    lines.push(line);
    bytes += line.length + 1;
  }
  writeFileSync(path.join(dir, 'big.ts'), `${lines.join('\n')}\n`);
  lineBytes = readFileSync(path.join(dir, 'big.ts'), 'utf8').split('\n').slice(0, -1).map((l) => Buffer.byteLength(l) + 1);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  home.restore();
});

const STATS = /^simgrep: searched (\S+) files?, (\S+) lines?, (\S+) bytes? in/m;
const num = (s: string) => Number(s.replace(/,/g, ''));

for (const workers of ['0', '1']) {
  it(`-J ${workers}: a --timeout inside one big file counts the lines scored and their bytes, together`, async () => {
    // Timeouts from short to long, until one fires while the file is being scored (the model's load comes first).
    let within: { lines: number; bytes: number } | null = null;
    for (const seconds of ['0.3', '0.5', '0.8', '1.2', '2', '3']) {
      const r = await runCli(['retry the failed upload', 'big.ts', '--stats', '--timeout', seconds, '-J', workers, '--top-k', '3'], { cwd: dir, env: home.env });
      const m = STATS.exec(r.stderr);
      expect(m, r.stderr).not.toBeNull();
      const [files, lines, bytes] = [num(m![1]), num(m![2]), num(m![3])];
      // Whatever the cut: the bytes are those of the lines counted (the file's first lines, scored in order).
      // Before: `0 lines, 8,384,532 bytes` (or N lines and all 8 MiB, with workers).
      expect({ files, lines, bytes }).toEqual({ files, lines, bytes: lineBytes.slice(0, lines).reduce((a, b) => a + b, 0) });
      if (files === 1) { expect(lines).toBe(lineBytes.length); break; }
      expect(r.stderr).toContain('stopped after the --timeout');
      if (lines > 0) { within = { lines, bytes }; break; }
    }
    // One run was cut inside the file, after some of it was scored.
    expect(within, 'no --timeout fired while the file was scored').not.toBeNull();
    expect(within!.lines).toBeLessThan(lineBytes.length);
  }, 120_000);
}
