// A model's files read only as regular files, without blocking, bounded (trust47: model/model-file.ts). The
// layout check sees a FIFO or a device as a missing file, but config.json, tokenizer.json and model.safetensors
// were opened after it with plain reads: a FIFO put in a file's place between the two (or named by a caller that
// skipped the check) hung the load for ever, with no writer to come. Here the readers meet one directly.
import { closeSync, constants, mkdirSync, mkdtempSync, openSync, rmSync, symlinkSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readModelConfig } from '../../../src/model/config.js';
import { openSafetensors } from '../../../src/model/safetensors.js';
import { openTokenizerFile } from '../../../src/model/tokenizer-file.js';

let dir = '';
const fifos: string[] = [];
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'simgrep-model-file-'));
  for (const name of ['config.json', 'tokenizer.json', 'model.safetensors']) {
    const at = path.join(dir, `fifo-${name}`);
    expect(spawnSync('mkfifo', [at]).status).toBe(0);
    fifos.push(at);
  }
  symlinkSync('/dev/zero', path.join(dir, 'zero.json'));
  mkdirSync(path.join(dir, 'dir.json'));
});
afterAll(() => {
  // A reader still waiting on a FIFO (the old code's) is let go by a writer's open: no thread is left blocked.
  for (const f of fifos) { try { closeSync(openSync(f, constants.O_WRONLY | constants.O_NONBLOCK)); } catch { /* no reader */ } }
  rmSync(dir, { recursive: true, force: true });
});

const readers: [string, (file: string) => Promise<unknown>, string][] = [
  ['readModelConfig', (f) => readModelConfig(f, null, 'fix it'), 'MODEL_CORRUPT'],
  ['openTokenizerFile', (f) => openTokenizerFile(f, 'fix it'), 'TOKENIZER_CORRUPT'],
  ['openSafetensors', (f) => openSafetensors(f, 'fix it'), 'MODEL_CORRUPT'],
];

describe('a model file that is not a regular file', () => {
  it.each(readers.map(([name, read, code], i) => [name, read, code, i] as const))('%s refuses a FIFO at once (it waited for a writer for ever)', async (_name, read, code, i) => {
    await expect(read(fifos[i])).rejects.toMatchObject({ code, message: expect.stringContaining('is not a regular file (a pipe, socket or device)') });
  }, 5_000);

  it.each(readers)('%s refuses a link to /dev/zero and a directory, naming the file', async (_name, read, code) => {
    await expect(read(path.join(dir, 'zero.json'))).rejects.toMatchObject({ code, message: expect.stringContaining('zero.json: is not a regular file') });
    await expect(read(path.join(dir, 'dir.json'))).rejects.toMatchObject({ code, message: expect.stringContaining('dir.json: is a directory') });
  }, 5_000);
});
