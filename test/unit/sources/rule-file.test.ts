// Ignore files are read only when they are regular files of a sane size: a FIFO named .gitignore hung
// the walk forever, and one that was a directory or unreadable was dropped without a word.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MAX_RULE_FILE_BYTES, readRuleFile } from '../../../src/sources/rule-file.js';

let dir = '';
beforeAll(async () => { dir = await mkdtemp(path.join(tmpdir(), 'simgrep-rules-')); });
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('readRuleFile', () => {
  it('reads a regular file, and says "missing" for none', async () => {
    await writeFile(path.join(dir, 'plain'), 'dist/\n*.log\n');
    expect(readRuleFile(path.join(dir, 'plain'))).toEqual({ ok: true, text: 'dist/\n*.log\n' });
    expect(readRuleFile(path.join(dir, 'absent'))).toEqual({ ok: false, missing: true });
  });

  it('refuses a FIFO at once instead of waiting for a writer', () => {
    execFileSync('mkfifo', [path.join(dir, 'fifo')]);
    expect(readRuleFile(path.join(dir, 'fifo'))).toEqual({ ok: false, missing: false, problem: 'is not a regular file (a pipe, socket or device)' });
  });

  it('reports a directory and a file over the size cap', async () => {
    await mkdir(path.join(dir, 'adir'));
    expect(readRuleFile(path.join(dir, 'adir'))).toEqual({ ok: false, missing: false, problem: 'is a directory, not a file of rules' });
    await writeFile(path.join(dir, 'huge'), '');
    await truncate(path.join(dir, 'huge'), MAX_RULE_FILE_BYTES + 1); // sparse: no disk used
    expect(readRuleFile(path.join(dir, 'huge'))).toEqual({ ok: false, missing: false, problem: `is ${MAX_RULE_FILE_BYTES + 1} bytes, over the ${MAX_RULE_FILE_BYTES} bytes a rule file may have` });
  });
});
