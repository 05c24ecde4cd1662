// Ctrl-C in the middle of a model download (issue 14): the CLI removes the download's temp file from
// the Hugging Face cache and still dies of SIGINT, as it did before (the .incomplete file stayed forever).
import { spawn } from 'node:child_process';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath } from '../helpers/cli.js';
import { startFakeHub, type FakeHub } from '../unit/model/fake-hub.js';
import { encode, safetensorsBytes, tempDir, VOCAB_SIZE, defaultTable, wordPieceTokenizer } from '../unit/model/model-files.js';

const REPO = 'test-org/tiny-model';

let hub: FakeHub;
let dir: string;

beforeAll(async () => {
  dir = await tempDir('simgrep-interrupt-');
  hub = await startFakeHub({
    [REPO]: {
      commit: 'c0ffee0000000000000000000000000000000002',
      files: {
        'config.json': JSON.stringify({ model_type: 'model2vec', normalize: true }),
        'tokenizer.json': JSON.stringify(wordPieceTokenizer()),
        'model.safetensors': safetensorsBytes({ embeddings: { dtype: 'F32', shape: [VOCAB_SIZE, 3], data: encode('F32', defaultTable()) } }),
      },
    },
  });
  hub.stallMidway.add('model.safetensors');
  await mkdir(path.join(dir, 'tree'));
  await writeFile(path.join(dir, 'tree', 'a.txt'), 'hello world\n');
});
afterAll(async () => {
  await hub.close();
  await rm(dir, { recursive: true, force: true });
});

async function incompleteFiles(cache: string): Promise<string[]> {
  const entries = await readdir(cache, { recursive: true }).catch(() => [] as string[]);
  return entries.filter((f) => f.endsWith('.incomplete'));
}

describe('Ctrl-C during a model download', () => {
  it('leaves no .incomplete file in the Hugging Face cache, and the process still ends by SIGINT', async () => {
    const cache = path.join(dir, 'hf-cache');
    const child = spawn(process.execPath, [cliPath, '--model', REPO, 'hello', path.join(dir, 'tree')], {
      env: { ...process.env, HF_HUB_OFFLINE: '', HF_ENDPOINT: hub.endpoint, HF_HUB_CACHE: cache },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
    const deadline = Date.now() + 20_000;
    while ((await incompleteFiles(cache)).length === 0) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no download in progress; stderr: ${stderr}`);
      await new Promise((r) => setTimeout(r, 25));
    }
    child.kill('SIGINT');
    expect(await exited).toEqual({ code: null, signal: 'SIGINT' });
    expect(await incompleteFiles(cache)).toEqual([]);
  });
});
