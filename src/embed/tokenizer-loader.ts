// Reads tokenizer.json once and builds the fast line tokenizer, plus the vocabulary facts model2vec's
// encode needs (token lengths for its pre-truncation of very long texts).
import { readFile } from 'node:fs/promises';
import { SimgrepError } from '../errors.js';
import { createLineTokenizer, type IdBuffer } from '../model/tokenizer/index.js';

export interface LineTokenizer {
  /** Appends the ids of `text` to `buf` (no allocation per line). */
  encodeInto(text: string, buf: IdBuffer): void;
  /** Lengths (in chars) of every vocabulary token, in no particular order. */
  tokenLengths(): number[];
}

export async function loadLineTokenizer(tokenizerPath: string): Promise<LineTokenizer> {
  let json: { model?: { vocab?: unknown }; added_tokens?: { content: string }[] };
  try {
    json = JSON.parse(await readFile(tokenizerPath, 'utf8'));
  } catch (e) {
    throw new SimgrepError('TOKENIZER_CORRUPT', `cannot read ${tokenizerPath}: ${(e as Error).message}; re-download the model or pass --model <dir> with a valid tokenizer.json`, { cause: e });
  }
  const tokenizer = createLineTokenizer(json);
  return {
    encodeInto: (text, buf) => { tokenizer.encodeInto(text, buf); },
    tokenLengths: () => vocabTokens(json).map((t) => t.length),
  };
}

function vocabTokens(json: { model?: { vocab?: unknown }; added_tokens?: { content: string }[] }): string[] {
  const vocab = json.model?.vocab;
  const tokens = new Set<string>();
  if (Array.isArray(vocab)) for (const entry of vocab) tokens.add(String((entry as unknown[])[0]));
  else if (vocab && typeof vocab === 'object') for (const t of Object.keys(vocab)) tokens.add(t);
  for (const a of json.added_tokens ?? []) tokens.add(a.content);
  return [...tokens];
}
