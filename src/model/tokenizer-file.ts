// tokenizer.json, read once per use and compiled once per machine. Parsing it and building the native
// WordPiece tries costs ~100-150 ms per thread (most of a small search's start-up), so the result is
// kept in a cache keyed by the SHA-256 of tokenizer.json's bytes and of the compiling code:
// $SIMGREP_CACHE_DIR, else $XDG_CACHE_HOME/simgrep, else ~/.cache/simgrep (SIMGREP_CACHE_DIR=off
// disables it). The cache is only an accelerator: a missing, unreadable or damaged entry (its SHA-256
// checksum does not match) is rebuilt, a failed write is ignored and leaves no temp file behind.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  compileLineTokenizerTables, createCompiledLineTokenizer, createLineTokenizer, decodeCompiledTokenizer, encodeCompiledTokenizer, type LineTokenizer,
} from './tokenizer/index.js';
import { MAX_TOKENIZER_BYTES, ModelFileProblem, readModelFile } from './model-file.js';
import type { SharedTokenizer } from '../types.js';
import { readCacheEntry, writeCacheEntry } from './cache-entry.js';
import { corruptTokenizer, tokenizerMetaOf, type TokenizerJson, type TokenizerMeta } from './tokenizer-meta.js';

export interface TokenizerFile {
  meta: TokenizerMeta;
  /** Median length (chars) of the vocabulary's tokens: model2vec cuts long texts at maxLength x this. */
  medianTokenLength: number;
  /** A new line tokenizer (each has its own memo). */
  createTokenizer(): LineTokenizer;
  /**
   * The compiled tokenizer's bytes in shared memory, when it compiles: other threads make their
   * tokenizers from them (sharedTokenizerFile), its tables views of this one copy. */
  shared?: SharedTokenizer;
}

/** The tokenizer of `shared` bytes (openTokenizerFile's, from a checksummed cache entry or compiled anew): no file read, no hashing. */
export function sharedTokenizerFile(shared: SharedTokenizer): TokenizerFile {
  const compiled = decodeCompiledTokenizer(shared.compiled);
  return { meta: shared.meta, medianTokenLength: shared.medianTokenLength, createTokenizer: () => createCompiledLineTokenizer(compiled), shared };
}

/** A copy of `bytes` in shared memory (a worker thread gets it without a copy). */
function sharedCopy(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(new SharedArrayBuffer(bytes.byteLength));
  out.set(bytes);
  return out;
}

/** What a cache entry holds besides the compiled tokenizer. */
interface CachedInfo { meta: TokenizerMeta; medianTokenLength: number; compiled: boolean }

/** The entry layout's version (the compiled bytes carry their own too). */
const ENTRY_VERSION = 2;
/** Bytes of the SHA-256 over the rest of the entry that opens it. */
const CHECKSUM_BYTES = 32;
/** The largest entry read back (a compiled tokenizer of the largest vocabularies is tens of MB): a bigger file is a miss. */
const MAX_ENTRY_BYTES = 512 * 1024 * 1024;
/** Entries kept: every model and simgrep version adds one (a few MB), so the oldest go past this. */
const MAX_ENTRIES = 24;

let compilerHash: string | null | undefined;

/**
 * A hash of the code that turns tokenizer.json into an entry (this module, tokenizer-meta and the
 * tokenizer directory): a changed or upgraded simgrep never reads an entry an older one compiled.
 */
function compilerFingerprint(): string | null {
  if (compilerHash !== undefined) return compilerHash;
  try {
    compilerHash = hashFiles();
  } catch {
    compilerHash = null; // sources not on disk as expected: no cache rather than a stale one
  }
  return compilerHash;
}

function hashFiles(): string {
  const hash = createHash('sha256');
  const self = fileURLToPath(import.meta.url);
  // This module's directory; from the bundled CLI (dist/src/cli) or a bundled worker (dist/workers), the
  // built modules it was bundled from.
  const here = [path.dirname(self), path.join(path.dirname(self), '..', 'model'), path.join(path.dirname(self), '..', 'src', 'model')]
    .find((d) => existsSync(path.join(d, 'tokenizer')));
  if (!here) throw new Error('the tokenizer sources are not beside this module');
  const tokenizerDir = path.join(here, 'tokenizer');
  const files = [
    ...['tokenizer-file', 'tokenizer-meta'].map((name) => path.join(here, name + path.extname(self))),
    ...readdirSync(tokenizerDir).filter((f) => /\.[jt]s$/.test(f) && !f.endsWith('.d.ts')).sort().map((f) => path.join(tokenizerDir, f)),
  ];
  for (const f of files) hash.update(path.basename(f)).update(readFileSync(f));
  return hash.digest('hex').slice(0, 16);
}

/** `hint` tells the user how to fix a broken tokenizer.json (it depends on where the model came from). */
export async function openTokenizerFile(file: string, hint: string): Promise<TokenizerFile> {
  let bytes: Buffer;
  try {
    bytes = await readModelFile(file, MAX_TOKENIZER_BYTES, 'a tokenizer.json');
  } catch (e) {
    if (e instanceof ModelFileProblem) throw corruptTokenizer(file, e.message, hint, e.cause ?? e);
    throw corruptTokenizer(file, `cannot read tokenizer.json (${(e as NodeJS.ErrnoException).code ?? e})`, hint, e);
  }
  const entry = entryPath(bytes);
  const cached = entry ? readEntry(entry) : null;
  if (cached) {
    const { info, compiledBytes } = cached;
    // Read into shared memory (readEntry): the threads share the entry's own bytes, not a copy of them.
    if (compiledBytes) return sharedTokenizerFile({ compiled: compiledBytes.buffer instanceof SharedArrayBuffer ? compiledBytes : sharedCopy(compiledBytes), medianTokenLength: info.medianTokenLength, meta: info.meta });
    return { meta: info.meta, medianTokenLength: info.medianTokenLength, createTokenizer: () => createLineTokenizer(parse(bytes, file, hint)) };
  }
  const json = parse(bytes, file, hint);
  const meta = tokenizerMetaOf(json, file, hint);
  const compiled = compileLineTokenizerTables(json);
  const info: CachedInfo = { meta, medianTokenLength: medianTokenLength(json), compiled: compiled !== null };
  const encoded = compiled && encodeCompiledTokenizer(compiled);
  if (entry) writeEntry(entry, info, encoded);
  return {
    meta,
    medianTokenLength: info.medianTokenLength,
    createTokenizer: () => (compiled ? createCompiledLineTokenizer(compiled) : createLineTokenizer(json)),
    ...(encoded && { shared: { compiled: sharedCopy(encoded), medianTokenLength: info.medianTokenLength, meta } }),
  };
}

function parse(bytes: Buffer, file: string, hint: string): TokenizerJson {
  try {
    return JSON.parse(bytes.toString('utf8')) as TokenizerJson;
  } catch (e) {
    throw corruptTokenizer(file, 'tokenizer.json is not valid JSON', hint, e);
  }
}

/** simgrep's cache directory ($SIMGREP_CACHE_DIR, else under $XDG_CACHE_HOME or ~/.cache), or null when caching is off. */
export function simgrepCacheDir(env: NodeJS.ProcessEnv = process.env): string | null {
  const own = env.SIMGREP_CACHE_DIR;
  if (own === 'off') return null;
  if (own) return own;
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'simgrep');
}

/** The tokenizer cache directory, or null when caching is off. */
export function tokenizerCacheDir(env: NodeJS.ProcessEnv = process.env): string | null {
  const root = simgrepCacheDir(env);
  return root === null ? null : path.join(root, 'tokenizers');
}

function entryPath(bytes: Buffer): string | null {
  const dir = tokenizerCacheDir();
  const compiler = dir && compilerFingerprint();
  return compiler ? path.join(dir, `${createHash('sha256').update(bytes).digest('hex')}-${compiler}-v${ENTRY_VERSION}.bin`) : null;
}

/**
 * Layout: SHA-256 of everything after it, u32 info length, info JSON, then the compiled tokenizer at
 * the next multiple of 4. Decoding checks only layout and sizes, so flipped bits inside the tables
 * would pass and change every distance: the checksum makes any damaged entry a miss, rebuilt.
 */
function readEntry(file: string): { info: CachedInfo; compiledBytes: Uint8Array | null } | null {
  try {
    const buf = readCacheEntry(file, MAX_ENTRY_BYTES, { shared: true });
    if (!buf || buf.length < CHECKSUM_BYTES + 4) return null;
    if (!checksumOf(buf.subarray(CHECKSUM_BYTES)).equals(buf.subarray(0, CHECKSUM_BYTES))) return null;
    const infoBytes = buf.readUInt32LE(CHECKSUM_BYTES);
    const info = JSON.parse(buf.toString('utf8', CHECKSUM_BYTES + 4, CHECKSUM_BYTES + 4 + infoBytes)) as CachedInfo;
    if (!Number.isInteger(info?.meta?.vocabSize) || !(info.medianTokenLength >= 1)) return null;
    const compiledBytes = info.compiled ? buf.subarray(compiledOffset(infoBytes)) : null;
    // Decoded here too: bytes that do not decode are a miss, rebuilt, as before.
    if (compiledBytes) decodeCompiledTokenizer(compiledBytes);
    return { info, compiledBytes };
  } catch {
    return null;
  }
}

function checksumOf(body: Uint8Array): Buffer {
  return createHash('sha256').update(body).digest();
}

function compiledOffset(infoBytes: number): number {
  return CHECKSUM_BYTES + ((4 + infoBytes + 3) & ~3);
}

function writeEntry(file: string, info: CachedInfo, compiled: Uint8Array | null): void {
  const json = Buffer.from(JSON.stringify(info), 'utf8');
  const at = compiledOffset(json.length);
  const out = Buffer.alloc(at + (compiled?.length ?? 0));
  out.writeUInt32LE(json.length, CHECKSUM_BYTES);
  json.copy(out, CHECKSUM_BYTES + 4);
  if (compiled) out.set(compiled, at);
  checksumOf(out.subarray(CHECKSUM_BYTES)).copy(out, 0);
  writeCacheEntry(file, out, MAX_ENTRIES);
}

function medianTokenLength(json: TokenizerJson): number {
  const vocab = json.model?.vocab;
  const tokens = new Set<string>();
  if (Array.isArray(vocab)) for (const entry of vocab) tokens.add(String((entry as unknown[])[0]));
  else if (vocab && typeof vocab === 'object') for (const t of Object.keys(vocab)) tokens.add(t);
  if (Array.isArray(json.added_tokens)) for (const a of json.added_tokens as { content?: unknown }[]) if (typeof a?.content === 'string') tokens.add(a.content);
  const lengths = [...tokens].map((t) => t.length).sort((a, b) => a - b);
  if (lengths.length === 0) return 1;
  const mid = lengths.length >> 1;
  const median = lengths.length % 2 ? lengths[mid] : (lengths[mid - 1] + lengths[mid]) / 2;
  return Math.max(1, Math.floor(median));
}
