// loadModel on local directories: layouts, config/normalize rules, unknown-token ids, and the error
// code + message for each way a model folder can be wrong.
import { simgrepFailure } from '../../helpers/errors.js';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel } from '../../../src/model/load.js';
import {
  encode, safetensorsBytes, tempDir, unigramTokenizer, VOCAB_SIZE, wordPieceTokenizer, writeModelDir,
} from './model-files.js';

let root: string;
let n = 0;
beforeAll(async () => { root = await tempDir('simgrep-load-'); });
afterAll(async () => { await rm(root, { recursive: true, force: true }); });
const fresh = (): string => path.join(root, `m${n++}`);

const failure = simgrepFailure;

describe('loadModel(local dir)', () => {
  it('returns ModelData for a model2vec folder', async () => {
    const dir = await writeModelDir(fresh());
    const m = await loadModel(dir);
    // The compiled tokenizer comes along in shared memory (its own tests: tokenizer-file.test.ts).
    expect(m.tokenizer?.compiled.buffer).toBeInstanceOf(SharedArrayBuffer);
    // The model file's identity comes along too (what caches of values computed from its table are keyed by).
    const st = statSync(path.join(dir, 'model.safetensors'));
    expect(m.file).toEqual({ path: path.join(dir, 'model.safetensors'), size: st.size, mtimeMs: st.mtimeMs, ino: st.ino, dev: st.dev });
    expect({ ...m, table: Array.from(m.table.subarray(0, 6)), tokenizer: undefined, file: undefined }).toEqual({
      id: dir, dir, tokenizerPath: path.join(dir, 'tokenizer.json'),
      table: [0, -0, 0.5, 1, -1, 0.5], rows: VOCAB_SIZE, dim: 3, normalize: true, maxLength: 512, unkId: 1, tokenizer: undefined, file: undefined,
    });
  });

  it('reads the nested sentence-transformers layout (0_StaticEmbedding/)', async () => {
    const dir = fresh();
    await mkdir(path.join(dir, '0_StaticEmbedding'), { recursive: true });
    await writeFile(path.join(dir, 'config_sentence_transformers.json'), '{}');
    await writeFile(path.join(dir, 'modules.json'), JSON.stringify([{ type: 'sentence_transformers.models.Normalize' }]));
    await writeFile(path.join(dir, '0_StaticEmbedding', 'tokenizer.json'), JSON.stringify(wordPieceTokenizer()));
    const rows = Array.from({ length: VOCAB_SIZE * 2 }, (_, i) => i);
    await writeFile(path.join(dir, '0_StaticEmbedding', 'model.safetensors'),
      safetensorsBytes({ 'embedding.weight': { dtype: 'F32', shape: [VOCAB_SIZE, 2], data: encode('F32', rows) } }));
    const m = await loadModel(dir);
    expect({ dim: m.dim, normalize: m.normalize, tokenizerPath: m.tokenizerPath })
      .toEqual({ dim: 2, normalize: true, tokenizerPath: path.join(dir, '0_StaticEmbedding', 'tokenizer.json') });
  });

  it.each([
    ['config normalize: false', { normalize: false }, null, false],
    ['no normalize key, no modules.json -> false (Python config.get("normalize", False))', {}, null, false],
    ['no normalize key, modules.json lists Normalize -> true', {}, [{ type: 'sentence_transformers.models.Normalize' }], true],
    ['config normalize wins over modules.json', { normalize: false }, [{ type: 'sentence_transformers.models.Normalize' }], false],
  ])('%s', async (_, config, modules, expected) => {
    const m = await loadModel(await writeModelDir(fresh(), { config, modules }));
    expect(m.normalize).toBe(expected);
  });

  it.each([
    ['WordPiece unk_token -> its id', wordPieceTokenizer('[UNK]'), 1],
    ['WordPiece without unk_token -> null', wordPieceTokenizer(null), null],
    ['Unigram unk_id', unigramTokenizer(1), 1],
    ['Unigram without unk_id -> null', unigramTokenizer(null), null],
  ])('unkId: %s', async (_, tokenizer, expected) => {
    expect((await loadModel(await writeModelDir(fresh(), { tokenizer }))).unkId).toBe(expected);
  });

  it('a missing tokenizer is reported before a damaged table, though both are read at once', async () => {
    const dir = await writeModelDir(fresh(), { tokenizer: null, modelBytes: Buffer.from('not a safetensors file') });
    expect((await failure(loadModel(dir))).code).toBe('TOKENIZER_CORRUPT');
  });

  it('a table smaller than the vocabulary is MODEL_CORRUPT (ids would index past it)', async () => {
    const dir = await writeModelDir(fresh(), {
      tensors: { embeddings: { dtype: 'F32', shape: [VOCAB_SIZE - 1, 1], data: encode('F32', Array(VOCAB_SIZE - 1).fill(1)) } },
    });
    expect(await failure(loadModel(dir))).toEqual({
      code: 'MODEL_CORRUPT',
      message: `${path.join(dir, 'model.safetensors')}: ${VOCAB_SIZE - 1} table rows but ${path.join(dir, 'tokenizer.json')} has ` +
        `${VOCAB_SIZE} tokens (the files do not belong together). Replace it with a valid copy, or pass --model with a valid model2vec model directory.`,
    });
  });
});

describe('loadModel(local dir) errors', () => {
  it('a path-like spec that does not exist is MODEL_NOT_FOUND', async () => {
    const missing = path.join(root, 'does-not-exist');
    expect(await failure(loadModel(missing))).toEqual({
      code: 'MODEL_NOT_FOUND',
      message: `Model directory ${missing} does not exist. Pass --model with a directory holding config.json, tokenizer.json and ` +
        'model.safetensors, or a Hugging Face id like minishlab/potion-base-8M.',
    });
    expect((await failure(loadModel('./no/such/dir'))).code).toBe('MODEL_NOT_FOUND');
  });

  it('neither a directory nor an org/name id is MODEL_NOT_FOUND', async () => {
    expect(await failure(loadModel('not a model'))).toEqual({
      code: 'MODEL_NOT_FOUND',
      message: '"not a model" is neither a directory nor a Hugging Face model id (org/name, e.g. minishlab/potion-base-8M).',
    });
  });

  it('a file instead of a directory is MODEL_NOT_FOUND', async () => {
    const dir = await writeModelDir(fresh());
    const file = path.join(dir, 'model.safetensors');
    expect((await failure(loadModel(file))).message).toBe(`${file} is a file; pass the model directory that contains it to --model.`);
  });

  it('an empty directory is MODEL_NOT_FOUND', async () => {
    const dir = fresh();
    await mkdir(dir);
    expect((await failure(loadModel(dir))).code).toBe('MODEL_NOT_FOUND');
  });

  it('missing tokenizer.json is TOKENIZER_CORRUPT naming the file', async () => {
    const dir = await writeModelDir(fresh(), { tokenizer: null });
    expect(await failure(loadModel(dir))).toEqual({
      code: 'TOKENIZER_CORRUPT',
      message: `${path.join(dir, 'tokenizer.json')} is missing. Copy the complete model (config.json, tokenizer.json, ` +
        'model.safetensors) into it, or pass --model with a complete model directory.',
    });
  });

  it('missing config.json is MODEL_CORRUPT naming what is missing', async () => {
    const dir = await writeModelDir(fresh(), { config: null });
    expect((await failure(loadModel(dir))).message).toMatch(/is an incomplete model: missing config\.json\./);
  });

  it.each([
    ['tokenizer.json is not JSON', { tokenizer: '{"model": ' }, 'TOKENIZER_CORRUPT', 'tokenizer.json is not valid JSON'],
    ['tokenizer.json without a model', { tokenizer: '{}' }, 'TOKENIZER_CORRUPT', 'tokenizer.json has no "model" section'],
    ['config.json is not JSON', { config: 'nope' }, 'MODEL_CORRUPT', 'the file is not valid JSON'],
    ['config normalize is not a boolean', { config: { normalize: 'yes' } }, 'MODEL_CORRUPT', '"normalize" must be true or false, not "yes"'],
    ['model.safetensors is empty', { modelBytes: new Uint8Array(0) }, 'MODEL_CORRUPT', 'the file is truncated (0 bytes, no safetensors header)'],
  ])('%s', async (_, o, code, problem) => {
    const err = await failure(loadModel(await writeModelDir(fresh(), o)));
    expect(err.code).toBe(code);
    expect(err.message).toContain(problem);
    expect(err.message).toContain('pass --model');
  });
});
