// Hub downloads against a fake hub on 127.0.0.1: cache layout written like huggingface_hub, the cache
// reused without requests, one download per file under concurrency, offline and HTTP failures typed,
// and no partial file ever left where a reader would find it.
import { simgrepFailure } from '../../helpers/errors.js';
import { mkdir, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadModel, type LoadModelOptions } from '../../../src/model/load.js';
import { formatProgress, type DownloadProgress } from '../../../src/model/progress.js';
import { startFakeHub, type FakeHub } from './fake-hub.js';
import { encode, safetensorsBytes, tempDir, VOCAB_SIZE, defaultTable, wordPieceTokenizer } from './model-files.js';

const COMMIT = 'c0ffee0000000000000000000000000000000001';
const REPO = 'test-org/tiny-model';
const ST_REPO = 'test-org/static-embedding';
const MODEL_BYTES = safetensorsBytes({ embeddings: { dtype: 'F32', shape: [VOCAB_SIZE, 3], data: encode('F32', defaultTable()) } });

let hub: FakeHub;
let root: string;
let cacheDir: string;
let n = 0;

beforeAll(async () => {
  root = await tempDir('simgrep-hub-');
  hub = await startFakeHub({
    [REPO]: {
      commit: COMMIT,
      files: {
        'config.json': JSON.stringify({ model_type: 'model2vec', normalize: true }),
        'tokenizer.json': JSON.stringify(wordPieceTokenizer()),
        'model.safetensors': MODEL_BYTES,
        'README.md': '# tiny',
      },
    },
    [ST_REPO]: {
      commit: COMMIT,
      files: {
        'config_sentence_transformers.json': '{}',
        'modules.json': JSON.stringify([{ type: 'sentence_transformers.models.Normalize' }]),
        '0_StaticEmbedding/tokenizer.json': JSON.stringify(wordPieceTokenizer()),
        '0_StaticEmbedding/model.safetensors': safetensorsBytes({
          'embedding.weight': { dtype: 'F16', shape: [VOCAB_SIZE, 3], data: encode('F16', defaultTable()) },
        }),
      },
    },
  });
});
afterAll(async () => {
  await hub.close();
  await rm(root, { recursive: true, force: true });
});
beforeEach(() => {
  cacheDir = path.join(root, `cache${n++}`);
  hub.requests.length = 0;
  hub.fail.clear();
  hub.truncate.clear();
  hub.stall.clear();
  hub.stallMidway.clear();
  for (const k of ['HF_HUB_OFFLINE', 'HF_TOKEN', 'HUGGING_FACE_HUB_TOKEN', 'HF_ENDPOINT']) vi.stubEnv(k, undefined);
});
afterEach(() => { vi.unstubAllEnvs(); });

const opts = (o: LoadModelOptions = {}): LoadModelOptions => ({ cacheDir, endpoint: hub.endpoint, ...o });
const repoDir = (): string => path.join(cacheDir, 'models--test-org--tiny-model');

const failure = simgrepFailure;

async function until(cond: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Every file under dir, relative, sorted. */
async function tree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name))).sort();
}

describe('hub download', () => {
  it('downloads into the huggingface_hub layout, then reuses the cache without a request', async () => {
    const progress: DownloadProgress[] = [];
    const m = await loadModel(REPO, opts({ onProgress: (p) => progress.push({ ...p }) }));
    const snapshot = path.join(repoDir(), 'snapshots', COMMIT);
    expect({ id: m.id, dir: m.dir, rows: m.rows, normalize: m.normalize }).toEqual({ id: REPO, dir: snapshot, rows: VOCAB_SIZE, normalize: true });
    expect(await tree(repoDir())).toEqual([
      'refs/main',
      `snapshots/${COMMIT}/config.json`,
      `snapshots/${COMMIT}/model.safetensors`,
      `snapshots/${COMMIT}/tokenizer.json`,
    ]);
    expect(await readFile(path.join(repoDir(), 'refs', 'main'), 'utf8')).toBe(COMMIT);
    const last = progress.filter((p) => p.file === 'model.safetensors').at(-1);
    expect(last).toEqual({ file: 'model.safetensors', received: MODEL_BYTES.byteLength, total: MODEL_BYTES.byteLength });

    const before = hub.requests.length;
    const again = await loadModel(REPO, opts());
    expect({ dir: again.dir, requests: hub.requests.length - before }).toEqual({ dir: snapshot, requests: 0 });
    vi.stubEnv('HF_HUB_OFFLINE', '1');
    expect((await loadModel(REPO, opts())).dir).toBe(snapshot);
  });

  it('pins every file after the first to the commit from x-repo-commit (and follows the LFS redirect)', async () => {
    await loadModel(REPO, opts());
    expect(hub.requests.map((r) => `${r.server} ${r.path.replace(hub.endpoint, '')}`)).toEqual(expect.arrayContaining([
      `hub /${REPO}/resolve/main/config.json`,
      `hub /${REPO}/resolve/${COMMIT}/tokenizer.json`,
      `hub /${REPO}/resolve/${COMMIT}/model.safetensors`,
      `cdn /cdn/${encodeURIComponent(REPO)}/model.safetensors?X-Amz-Signature=secret-signature`,
    ]));
  });

  it('concurrent loads of one model download each file once', async () => {
    const models = await Promise.all([1, 2, 3].map(() => loadModel(REPO, opts())));
    expect(new Set(models.map((m) => m.dir)).size).toBe(1);
    expect(['config.json', 'tokenizer.json', 'model.safetensors', 'modules.json'].map((f) => hub.count(f))).toEqual([1, 1, 1, 1]);
    expect(hub.requests.filter((r) => r.server === 'cdn')).toHaveLength(1);
  });

  it('offline and not cached is MODEL_OFFLINE naming the model and the cache path, with no request', async () => {
    const viaOption = await failure(loadModel(REPO, opts({ offline: true })));
    expect(viaOption.code).toBe('MODEL_OFFLINE');
    expect(viaOption.message).toBe(
      `Model "${REPO}" is not in the Hugging Face cache (searched ${repoDir()}) and offline mode is on, so it cannot be downloaded. ` +
        'Run once with network access to download it, set HF_HUB_CACHE to the cache that has it, or pass --model <dir> with a local copy.',
    );
    vi.stubEnv('HF_HUB_OFFLINE', 'true');
    const viaEnv = await failure(loadModel(REPO, opts()));
    expect(viaEnv.code).toBe('MODEL_OFFLINE');
    expect(viaEnv.message).toContain(`(searched ${repoDir()}) and HF_HUB_OFFLINE is set`);
    expect(hub.requests).toHaveLength(0);
  });

  it('a 404 on a required file is MODEL_DOWNLOAD with the status and URL', async () => {
    hub.fail.set('tokenizer.json', { status: 404, errorCode: 'EntryNotFound' });
    expect(await failure(loadModel(REPO, opts()))).toEqual({
      code: 'MODEL_DOWNLOAD',
      message: `Downloading "${REPO}" failed: HTTP 404 Not Found for ${hub.endpoint}/${REPO}/resolve/${COMMIT}/tokenizer.json. ` +
        'Retry later, or pass --model <dir> with a local copy.',
    });
  });

  it('a 500 is MODEL_DOWNLOAD and leaves no ref behind', async () => {
    hub.fail.set('config.json', { status: 500 });
    const err = await failure(loadModel(REPO, opts()));
    expect(err.code).toBe('MODEL_DOWNLOAD');
    expect(err.message).toContain(`HTTP 500 Internal Server Error for ${hub.endpoint}/${REPO}/resolve/main/config.json`);
    expect(await tree(repoDir())).toEqual([]);
  });

  it('an unknown repository is MODEL_NOT_FOUND', async () => {
    const err = await failure(loadModel('test-org/no-such-model', opts()));
    expect(err.code).toBe('MODEL_NOT_FOUND');
    expect(err.message).toMatch(/^Model "test-org\/no-such-model" was not found on the hub \(HTTP 401/);
  });

  it('a download cut off midway leaves no model.safetensors and no temp file; a retry then succeeds', async () => {
    hub.truncate.add('model.safetensors');
    const err = await failure(loadModel(REPO, opts()));
    expect(err.code).toBe('MODEL_DOWNLOAD');
    expect(err.message).not.toContain('secret-signature');
    const files = await tree(repoDir());
    expect(files.filter((f) => f.includes('model.safetensors') || f.includes('.incomplete'))).toEqual([]);
    hub.truncate.clear();
    expect((await loadModel(REPO, opts())).rows).toBe(VOCAB_SIZE);
  });

  it('a stalled download times out as MODEL_DOWNLOAD', async () => {
    hub.stall.add('model.safetensors');
    const err = await failure(loadModel(REPO, opts({ timeoutMs: 200 })));
    expect(err.code).toBe('MODEL_DOWNLOAD');
    expect(err.message).toMatch(/stalled: no data for 200 ms\. Check your network/);
  });

  it('aborting the signal is ABORTED', async () => {
    hub.stall.add('model.safetensors');
    const ctl = new AbortController();
    const p = loadModel(REPO, opts({ signal: ctl.signal }));
    setTimeout(() => ctl.abort(), 100);
    expect((await failure(p)).code).toBe('ABORTED');
  });

  it('aborting mid-download leaves no .incomplete file in the cache', async () => {
    hub.stallMidway.add('model.safetensors');
    const ctl = new AbortController();
    const p = loadModel(REPO, opts({ signal: ctl.signal }));
    await until(async () => (await tree(repoDir())).some((f) => f.endsWith('.incomplete')));
    ctl.abort();
    expect((await failure(p)).code).toBe('ABORTED');
    expect((await tree(repoDir())).filter((f) => f.includes('.incomplete'))).toEqual([]);
  });

  it('.incomplete files a killed download left are swept by the next download; a live one and huggingface_hub\'s own are kept', async () => {
    const snap = path.join(repoDir(), 'snapshots', COMMIT);
    await mkdir(path.join(snap, '0_StaticEmbedding'), { recursive: true });
    await mkdir(path.join(repoDir(), 'blobs'), { recursive: true });
    const stale = ['.model.safetensors.4242.k3j2h1.incomplete', '0_StaticEmbedding/.tokenizer.json.17.abc.incomplete'];
    const live = '.model.safetensors.4343.zz9.incomplete';
    const theirs = path.join('blobs', 'a1b2c3.incomplete');
    const hoursAgo = new Date(Date.now() - 2 * 3_600_000);
    for (const f of stale) {
      await writeFile(path.join(snap, f), 'partial');
      await utimes(path.join(snap, f), hoursAgo, hoursAgo);
    }
    await writeFile(path.join(snap, live), 'partial');
    await writeFile(path.join(repoDir(), theirs), 'partial');
    await utimes(path.join(repoDir(), theirs), hoursAgo, hoursAgo);
    expect((await loadModel(REPO, opts())).rows).toBe(VOCAB_SIZE);
    expect((await tree(repoDir())).filter((f) => f.includes('.incomplete'))).toEqual([theirs, path.join('snapshots', COMMIT, live)]);
  });

  it('HF_TOKEN goes to the hub as a Bearer header, never to the CDN origin, never into messages', async () => {
    vi.stubEnv('HF_TOKEN', 'hf_secret_token');
    await loadModel(REPO, opts());
    const auth = hub.requests.map((r) => `${r.server}:${r.authorization ?? '-'}`);
    expect(new Set(auth)).toEqual(new Set(['hub:Bearer hf_secret_token', 'cdn:-']));
    hub.fail.set('config.json', { status: 403 });
    const err = await failure(loadModel(REPO, opts({ cacheDir: path.join(root, 'other') })));
    expect(err.message).toContain('the token in HF_TOKEN was refused');
    expect(err.message).not.toContain('hf_secret_token');
  });

  it('downloads the nested sentence-transformers layout (0_StaticEmbedding/)', async () => {
    const m = await loadModel(ST_REPO, opts());
    const snap = path.join(cacheDir, 'models--test-org--static-embedding', 'snapshots', COMMIT);
    expect({ dir: m.dir, normalize: m.normalize, table: Array.from(m.table.subarray(3, 6)) })
      .toEqual({ dir: snap, normalize: true, table: [1, -1, 0.5] });
    expect(await tree(snap)).toEqual([
      '0_StaticEmbedding/model.safetensors',
      '0_StaticEmbedding/tokenizer.json',
      'config_sentence_transformers.json',
      'modules.json',
    ]);
  });

  it('formatProgress renders bytes, total and percent', () => {
    expect([
      formatProgress({ file: 'model.safetensors', received: 512, total: 2048 }),
      formatProgress({ file: 'model.safetensors', received: 12 * 1024 * 1024, total: 30.5 * 1024 * 1024 }),
      formatProgress({ file: 'tokenizer.json', received: 3 * 1024, total: null }),
    ]).toEqual([
      'model.safetensors  512 B / 2.0 KB  25%',
      'model.safetensors  12.0 MB / 30.5 MB  39%',
      'tokenizer.json  3.0 KB',
    ]);
  });

  it('HF_ENDPOINT is used when no endpoint option is given', async () => {
    vi.stubEnv('HF_ENDPOINT', `${hub.endpoint}/`);
    expect((await loadModel(REPO, { cacheDir })).rows).toBe(VOCAB_SIZE);
  });
});
