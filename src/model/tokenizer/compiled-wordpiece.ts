// A compiled WordPiece tokenizer as bytes: the spec (minus the vocabulary) as JSON, then the two
// tries' typed arrays (depth-first records, preorder-trie.ts). Loading it is a read and a few views,
// where building it from tokenizer.json (parse, vocabulary map, ~60k trie inserts, the depth-first
// layout) costs ~100-250 ms per thread.
import { PreorderTrie, type PreorderTrieArrays } from './preorder-trie.js';
import type { CompiledWordPiece } from './wordpiece-native.js';

const MAGIC = 0x50574753; // "SGWP" little-endian
const VERSION = 2;
const ARRAYS = ['records', 'rootChild', 'rootAstral'] as const;

interface Header {
  spec: Omit<CompiledWordPiece, 'tries'>;
  tries: { lengths: number[] }[];
}

export function encodeCompiledWordPiece(c: CompiledWordPiece): Uint8Array {
  const { tries, ...spec } = c;
  const arrays = [tries.initial.toArrays(), tries.continuing.toArrays()];
  const header: Header = {
    spec,
    tries: arrays.map((a) => ({ lengths: ARRAYS.map((k) => a[k].length) })),
  };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const start = align4(12 + json.length);
  const total = start + arrays.reduce((n, a) => n + ARRAYS.reduce((m, k) => m + a[k].byteLength, 0), 0);
  const out = new Uint8Array(total);
  const words = new DataView(out.buffer);
  words.setUint32(0, MAGIC, true);
  words.setUint32(4, VERSION, true);
  words.setUint32(8, json.length, true);
  out.set(json, 12);
  let at = start;
  for (const a of arrays) {
    for (const k of ARRAYS) {
      out.set(new Uint8Array(a[k].buffer, a[k].byteOffset, a[k].byteLength), at);
      at += a[k].byteLength;
    }
  }
  return out;
}

/** Throws when `bytes` is not a complete compiled tokenizer of this version. */
export function decodeCompiledWordPiece(bytes: Uint8Array): CompiledWordPiece {
  // Typed views need 4-byte alignment: copy the rare unaligned buffer once.
  const buf = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  const words = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  if (buf.byteLength < 12 || words.getUint32(0, true) !== MAGIC || words.getUint32(4, true) !== VERSION) {
    throw new Error(`not a compiled WordPiece tokenizer (version ${VERSION})`);
  }
  const jsonBytes = words.getUint32(8, true);
  const header = JSON.parse(Buffer.from(buf.buffer, buf.byteOffset + 12, jsonBytes).toString('utf8')) as Header;
  let at = buf.byteOffset + align4(12 + jsonBytes);
  const end = buf.byteOffset + buf.byteLength;
  const [initial, continuing] = header.tries.map((t) => {
    const arrays: Partial<PreorderTrieArrays> = {};
    ARRAYS.forEach((k, i) => {
      const length = t.lengths[i];
      if (!Number.isInteger(length) || length < 0 || at + length * 4 > end) throw new Error('compiled tokenizer is truncated');
      arrays[k] = new Int32Array(buf.buffer, at, length);
      at += length * 4;
    });
    return new PreorderTrie(arrays as PreorderTrieArrays);
  });
  if (!initial || !continuing || at !== end) throw new Error('compiled tokenizer has the wrong size');
  return { ...header.spec, tries: { initial, continuing } };
}

function align4(n: number): number {
  return (n + 3) & ~3;
}
