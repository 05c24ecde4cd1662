// Builders for tiny model files in temp dirs: safetensors with any dtype, a WordPiece or Unigram
// tokenizer.json, and a complete model2vec folder. Test-only; nothing here comes from ../shared.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export { bytesOf, encode, safetensorsBytes, toHalf, type RawTensor } from '../../helpers/safetensors.js';
import { encode, safetensorsBytes, type RawTensor } from '../../helpers/safetensors.js';

export const WORDS = ['hello', 'world', 'retry', 'parse'];
/** WordPiece vocab: [PAD]=0, [UNK]=1, then WORDS. */
export const VOCAB_SIZE = 2 + WORDS.length;

export function wordPieceTokenizer(unkToken: string | null = '[UNK]'): object {
  const vocab: Record<string, number> = { '[PAD]': 0, '[UNK]': 1 };
  WORDS.forEach((w, i) => { vocab[w] = i + 2; });
  return {
    version: '1.0', truncation: null, padding: null,
    added_tokens: [
      { id: 0, content: '[PAD]', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true },
      { id: 1, content: '[UNK]', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true },
    ],
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: null,
    decoder: null,
    model: { type: 'WordPiece', unk_token: unkToken, continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab },
  };
}

export function unigramTokenizer(unkId: number | null): object {
  return {
    version: '1.0', added_tokens: [], normalizer: null, pre_tokenizer: { type: 'Metaspace', replacement: '\u2581', prepend_scheme: 'always', split: true },
    model: { type: 'Unigram', unk_id: unkId, vocab: [['<pad>', 0], ['<unk>', 0], ...WORDS.map((w) => [`\u2581${w}`, -1])], byte_fallback: false },
  };
}

/** Row i of the default table is [i, -i, 0.5]. */
export function defaultTable(rows = VOCAB_SIZE): number[] {
  return Array.from({ length: rows }, (_, i) => [i, -i, 0.5]).flat();
}

export interface ModelDirOptions {
  dtype?: string;
  config?: object | string | null;
  modules?: object | null;
  tokenizer?: object | string | null;
  tensors?: Record<string, RawTensor>;
  /** Raw model.safetensors contents (wins over tensors/dtype). */
  modelBytes?: Uint8Array | null;
}

/** Writes a complete (unless told otherwise) model2vec folder and returns its path. */
export async function writeModelDir(dir: string, o: ModelDirOptions = {}): Promise<string> {
  await mkdir(dir, { recursive: true });
  const dtype = o.dtype ?? 'F32';
  const tensors = o.tensors ?? { embeddings: { dtype, shape: [VOCAB_SIZE, 3], data: encode(dtype, defaultTable()) } };
  const json = (v: object | string) => (typeof v === 'string' ? v : JSON.stringify(v));
  const config = o.config === undefined ? { model_type: 'model2vec', normalize: true } : o.config;
  if (config !== null) await writeFile(path.join(dir, 'config.json'), json(config));
  if (o.modules) await writeFile(path.join(dir, 'modules.json'), json(o.modules));
  const tokenizer = o.tokenizer === undefined ? wordPieceTokenizer() : o.tokenizer;
  if (tokenizer !== null) await writeFile(path.join(dir, 'tokenizer.json'), json(tokenizer));
  if (o.modelBytes !== null) await writeFile(path.join(dir, 'model.safetensors'), o.modelBytes ?? safetensorsBytes(tensors));
  return dir;
}

export function tempDir(prefix = 'simgrep-model-'): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix));
}
