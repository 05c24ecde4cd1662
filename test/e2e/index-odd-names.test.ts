// A workspace index of files whose names are not valid UTF-8 (found by the trial of session 33): the
// index keys them by their shown name (bad bytes escaped as \xNN), and searches from it, the next
// index run and prune opened or stat'ed that lossy name: "cannot be read (ENOENT)", the file left out,
// exit 2; re-embedded by every index run; dropped by prune. They now open it by its raw bytes.
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-odd-names-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const env = { SIMGREP_HOME: path.join(tmp, 'home'), SIMGREP_CACHE_DIR: path.join(tmp, 'cache') };
const raw = (rel: string) => Buffer.concat([Buffer.from(tmp), Buffer.from(`/${rel}`, 'latin1')]);

it.runIf(process.platform === 'linux')('files named in bytes that are not UTF-8 are searched from the index as a scan finds them, and kept by the next run and prune', async () => {
  await mkdir(raw('tree/d\xffir'), { recursive: true });
  await writeFile(raw('tree/caf\xe9.txt'), 'we retry the failed upload\n');
  await writeFile(raw('tree/d\xffir/x.txt'), 'retry the upload once more\n');
  await writeFile(raw('tree/plain.txt'), 'nothing to see here\n');
  const tree = path.join(tmp, 'tree');
  const dir = path.join(tmp, 'ws');
  expect((await runCli(['index', tree, '--index-dir', dir], { env })).code).toBe(0);
  const args = ['retry failed upload', tree, '--jsonl', '--top-k', '5'];
  const scan = await runCli([...args, '--no-index'], { env });
  expect(scan.stdout).toContain('caf\\\\xE9.txt');
  const indexed = await runCli([...args, '--index-dir', dir], { env });
  expect([indexed.code, indexed.stderr, indexed.stdout]).toEqual([0, '', scan.stdout]);
  const again = await runCli(['index', tree, '--index-dir', dir], { env });
  expect(again.stderr).toContain('3 files checked, 0 indexed');
  const prune = await runCli(['workspace', 'prune', '--index-dir', dir], { env });
  expect(prune.stderr).toContain('removed 0 files');
  expect((await runCli([...args, '--index-dir', dir], { env })).stdout).toBe(scan.stdout);
});
