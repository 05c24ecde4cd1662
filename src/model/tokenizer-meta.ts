// What loading needs from tokenizer.json without building a tokenizer: the unknown-token id (dropped
// before pooling, as model2vec does) and the vocabulary size (to check the table covers every id).
import { SimgrepError } from '../errors.js';

export interface TokenizerMeta {
  /** tokenizer.json model.type: WordPiece, Unigram, BPE, WordLevel. */
  modelType: string;
  unkId: number | null;
  /** 1 + the largest token id in the vocab and added tokens. */
  vocabSize: number;
}

export function corruptTokenizer(file: string, problem: string, hint: string, cause?: unknown): SimgrepError {
  return new SimgrepError('TOKENIZER_CORRUPT', `${file}: ${problem}. ${hint}`, { cause });
}

export interface TokenizerJson {
  model?: { type?: unknown; vocab?: unknown; unk_token?: unknown; unk_id?: unknown };
  added_tokens?: unknown;
}

/** The meta of a parsed tokenizer.json; `file` and `hint` only word the errors. */
export function tokenizerMetaOf(json: TokenizerJson, file: string, hint: string): TokenizerMeta {
  const model = json?.model;
  if (typeof model !== 'object' || model === null) throw corruptTokenizer(file, 'tokenizer.json has no "model" section', hint);
  const modelType = typeof model.type === 'string' ? model.type : 'unknown';

  // Only two facts are needed, so no token -> id map is built (that took ~25 ms for a 30k vocab).
  const vocab = model.vocab;
  let maxId = -1;
  /** Id of `token` in the model vocab (object for WordPiece/BPE/WordLevel, [token, score] list for Unigram). */
  let vocabId: (token: string) => number | undefined;
  if (Array.isArray(vocab)) {
    maxId = vocab.length - 1;
    vocabId = (token) => {
      const at = vocab.findIndex((entry) => (Array.isArray(entry) ? String(entry[0]) : String(entry)) === token);
      return at >= 0 ? at : undefined;
    };
  } else if (typeof vocab === 'object' && vocab !== null) {
    const table = vocab as Record<string, unknown>;
    for (const id of Object.values(table)) if (typeof id === 'number' && id > maxId) maxId = id;
    vocabId = (token) => (Object.hasOwn(table, token) && typeof table[token] === 'number' ? (table[token] as number) : undefined);
  } else {
    throw corruptTokenizer(file, `tokenizer.json model "${modelType}" has no vocab`, hint);
  }
  const added = Array.isArray(json.added_tokens) ? (json.added_tokens as Array<{ id?: unknown; content?: unknown }>) : [];
  for (const t of added) if (typeof t?.id === 'number' && t.id > maxId) maxId = t.id;
  if (maxId < 0) throw corruptTokenizer(file, 'tokenizer.json has an empty vocabulary', hint);

  let unkId: number | null = null;
  if (typeof model.unk_token === 'string') {
    const unk = model.unk_token;
    unkId = vocabId(unk) ?? (added.find((t) => typeof t?.id === 'number' && t.content === unk)?.id as number | undefined) ?? null;
  } else if (typeof model.unk_id === 'number' && model.unk_id >= 0 && model.unk_id <= maxId) unkId = model.unk_id;
  return { modelType, unkId, vocabSize: maxId + 1 };
}
