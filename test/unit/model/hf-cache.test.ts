// HF cache resolution: the env-var precedence huggingface_hub uses, and loading a model that Python
// (model2vec / semtools) already downloaded: refs/main, commit-hash revisions, symlinked blobs.
import { mkdir, rename, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SimgrepError } from '../../../src/errors.js';
import { hubCacheDir, hubEndpoint, hubOffline } from '../../../src/model/hf-env.js';
import { loadModel } from '../../../src/model/load.js';
import { tempDir, writeModelDir } from './model-files.js';

const REPO = 'minishlab/potion-test';
const COMMIT_A = 'a'.repeat(40);
const COMMIT_B = 'b'.repeat(40);

let root: string;
let hfHome: string;
let n = 0;

beforeAll(async () => { root = await tempDir('simgrep-hfcache-'); });
afterAll(async () => { await rm(root, { recursive: true, force: true }); });
beforeEach(() => {
  hfHome = path.join(root, `home${n++}`);
  vi.stubEnv('HF_HOME', hfHome);
  vi.stubEnv('HF_HUB_CACHE', undefined);
  vi.stubEnv('HUGGINGFACE_HUB_CACHE', undefined);
  // Every test here must be answered from the cache: never let one reach a network.
  vi.stubEnv('HF_HUB_OFFLINE', '1');
});
afterEach(() => { vi.unstubAllEnvs(); });

const repoDir = (): string => path.join(hfHome, 'hub', 'models--minishlab--potion-test');
const snapshot = (commit: string): string => path.join(repoDir(), 'snapshots', commit);

async function writeRef(name: string, commit: string): Promise<void> {
  await mkdir(path.join(repoDir(), 'refs'), { recursive: true });
  await writeFile(path.join(repoDir(), 'refs', name), commit);
}

/** What huggingface_hub writes: content in blobs/, snapshot entries as relative symlinks. */
async function writePythonStyleSnapshot(commit: string): Promise<void> {
  const staging = await writeModelDir(path.join(root, `staging${n++}`));
  await mkdir(path.join(repoDir(), 'blobs'), { recursive: true });
  await mkdir(snapshot(commit), { recursive: true });
  for (const file of ['config.json', 'tokenizer.json', 'model.safetensors']) {
    const blob = path.join(repoDir(), 'blobs', `${commit.slice(0, 8)}-${file}`);
    await rm(blob, { force: true });
    await rename(path.join(staging, file), blob);
    await symlink(path.relative(snapshot(commit), blob), path.join(snapshot(commit), file));
  }
}

describe('huggingface_hub environment', () => {
  it('cache dir: HF_HUB_CACHE, else HF_HOME/hub, else XDG_CACHE_HOME/huggingface/hub, else ~/.cache/huggingface/hub', () => {
    expect([
      hubCacheDir({ HF_HUB_CACHE: '/c/hub', HF_HOME: '/h' }),
      hubCacheDir({ HF_HOME: '/h' }),
      hubCacheDir({ HF_HOME: '~/hf' }),
      hubCacheDir({ XDG_CACHE_HOME: '/x' }),
      hubCacheDir({}),
    ]).toEqual(['/c/hub', '/h/hub', path.join(os.homedir(), 'hf', 'hub'), '/x/huggingface/hub', path.join(os.homedir(), '.cache', 'huggingface', 'hub')]);
  });

  it('HF_HUB_OFFLINE accepts 1/ON/YES/TRUE in any case; HF_ENDPOINT loses its trailing slash', () => {
    expect(['1', 'on', 'Yes', 'TRUE', '0', 'false', ''].map((v) => hubOffline({ HF_HUB_OFFLINE: v })))
      .toEqual([true, true, true, true, false, false, false]);
    expect([hubEndpoint({}), hubEndpoint({ HF_ENDPOINT: 'https://mirror.example/' })])
      .toEqual(['https://huggingface.co', 'https://mirror.example']);
  });
});

describe('loadModel(org/name) from the cache', () => {
  it('follows refs/main to a Python-style snapshot of symlinks into blobs/', async () => {
    await writePythonStyleSnapshot(COMMIT_A);
    await writeRef('main', `${COMMIT_A}\n`);
    const m = await loadModel(REPO);
    expect({ id: m.id, dir: m.dir, tokenizerPath: m.tokenizerPath })
      .toEqual({ id: REPO, dir: snapshot(COMMIT_A), tokenizerPath: path.join(snapshot(COMMIT_A), 'tokenizer.json') });
  });

  it('refs/main wins over a newer snapshot; a revision option picks its own ref or commit', async () => {
    await writeModelDir(snapshot(COMMIT_A));
    await writeModelDir(snapshot(COMMIT_B));
    await writeRef('main', COMMIT_A);
    await writeRef('v2', COMMIT_B);
    expect([
      (await loadModel(REPO)).dir,
      (await loadModel(REPO, { revision: 'v2' })).dir,
      (await loadModel(REPO, { revision: COMMIT_B })).dir,
    ]).toEqual([snapshot(COMMIT_A), snapshot(COMMIT_B), snapshot(COMMIT_B)]);
  });

  it('without refs/main, uses the newest complete snapshot (model2vec Python behaviour)', async () => {
    await writeModelDir(snapshot(COMMIT_A));
    await writeModelDir(snapshot(COMMIT_B));
    await mkdir(path.join(repoDir(), 'snapshots', 'c'.repeat(40)));
    const old = new Date(Date.now() - 60_000);
    await utimes(snapshot(COMMIT_A), old, old);
    expect((await loadModel(REPO)).dir).toBe(snapshot(COMMIT_B));
  });

  it('HF_HUB_CACHE overrides HF_HOME, and the cacheDir option overrides both', async () => {
    const elsewhere = path.join(root, `elsewhere${n++}`);
    await writeModelDir(path.join(elsewhere, 'models--minishlab--potion-test', 'snapshots', COMMIT_A));
    vi.stubEnv('HF_HUB_CACHE', elsewhere);
    expect((await loadModel(REPO)).dir).toBe(path.join(elsewhere, 'models--minishlab--potion-test', 'snapshots', COMMIT_A));
    vi.stubEnv('HF_HUB_CACHE', path.join(root, 'empty'));
    expect((await loadModel(REPO, { cacheDir: elsewhere })).id).toBe(REPO);
  });

  it('an incomplete snapshot does not count as cached (offline -> MODEL_OFFLINE)', async () => {
    await writeModelDir(snapshot(COMMIT_A), { modelBytes: null });
    await writeRef('main', COMMIT_A);
    const err = await loadModel(REPO).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SimgrepError);
    expect((err as SimgrepError).code).toBe('MODEL_OFFLINE');
    expect((err as SimgrepError).message).toContain(`(searched ${repoDir()})`);
  });

  it('a corrupt cached file says which cache folder to delete', async () => {
    await writeModelDir(snapshot(COMMIT_A), { modelBytes: new Uint8Array(3) });
    await writeRef('main', COMMIT_A);
    const err = (await loadModel(REPO).catch((e: unknown) => e)) as SimgrepError;
    expect({ code: err.code, message: err.message }).toEqual({
      code: 'MODEL_CORRUPT',
      message: `${path.join(snapshot(COMMIT_A), 'model.safetensors')}: the file is truncated (3 bytes, no safetensors header). ` +
        `Delete ${repoDir()} and run again to re-download it, or pass --model <dir> with a valid model.`,
    });
  });

  it('rejects a revision that could escape the cache', async () => {
    const err = (await loadModel(REPO, { revision: '../../etc' }).catch((e: unknown) => e)) as SimgrepError;
    expect(err.code).toBe('BAD_FLAG');
  });
});
