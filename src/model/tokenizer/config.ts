// Reads a parsed tokenizer.json into the few typed facts the native tokenizers need, and decides
// which implementation can reproduce @huggingface/tokenizers exactly for it.
import { SimgrepError } from '../../errors.js';

export interface AddedTokenSpec {
  content: string;
  id: number;
  lstrip: boolean;
  rstrip: boolean;
  /** Matched after normalization (the library's `normalized ?? !special`). */
  normalized: boolean;
}

/** BertNormalizer flags, read with the library's truthiness rules (see bert-text.ts). */
export interface BertNormalizerSpec {
  cleanText: boolean;
  handleChineseChars: boolean;
  lowercase: boolean;
  stripAccents: boolean;
}

export interface MetaspaceSpec {
  replacement: string;
  /** What spaces become (the library's `str_rep || replacement`). */
  strRep: string;
  prependScheme: string;
}

export interface UnigramSpec {
  kind: 'unigram';
  /** [piece, score] in id order, as in tokenizer.json. */
  pieces: [string, number][];
  unkId: number;
  /** Null: each section goes to the model whole (no pre-tokenizer). */
  metaspace: MetaspaceSpec | null;
  normalizer: unknown;
  added: AddedTokenSpec[];
  vocabSize: number;
}

export interface WordPieceSpec {
  kind: 'wordpiece';
  vocab: Map<string, number>;
  unkId: number;
  prefix: string;
  maxInputCharsPerWord: number;
  normalizer: BertNormalizerSpec;
  added: AddedTokenSpec[];
  vocabSize: number;
}

type Json = Record<string, unknown>;

export function corrupt(message: string, cause?: unknown): SimgrepError {
  return new SimgrepError(
    'TOKENIZER_CORRUPT',
    `${message}. Re-download the model (its tokenizer.json) or pick a model with a supported tokenizer.`,
    cause === undefined ? undefined : { cause },
  );
}

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Checks the outer shape every implementation relies on; returns the root object. */
export function readRoot(json: unknown): Json {
  if (!isObject(json)) throw corrupt('tokenizer.json is not a JSON object');
  if (!isObject(json.model)) throw corrupt('tokenizer.json has no "model" object');
  if (json.added_tokens !== undefined && json.added_tokens !== null && !Array.isArray(json.added_tokens)) {
    throw corrupt('tokenizer.json "added_tokens" is not an array');
  }
  return json;
}

export function readAddedTokens(root: Json): AddedTokenSpec[] {
  const list = (root.added_tokens ?? []) as unknown[];
  return list.map((t, i) => {
    if (!isObject(t) || typeof t.content !== 'string' || !Number.isInteger(t.id)) {
      throw corrupt(`tokenizer.json added_tokens[${i}] needs a string "content" and an integer "id"`);
    }
    const special = t.special === true;
    return {
      content: t.content,
      id: t.id as number,
      lstrip: t.lstrip === true,
      rstrip: t.rstrip === true,
      normalized: typeof t.normalized === 'boolean' ? t.normalized : !special,
    };
  });
}

/** A one-element Sequence behaves exactly like its element in the library; unwrap it. */
function unwrapSequence(node: unknown, listKey: string): unknown {
  if (isObject(node) && node.type === 'Sequence' && Array.isArray(node[listKey]) && node[listKey].length === 1) {
    return unwrapSequence((node[listKey] as unknown[])[0], listKey);
  }
  return node;
}

/** The BertNormalizer flags when `node` is one (or absent: identity = all flags off), else null. */
export function readBertNormalizer(node: unknown): BertNormalizerSpec | null {
  const n = unwrapSequence(node, 'normalizers');
  if (n === null || n === undefined) {
    return { cleanText: false, handleChineseChars: false, lowercase: false, stripAccents: false };
  }
  if (!isObject(n) || n.type !== 'BertNormalizer') return null;
  const lowercase = Boolean(n.lowercase);
  // Library rule: with lowercase, accents go unless strip_accents === false; without, only if truthy.
  const stripAccents = lowercase ? n.strip_accents !== false : Boolean(n.strip_accents);
  return { cleanText: Boolean(n.clean_text), handleChineseChars: Boolean(n.handle_chinese_chars), lowercase, stripAccents };
}

export function unwrapPreTokenizer(node: unknown): unknown {
  return unwrapSequence(node, 'pretokenizers');
}

function isBertPreTokenizer(node: unknown): boolean {
  const p = unwrapSequence(node, 'pretokenizers');
  return isObject(p) && p.type === 'BertPreTokenizer';
}

/** The WordPiece spec when the native BERT path reproduces the library exactly, else null. */
export function readWordPiece(root: Json): WordPieceSpec | null {
  const model = root.model as Json;
  if (model.type !== 'WordPiece' || !postProcessorIsIdentity(root.post_processor)) return null;
  if (!isObject(model.vocab)) throw corrupt('tokenizer.json WordPiece model has no "vocab" object');
  const normalizer = readBertNormalizer(root.normalizer);
  if (!normalizer || !isBertPreTokenizer(root.pre_tokenizer)) return null;
  if (typeof model.continuing_subword_prefix !== 'string' || typeof model.unk_token !== 'string') return null;
  const added = readAddedTokens(root);
  // Tokens matched after normalization need the library's second splitter: leave them to it.
  if (added.some((t) => t.normalized) && root.normalizer !== null && root.normalizer !== undefined) return null;

  const vocab = new Map<string, number>();
  let vocabSize = 0;
  for (const [token, id] of Object.entries(model.vocab)) {
    if (!Number.isInteger(id) || (id as number) < 0) {
      throw corrupt(`tokenizer.json WordPiece vocab entry ${JSON.stringify(token)} has a non-integer id`);
    }
    vocab.set(token, id as number);
    vocabSize = Math.max(vocabSize, (id as number) + 1);
  }
  // The library registers added tokens in the model vocab too (they can match as word pieces).
  for (const t of added) {
    vocab.set(t.content, t.id);
    vocabSize = Math.max(vocabSize, t.id + 1);
  }
  const unkId = vocab.get(model.unk_token);
  if (unkId === undefined) return null;
  const maxChars = model.max_input_chars_per_word;
  return {
    kind: 'wordpiece',
    vocab,
    unkId,
    prefix: model.continuing_subword_prefix,
    maxInputCharsPerWord: typeof maxChars === 'number' ? maxChars : 100,
    normalizer,
    added,
    vocabSize,
  };
}

/** The Unigram spec when the native Unigram path reproduces the library exactly, else null. */
export function readUnigram(root: Json): UnigramSpec | null {
  const model = root.model as Json;
  if (model.type !== 'Unigram' || !postProcessorIsIdentity(root.post_processor)) return null;
  if (!Array.isArray(model.vocab)) throw corrupt('tokenizer.json Unigram model has no "vocab" list');
  const pieces = model.vocab as unknown[];
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i];
    if (!Array.isArray(p) || typeof p[0] !== 'string' || typeof p[1] !== 'number') {
      throw corrupt(`tokenizer.json Unigram vocab[${i}] is not a [piece, score] pair`);
    }
  }
  if (pieces.length === 0) throw corrupt('tokenizer.json Unigram vocab is empty');
  const unkId = model.unk_id;
  if (!Number.isInteger(unkId) || (unkId as number) < 0 || (unkId as number) >= pieces.length) return null;
  const pre = unwrapPreTokenizer(root.pre_tokenizer);
  let metaspace: MetaspaceSpec | null = null;
  if (pre !== null && pre !== undefined) {
    if (!isObject(pre) || pre.type !== 'Metaspace') return null;
    const replacement = typeof pre.replacement === 'string' ? pre.replacement : '\u2581';
    const strRep = typeof pre.str_rep === 'string' && pre.str_rep !== '' ? pre.str_rep : replacement;
    const prependScheme = typeof pre.prepend_scheme === 'string' ? pre.prepend_scheme : 'always';
    metaspace = { replacement, strRep, prependScheme };
  }
  const added = readAddedTokens(root);
  if (added.some((t) => t.normalized) && root.normalizer !== null && root.normalizer !== undefined) return null;
  let vocabSize = pieces.length;
  for (const t of added) vocabSize = Math.max(vocabSize, t.id + 1);
  return {
    kind: 'unigram',
    pieces: pieces as [string, number][],
    unkId: unkId as number,
    metaspace,
    normalizer: root.normalizer,
    added,
    vocabSize,
  };
}

/** True when the post-processor returns a single sequence's tokens unchanged without special tokens. */
export function postProcessorIsIdentity(node: unknown): boolean {
  if (node === null || node === undefined) return true;
  if (!isObject(node)) return false;
  switch (node.type) {
    case 'ByteLevel': case 'BertProcessing': case 'RobertaProcessing': return true;
    case 'Sequence': return Array.isArray(node.processors) && node.processors.every(postProcessorIsIdentity);
    case 'TemplateProcessing': {
      if (!Array.isArray(node.single)) return false;
      const seqs = node.single.filter((item) => !(isObject(item) && 'SpecialToken' in item));
      return seqs.length === 1 && isObject(seqs[0]) && isObject(seqs[0].Sequence) && seqs[0].Sequence.id === 'A';
    }
    default: return false;
  }
}
