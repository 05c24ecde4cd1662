// vector.store, vector.query and vector.index_files over the engine's LanceDB collections; texts are
// embedded with the engine's shared searcher (the same model every other action uses).
import { createHash, randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { isGlob } from '../sources/fs.js';
import { sourcesForPaths } from '../sources/resolve.js';
import type { Entry, Source } from '../sources/source.js';
import { isRemoteUri } from '../sources/uri.js';
import { compileGlob } from '../sources/wildcard.js';
import { looksBinary } from '../text/decode.js';
import { CHUNK_TYPES, chunkText, type ChunkType } from './chunking.js';
import { checkCollectionName, type StoredRow } from './collections.js';
import type { ActionEngine } from './engine.js';
import { fail } from './errors.js';
import { bool, dict, int, oneOf, str, strList, type Params } from './params.js';

export async function vectorStore(engine: ActionEngine, _state: unknown, p: Params) {
  const texts = strList(p, 'texts', { required: true })!;
  const collection = checkCollectionName(str(p, 'collection', { fallback: 'default' })!);
  // TEA gives each text without an id a fresh UUID: two equal texts are two documents, both kept.
  const ids = strList(p, 'ids') ?? texts.map(() => randomUUID());
  if (ids.length !== texts.length) return fail('validation_error', `Number of IDs (${ids.length}) doesn't match texts (${texts.length}); give one id per text in parameter ids`);
  const embeddings = p.embeddings;
  if (embeddings !== undefined && embeddings !== null) {
    if (!Array.isArray(embeddings)) return fail('validation_error', 'parameter embeddings must be a list of vectors, one per text');
    if (embeddings.length !== texts.length) return fail('validation_error', `Number of embeddings (${embeddings.length}) doesn't match texts (${texts.length}); give one vector per text in parameter embeddings`);
  }
  const raw = p.metadata;
  const metadata = raw === undefined || raw === null ? texts.map(() => ({}))
    : Array.isArray(raw) ? raw : texts.map(() => raw);
  if (metadata.length !== texts.length || !metadata.every((m) => m !== null && typeof m === 'object' && !Array.isArray(m))) {
    return fail('validation_error', 'parameter metadata must be one mapping, or a list of mappings with one per text');
  }
  const rows: StoredRow[] = texts.map((text, i) => ({ id: ids[i], text, metadata: metadata[i] as Record<string, unknown> }));
  await (await engine.collections()).upsert(collection, rows, embeddings as number[][] | undefined ?? undefined);
  return { stored: rows.length, collection, ids };
}

export async function vectorQuery(engine: ActionEngine, _state: unknown, p: Params) {
  const query = str(p, 'query', { required: true });
  const k = int(p, 'k', { fallback: 5, min: 1 })!;
  const collection = checkCollectionName(str(p, 'collection', { fallback: 'default' })!);
  if (p.filter !== undefined && p.filter !== null && (typeof p.filter !== 'object' || Array.isArray(p.filter))) {
    return fail('validation_error', `Filter must be a dictionary: parameter filter must be a mapping of metadata fields (got ${JSON.stringify(p.filter)})`);
  }
  const filter = dict(p, 'filter');
  const includeEmbeddings = bool(p, 'include_embeddings', false);
  const results = await (await engine.collections()).query(collection, query, k, filter, { includeEmbeddings });
  return { results, query, collection, k };
}

export async function vectorIndexFiles(engine: ActionEngine, _state: unknown, p: Params) {
  const paths = strList(p, 'paths', { required: true })!;
  const pattern = str(p, 'pattern', { fallback: '**/*' })!;
  const chunkBy = oneOf<ChunkType>(p, 'chunk_by', CHUNK_TYPES, 'line');
  const collection = checkCollectionName(str(p, 'collection', { fallback: 'default' })!);
  const recursive = bool(p, 'recursive', true);
  const extensions = strList(p, 'extensions');
  const incremental = bool(p, 'incremental', true);
  const store = await engine.collections();
  const known = incremental ? await store.fileHashes(collection) : new Map<string, string>();
  const errors: { file: string; error: string }[] = [];
  let indexed = 0;
  let skipped = 0;
  let files = 0;

  for (const root of paths) {
    let found: Awaited<ReturnType<typeof listFiles>>;
    try { found = await listFiles(root, pattern, { recursive, extensions }); } catch (e) {
      errors.push({ file: root, error: (e as Error).message });
      continue;
    }
    for (const w of found.source.drainWarnings?.() ?? []) errors.push({ file: w.path, error: w.message });
    for (const entry of found.entries) {
      files++;
      // TEA names a local directory's files by their absolute paths (os.path.abspath), a file or URI as given.
      const file = found.localDir ? path.resolve(entry.path) : entry.path;
      let bytes: Uint8Array;
      try { bytes = await found.source.read(entry); } catch (e) {
        errors.push({ file, error: (e as Error).message });
        continue;
      }
      if (looksBinary(bytes)) { skipped++; continue; }
      // An earlier simgrep named it as given: its chunks go, so that a query does not find the file twice.
      if (file !== entry.path && known.has(entry.path)) await store.dropFile(collection, entry.path);
      const hash = createHash('sha256').update(bytes).update(`\0${chunkBy}`).digest('hex');
      if (known.get(file) === hash) { skipped++; continue; }
      const chunks = chunkText(new TextDecoder().decode(bytes), chunkBy);
      const rows: StoredRow[] = chunks.map((c) => ({
        id: `${file}:${c.start_line}`,
        text: c.text,
        metadata: { file, line: c.start_line, start_line: c.start_line, end_line: c.end_line, chunk_type: chunkBy },
      }));
      await store.replaceFile(collection, file, rows, hash);
      indexed += rows.length;
    }
  }
  return { success: true, indexed, skipped, errors, collection, files };
}

/** The files under one path (a file, a directory walked with the pattern, a glob or a URI prefix). */
async function listFiles(root: string, pattern: string, o: { recursive: boolean; extensions?: string[] }): Promise<{ source: Source; entries: Entry[]; localDir: boolean }> {
  const [source] = await sourcesForPaths([root], { recursive: o.recursive, extensions: o.extensions });
  let under: string | null = null;
  if (isRemoteUri(root)) under = root;
  else if (!isGlob(root)) under = await stat(root).then((s) => (s.isDirectory() ? root : null), () => null);
  const match = under !== null && pattern !== '**/*' ? compileGlob(pattern, { dot: true }) : null;
  const entries: Entry[] = [];
  for await (const e of source.list()) {
    if (match && under !== null && !match(relativeTo(under, e.path))) continue;
    entries.push(e);
  }
  return { source, entries, localDir: under !== null && !isRemoteUri(root) };
}

function relativeTo(root: string, p: string): string {
  if (isRemoteUri(root)) return p.slice(root.replace(/\/*$/, '/').length);
  return path.relative(root, p).split(path.sep).join('/');
}
