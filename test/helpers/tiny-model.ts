// Writes a tiny model2vec model (BERT WordPiece tokenizer, F32 table) whose 4 dimensions are topics,
// so tests can predict which line a query finds. Nothing here comes from ../shared.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { bytesOf, safetensorsBytes } from './safetensors.js';

/** Topic axes: 0 network/retry, 1 parsing/config, 2 database, 3 user interface. */
export const TOPIC_WORDS: Record<string, [number, number, number, number]> = {
  retry: [1, 0, 0, 0], upload: [0.9, 0, 0.1, 0], failed: [0.8, 0.1, 0.1, 0], network: [1, 0, 0, 0.1], timeout: [0.9, 0, 0.1, 0],
  parse: [0, 1, 0, 0], json: [0, 0.9, 0.1, 0], config: [0.1, 0.9, 0, 0], file: [0, 0.7, 0.3, 0], yaml: [0, 1, 0, 0],
  database: [0, 0, 1, 0], query: [0, 0.1, 0.9, 0], table: [0, 0, 0.9, 0.1], index: [0, 0.1, 0.8, 0.1], sql: [0, 0, 1, 0],
  button: [0, 0, 0, 1], click: [0.1, 0, 0, 0.9], render: [0, 0.1, 0, 0.9], color: [0, 0, 0, 1], page: [0, 0.1, 0.1, 0.8],
  the: [0.25, 0.25, 0.25, 0.25], a: [0.25, 0.25, 0.25, 0.25], we: [0.25, 0.25, 0.25, 0.25], when: [0.25, 0.25, 0.25, 0.25],
};

const SPECIAL = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
const PUNCT = ['(', ')', '{', '}', ';', '.', ',', '=', '_', '-', '/', '#', ':', '"', "'"];

export async function writeTinyModel(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const tokens = [...SPECIAL, ...PUNCT, ...Object.keys(TOPIC_WORDS)];
  const vocab: Record<string, number> = {};
  tokens.forEach((t, i) => { vocab[t] = i; });
  const dim = 4;
  const table = new Float32Array(tokens.length * dim);
  tokens.forEach((t, i) => {
    const v = TOPIC_WORDS[t] ?? [0, 0, 0, 0];
    table.set(v, i * dim);
  });
  const tokenizer = {
    version: '1.0', truncation: null, padding: null,
    added_tokens: SPECIAL.map((content, id) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: null,
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab },
  };
  const config = { model_type: 'model2vec', architectures: ['StaticModel'], hidden_dim: dim, normalize: true, seq_length: 1000000 };
  await writeFile(path.join(dir, 'tokenizer.json'), JSON.stringify(tokenizer));
  await writeFile(path.join(dir, 'config.json'), JSON.stringify(config));
  await writeFile(path.join(dir, 'model.safetensors'), safetensorsBytes({ embeddings: { dtype: 'F32', shape: [tokens.length, dim], data: bytesOf(table) } }));
  return dir;
}
