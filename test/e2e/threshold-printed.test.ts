// A threshold keeps what was printed: `-m D` beside `--top-k K` returns every result the same search
// without it printed below D. Before score45 the threshold was applied to each hit's distance before
// the top-k's file spreading moved it (a file's best hit lowered by its other hits, its further hits
// raised), so a hit printed at 0.465289 did not come back from `-m 0.466` and a hit printed past D did
// (audit44). The scan and the index must answer alike.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { isolatedHome } from '../helpers/isolated-home.js';

let home: ReturnType<typeof isolatedHome>;
let root = '';

const pad = (n: number, tag: string): string => Array.from({ length: n }, (_, i) => `const ${tag}_${i} = ${i} * width;`).join('\n');
const fn = (name: string, body: string): string => `export async function ${name}(part) {\n  ${body}\n}`;

beforeAll(() => {
  home = isolatedHome('simgrep-threshold-printed-');
  root = path.join(home.dir, 'project');
  mkdirSync(root, { recursive: true });
  // upload.ts holds three matching chunks (48 lines apart): its best is raised by file coherence, its
  // others lowered by file saturation, so the top-k's distances are not the hits' own.
  writeFileSync(path.join(root, 'upload.ts'), [
    fn('retryFailedUpload', 'for (let attempt = 0; attempt < 3; attempt++) await sendUpload(part); // retry the failed upload'), pad(50, 'a'),
    fn('uploadPart', 'return sendUpload(part); // upload one part, retried on failure'), pad(50, 'b'),
    fn('failedUploads', 'return parts.filter((p) => p.failed); // the failed uploads to retry'), pad(10, 'c'),
  ].join('\n') + '\n');
  writeFileSync(path.join(root, 'retry.py'), 'def retry_failed_upload(part):\n    """Retry a failed upload with backoff."""\n    return send(part)\n');
  writeFileSync(path.join(root, 'backoff.ts'), fn('backoff', 'return 2 ** attempt * 100; // delay before the next attempt after a failure') + '\n');
  writeFileSync(path.join(root, 'send.go'), 'func sendUpload(p Part) error {\n\t// send one part of an upload\n\treturn client.Put(p)\n}\n');
  writeFileSync(path.join(root, 'width.ts'), pad(20, 'w') + '\n');
});
afterAll(() => home.restore());

type Shown = [file: string, line: number, distance: number];
const QUERY = 'retry failed upload';

async function search(args: string[]): Promise<{ shown: Shown[]; code: number | null; stderr: string }> {
  const r = await runCli([QUERY, '.', '--jsonl', ...args], { cwd: root, env: home.env });
  const shown = r.stdout.trim() === '' ? [] : r.stdout.trim().split('\n').map((l) => {
    const x = JSON.parse(l) as { filename: string; match_line: number; distance: number };
    return [x.filename, x.match_line, x.distance] as Shown;
  });
  return { shown, code: r.code, stderr: r.stderr };
}

describe('-m D keeps the results printed below D (audit44: the threshold read the distance before the file spreading)', () => {
  const runs: Array<[mode: string, index: string]> = [
    ['hybrid', '--no-index'], ['hybrid', '--index'], ['lexical', '--no-index'], ['lexical', '--index'],
    ['semantic', '--no-index'], ['line', '--no-index'],
  ];
  for (const [mode, index] of runs) {
    it(`--mode ${mode} --top-k 4 ${index}: -m just past each printed distance returns the results up to it, exactly`, async () => {
      if (index === '--index') expect((await runCli(['index', '.'], { cwd: root, env: home.env })).code).toBe(0);
      const flags = ['--mode', mode, '--top-k', '4', index];
      const all = await search(flags);
      expect(all.code, all.stderr).toBe(0);
      expect(all.shown.length).toBeGreaterThanOrEqual(3);
      for (let i = 0; i < all.shown.length; i++) {
        const d = all.shown[i][2];
        const kept = await search([...flags, '-m', String(d + 1e-6)]);
        // Every result printed at or below d, none past it (results tied with the next are kept with it).
        expect(kept.shown, `-m ${d + 1e-6}`).toEqual(all.shown.filter((s) => s[2] <= d));
      }
    });
  }

  it('hybrid: the file spreading moved the distances (else the test above proves nothing), and -m alone keeps its own printed ones', async () => {
    const top = await search(['--top-k', '4', '--no-index']);
    const every = await search(['-m', '0.99', '--no-index']);
    // retry.py's hit is its file's best: raised by coherence in the top-k (printed lower than its own distance).
    const own = every.shown.find((s) => s[0] === top.shown[0][0] && s[1] === top.shown[0][1]);
    expect(own?.[2]).toBeGreaterThan(top.shown[0][2]);
    for (const [, , d] of every.shown) {
      const kept = await search(['-m', String(d + 1e-6), '--no-index']);
      expect(kept.shown).toEqual(every.shown.filter((s) => s[2] <= d));
    }
  });

  it('-m below the best printed distance: nothing, exit 1, and the closest named at its printed distance', async () => {
    const top = await search(['--top-k', '4', '--no-index']);
    const [file, line, d] = top.shown[0];
    const r = await runCli([QUERY, '.', '--top-k', '4', '--no-index', '-m', String(d - 1e-6)], { cwd: root, env: home.env });
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toBe(`simgrep: no line is closer than --max-distance ${d - 1e-6}; the closest was ${file}:${line} (distance ${d})\n`);
  });
});
