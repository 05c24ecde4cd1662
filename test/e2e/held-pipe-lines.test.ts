// Lines a held pipe delivered before the --timeout deadline are scored and counted (the built CLI, a real FIFO
// and a real writer). Before trust44, a file's lines waited in the line splitter until a piece of 2,048 was full:
// a writer that wrote a few lines and held the pipe open got none of them scored or counted at the deadline
// ("searched 0 files, 0 lines, 0 bytes", no result), though they had been read. The file still counts as cut
// short (not a file searched), and its last line without a newline is not a line yet.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cliPath, timedRun, type CliRun } from '../helpers/cli.js';
import { isolatedHome } from '../helpers/isolated-home.js';

let dir = '';
let home: ReturnType<typeof isolatedHome>;

beforeAll(() => {
  home = isolatedHome();
  dir = mkdtempSync(path.join(tmpdir(), 'simgrep-held-pipe-lines-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  home.restore();
});

const WORDS = ['invoice', 'ledger', 'parser', 'render', 'socket', 'token', 'cache', 'queue', 'payment', 'login'];
/** N lines of code, the third the one the query is about. */
const N = 60;
const LINES = Array.from({ length: N }, (_, i) => (i === 2
  ? 'function retryFailedUpload(file) { return backoff(() => uploadToBucket(file)); } // retry the failed upload'
  : `const ${WORDS[i % 10]}${i} = ${WORDS[(i * 3 + 1) % 10]}Total(${i}) + ${WORDS[(i * 7 + 2) % 10]}Count;`));
/** Written last without its newline: not a line yet when the deadline comes, neither counted nor found. */
const PARTIAL = 'the partial upload retry line, its newline never written';

/** N lines of prose (a Markdown file's), the third the one the query is about. */
const PROSE = Array.from({ length: N }, (_, i) => (i === 2
  ? 'When an upload fails we retry the failed upload with exponential backoff before giving up.'
  : `The ${WORDS[i % 10]} section explains how the ${WORDS[(i * 3 + 1) % 10]} and the ${WORDS[(i * 7 + 2) % 10]} fit together, part ${i}.`));

/** A writer (sh) that writes `lines` and PARTIAL into the FIFO at once, then holds it open for `holdS`. */
function writer(fifo: string, holdS: number, lines = LINES): ChildProcess {
  const script = 'f=$1 h=$2 p=$3; shift 3; exec >"$f"; for l in "$@"; do printf "%s\\n" "$l"; done; printf "%s" "$p"; exec sleep "$h"';
  return spawn('sh', ['-c', script, 'sh', fifo, String(holdS), PARTIAL, ...lines], { stdio: 'ignore' });
}

const STATS = /^simgrep: searched (\S+) files?, (\S+) lines?, (\S+) bytes? in/m;
const num = (s: string) => Number(s.replace(/,/g, ''));

const run = (args: string[]): Promise<CliRun> => timedRun(process.execPath, [cliPath, ...args], { cwd: dir, env: home.env });

const STOPPED = (seconds: string, fifo: string) => `stopped after the --timeout of ${seconds} s: the results found so far are shown; still reading ${fifo}`;

/** The CLI on the FIFO, held open by its writer, with `--timeout seconds`: its answer and stats line's counts. */
async function onHeldPipe(fifo: string, seconds: string, workers: string, lines = LINES): Promise<{ r: CliRun; files: number; lines: number; bytes: number }> {
  const w = writer(fifo, 120, lines);
  try {
    const r = await run(['retry the failed upload', path.basename(fifo), '--timeout', seconds, '--stats', '--json', '-n', '0', '--top-k', '3', '-J', workers]);
    const m = STATS.exec(r.stderr);
    expect(m, r.stderr).not.toBeNull();
    return { r, files: num(m![1]), lines: num(m![2]), bytes: num(m![3]) };
  } finally {
    w.kill();
  }
}

for (const workers of ['0', '1']) {
  it(`-J ${workers}: lines a held pipe delivered before the --timeout are found and counted; its unfinished last line is not`, async () => {
    const fifo = path.join(dir, `held-${workers}.fifo`);
    execFileSync('mkfifo', [fifo]);
    // 2 s, and longer only if nothing of the pipe was read by then (a loaded machine's start).
    let seconds = '2';
    let got = await onHeldPipe(fifo, seconds, workers);
    for (const longer of ['4', '8']) {
      if (got.lines > 0) break;
      seconds = longer;
      got = await onHeldPipe(fifo, seconds, workers);
    }
    const { r } = got;
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(STOPPED(seconds, path.basename(fifo)));
    // Before: `searched 0 files, 0 lines, 0 bytes` and no result: the 60 lines sat in the splitter, never packed.
    const bytes = LINES.reduce((a, l) => a + Buffer.byteLength(l) + 1, 0);
    expect({ files: got.files, lines: got.lines, bytes: got.bytes }).toEqual({ files: 0, lines: N, bytes });
    const results = (JSON.parse(r.stdout) as { results: { filename: string; match_line_number: number; content: string }[] }).results;
    expect(results[0]).toMatchObject({ filename: path.basename(fifo), match_line_number: 2, content: LINES[2] });
    expect(results.some((x) => x.content.includes('partial upload'))).toBe(false);
  }, 120_000);
}

// A prose file's pieces wait for its statistics (rank/prose-file.ts): session 44 left them dropped when the
// deadline cut the file first ("searched 0 files, 0 lines, 0 bytes", no result); now they are scored with the
// statistics of the lines read, as a code file's lines are.
it('a held pipe named as Markdown: its lines read before the --timeout are found and counted with the statistics so far', async () => {
  const fifo = path.join(dir, 'held-notes.md');
  execFileSync('mkfifo', [fifo]);
  let seconds = '2';
  let got = await onHeldPipe(fifo, seconds, '0', PROSE);
  for (const longer of ['4', '8']) {
    if (got.lines > 0) break;
    seconds = longer;
    got = await onHeldPipe(fifo, seconds, '0', PROSE);
  }
  const { r } = got;
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toContain(STOPPED(seconds, path.basename(fifo)));
  const bytes = PROSE.reduce((a, l) => a + Buffer.byteLength(l) + 1, 0);
  expect({ files: got.files, lines: got.lines, bytes: got.bytes }).toEqual({ files: 0, lines: N, bytes });
  const results = (JSON.parse(r.stdout) as { results: { filename: string; match_line_number: number; content: string }[] }).results;
  expect(results[0]).toMatchObject({ filename: path.basename(fifo), match_line_number: 2, content: PROSE[2] });
}, 120_000);
