// What loading needs from tokenizer.json without building a tokenizer: the unknown-token id (dropped
// before pooling, as model2vec does) and the vocabulary size (to check the table covers every id).
import { readFile } from 'node:fs/promises';
import { SimgrepError } from '../errors.js';

export interface TokenizerMeta {
  /** tokenizer.json model.type: WordPiece, Unigram, BPE, WordLevel. */
  modelType: string;
  unkId: number | null;
  /** 1 + the largest token id in the vocab and added tokens. */
  vocabSize: number;
}

function corruptTokenizer(file: string, problem: string, hint: string, cause?: unknown): SimgrepError {
  return new SimgrepError('TOKENIZER_CORRUPT', `${file}: ${problem}. ${hint}`, { cause });
}

interface TokenizerJson {
  model?: { type?: unknown; vocab?: unknown; unk_token?: unknown; unk_id?: unknown };
  added_tokens?: unknown;
}

export async function readTokenizerMeta(file: string, hint: string): Promise<TokenizerMeta> {
  let json: TokenizerJson;
  try {
    json = JSON.parse(await readFile(file, 'utf8')) as TokenizerJson;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const problem = code ? `cannot read tokenizer.json (${code})` : 'tokenizer.json is not valid JSON';
    throw corruptTokenizer(file, problem, hint, e);
  }
  const model = json?.model;
  if (typeof model !== 'object' || model === null) throw corruptTokenizer(file, 'tokenizer.json has no "model" section', hint);
  const modelType = typeof model.type === 'string' ? model.type : 'unknown';

  // token -> id, from the model vocab (object for WordPiece/BPE/WordLevel, [token, score] list for Unigram)
  const ids = new Map<string, number>();
  if (Array.isArray(model.vocab)) {
    model.vocab.forEach((entry, id) => ids.set(Array.isArray(entry) ? String(entry[0]) : String(entry), id));
  } else if (typeof model.vocab === 'object' && model.vocab !== null) {
    for (const [token, id] of Object.entries(model.vocab as Record<string, unknown>)) {
      if (typeof id === 'number') ids.set(token, id);
    }
  } else {
    throw corruptTokenizer(file, `tokenizer.json model "${modelType}" has no vocab`, hint);
  }
  let maxId = -1;
  for (const id of ids.values()) if (id > maxId) maxId = id;
  if (Array.isArray(json.added_tokens)) {
    for (const t of json.added_tokens as Array<{ id?: unknown; content?: unknown }>) {
      if (typeof t?.id !== 'number') continue;
      if (t.id > maxId) maxId = t.id;
      if (typeof t.content === 'string' && !ids.has(t.content)) ids.set(t.content, t.id);
    }
  }
  if (maxId < 0) throw corruptTokenizer(file, 'tokenizer.json has an empty vocabulary', hint);

  let unkId: number | null = null;
  if (typeof model.unk_token === 'string') unkId = ids.get(model.unk_token) ?? null;
  else if (typeof model.unk_id === 'number' && model.unk_id >= 0 && model.unk_id <= maxId) unkId = model.unk_id;
  return { modelType, unkId, vocabSize: maxId + 1 };
}
