// A model directory's oversized file (trust47): --model DIR (or SIMGREP_MODEL, or a workflow's
// settings.rag.embedding_model) may name a cloned repository's directory. A tokenizer.json of 1.9 GB (a sparse
// file, made in a moment) was read whole: 16 s and 2 GB of memory before "not valid JSON". Now a model's file is
// read only when it is a regular file of a size such a file can have (model/model-file.ts), else refused at once.
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cliPath, timedRun } from '../helpers/cli.js';
import { listenLocal } from '../helpers/http-server.js';
import { writeTinyModel } from '../helpers/tiny-model.js';

let tmp = '';
beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'simgrep-model-planted-'));
  mkdirSync(path.join(tmp, 'tree'));
  writeFileSync(path.join(tmp, 'tree', 'a.txt'), 'we retry the failed upload\n');
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

it('a sparse tokenizer.json of 1.9 GB is refused at once, naming it and its bound (it was read whole: 16 s, 2 GB)', async () => {
  const model = await writeTinyModel(path.join(tmp, 'model'));
  truncateSync(path.join(model, 'tokenizer.json'), 1900 << 20);
  const r = await timedRun(process.execPath, [cliPath, 'retry upload', path.join(tmp, 'tree'), '--model', model], {
    cwd: tmp, env: { SIMGREP_HOME: path.join(tmp, 'home'), SIMGREP_CACHE_DIR: path.join(tmp, 'cache') }, killMs: 40_000,
  });
  expect(r.stderr).toMatch(/tokenizer\.json: is 1992294400 bytes, more than a tokenizer\.json can be \(at most 268435456\)/);
  expect(r.code).toBe(2);
  expect(r.ms).toBeLessThan(5_000);
}, 60_000);

it('a model that does not exist, on a search of a URL (the worker pool\'s path): the message, exit 2 (the process died of an unhandled rejection)', async () => {
  // The pool's module was imported before the model's promise had a handler; the model failed first (a stat).
  const { server, origin } = await listenLocal((_req, res) => { res.writeHead(200, { 'content-type': 'text/plain' }).end('we retry the failed upload\n'); });
  try {
    const missing = path.join(tmp, 'no-such-model');
    const r = await timedRun(process.execPath, [cliPath, 'retry upload', `${origin}/a.txt`, '--model', missing], {
      cwd: tmp, env: { SIMGREP_HOME: path.join(tmp, 'home'), SIMGREP_CACHE_DIR: path.join(tmp, 'cache') }, killMs: 40_000,
    });
    expect(r.stderr).toBe(`simgrep: Model directory ${missing} does not exist. Pass --model with a directory holding config.json, tokenizer.json and model.safetensors, or a Hugging Face id like minishlab/potion-base-8M.\n`);
    expect(r.code).toBe(2);
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}, 60_000);
