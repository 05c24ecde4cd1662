// Fallback for tokenizers with no native path: @huggingface/tokenizers itself behind a memo, per
// whitespace-separated chunk when that provably gives the same ids (see chunkSafe), else per line.
import type { Tokenizer } from '@huggingface/tokenizers';
import { hfTokenizers } from './hf-library.js';
import { corrupt, isObject, postProcessorIsIdentity, readAddedTokens, unwrapPreTokenizer } from './config.js';
import { pushIds, type IdBuffer } from './id-buffer.js';
import { lineTokenizerFrom, type LineTokenizer } from './line-tokenizer.js';
import { createLineMemo, type MemoSizes } from './line-memo.js';

type Json = Record<string, unknown>;

/** Normalizers that act char by char (or, like toLowerCase, only look past a space at nothing). */
const CHUNK_SAFE_NORMALIZERS = new Set(['BertNormalizer', 'Lowercase', 'NFC', 'NFD', 'NFKC', 'NFKD', 'StripAccents']);
/** Pre-tokenizers that always split at ' ' and '\t' and drop them. */
const CHUNK_SAFE_PRE_TOKENIZERS = new Set(['BertPreTokenizer', 'WhitespaceSplit', 'Whitespace']);

function normalizerChunkSafe(node: unknown): boolean {
  if (node === null || node === undefined) return true;
  if (!isObject(node)) return false;
  if (node.type === 'Sequence') return Array.isArray(node.normalizers) && node.normalizers.every(normalizerChunkSafe);
  return typeof node.type === 'string' && CHUNK_SAFE_NORMALIZERS.has(node.type);
}

/**
 * Splitting a line at ASCII spaces/tabs and tokenizing the chunks alone gives the same ids when: the
 * normalizer maps those chars to whitespace without looking across them, the pre-tokenizer splits at
 * and drops them, the model works per pre-token without fusing unknowns across them, and no added
 * token contains whitespace (so none spans a chunk boundary).
 */
function chunkSafe(root: Json): boolean {
  const model = root.model as Json;
  const pre = unwrapPreTokenizer(root.pre_tokenizer);
  if (!isObject(pre) || typeof pre.type !== 'string' || !CHUNK_SAFE_PRE_TOKENIZERS.has(pre.type)) return false;
  if (!normalizerChunkSafe(root.normalizer)) return false;
  const perWordModel = model.type === 'WordPiece' || (model.type === 'BPE' && !model.fuse_unk);
  if (!perWordModel) return false;
  if (!postProcessorIsIdentity(root.post_processor)) return false;
  // Tokens matched after normalization could gain whitespace there (e.g. around CJK): keep them out.
  return readAddedTokens(root).every((t) => !t.normalized && !/\s/u.test(t.content));
}

export function createLibraryTokenizer(root: Json, sizes: MemoSizes): LineTokenizer {
  let lib: Tokenizer;
  try {
    // The library insists these keys exist; absent means null for the Rust crate too.
    const json = { normalizer: null, pre_tokenizer: null, post_processor: null, decoder: null, added_tokens: [], ...root };
    lib = new (hfTokenizers().Tokenizer)(json as never, {});
  } catch (e) {
    throw corrupt(`tokenizer.json could not be loaded by @huggingface/tokenizers (${(e as Error).message})`, e);
  }
  const libIds = (text: string): number[] => {
    try {
      return lib.encode(text, { add_special_tokens: false }).ids;
    } catch (e) {
      throw corrupt(`@huggingface/tokenizers failed on this tokenizer.json (${(e as Error).message})`, e);
    }
  };
  const model = root.model as Json;
  const vocabSize = Math.max(lib.get_vocab(true).size, ...[...lib.get_vocab(true).values()].map((v) => v + 1));
  const unkRaw = model.type === 'Unigram' ? model.unk_id : typeof model.unk_token === 'string' ? lib.token_to_id(model.unk_token) : null;
  const unkId = typeof unkRaw === 'number' ? unkRaw : null;

  const lineMemo = createLineMemo({ maxLines: sizes.lines });
  const chunks = new Map<string, number[]>();
  const byChunk = chunkSafe(root);

  function encodeUncached(text: string, buf: IdBuffer): void {
    if (!byChunk) { pushIds(buf, libIds(text)); return; }
    let start = -1;
    for (let i = 0; i <= text.length; i++) {
      const c = i < text.length ? text.charCodeAt(i) : 32;
      if (c === 32 || c === 9) {
        if (start >= 0) {
          const chunk = text.slice(start, i);
          let ids = chunks.get(chunk);
          if (ids === undefined) {
            ids = libIds(chunk);
            if (chunks.size >= sizes.chunks) chunks.clear();
            chunks.set(chunk, ids);
          }
          pushIds(buf, ids);
          start = -1;
        }
      } else if (start < 0) start = i;
    }
  }

  const encodeInto = (text: string, buf: IdBuffer): number => lineMemo.encodeInto(text, buf, encodeUncached);
  return lineTokenizerFrom({ kind: byChunk ? 'library-chunk-memo' : 'library-line-memo', vocabSize, unkId, encodeInto });
}
