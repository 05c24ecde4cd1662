// Keeps the prose statistics file (snapshot/prose-stats-file.ts) and its delta in step with the snapshot
// an index run publishes: the prose documents they do not hold yet are counted (from the bytes the run
// read, else read again and checked against the indexed hash) into the delta, or into a new base with
// the records of documents still indexed as they were copied, and the file is written atomically. A document left out is read and counted by the
// searches, as before: never a wrong statistic, only a slower answer.
import { ioPathOf } from '../sources/dir-listing.js';
import { closeSync, fstatSync, openSync, readSync, renameSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { documentGramCounts, gramKeyOf } from '../rank/prose-doc-grams.js';
import { keyNameOf, ProseLinesBuilder } from '../rank/prose-lines-build.js';
import { isProsePath } from '../rank/prose.js';
import { isRemoteUri } from '../sources/uri.js';
import { openChunks } from './build/file-chunks.js';
import { sha256Hex } from './build/hex-digest.js';
import { DamagedFileError } from './snapshot/section-file.js';
import { ProseStatsCollector } from './snapshot/prose-stats-collect.js';
import { BLANK_BIT, documentState, gramName, NO_STATS, openProseStatsFile, writeProseStatsFile, type ProseStatsFile } from './snapshot/prose-stats-file.js';
import { proseStatsDeltaPathOf } from './snapshot/prose-stats-layers.js';
import type { Snapshot, SnapshotFile } from './snapshot/snapshot.js';

/** What an update did: documents counted now, copied from the file before, left out (read by searches). */
export interface ProseStatsReport {
  counted: number; copied: number; left: number; written: boolean;
  /** What was written was the delta beside the base (the base left as it was). */
  delta?: boolean;
  /** The file before failed a checksum (its documents were counted again); the update failed (not written). */
  damaged?: string; failed?: string;
}

/**
 * Counts the documents an index run read that `file` and its delta do not hold, before the run builds
 * its snapshot, into a file of the same format beside them (returned; null when there was none to
 * count): `given` holds the bytes of those it kept (a remote file's, by state), let go as they are
 * counted; `seen` the local files it read, read again now (from the page cache) and checked against
 * their indexed hash. The run then holds neither their bytes nor the counting's garbage while it
 * updates the store and builds the snapshot (its highest points of memory). Counted in the snapshot's
 * order of files (by key), as updateProseStats would count them. It takes the file as `ahead`.
 */
export async function countProseAhead(file: string, given: Map<string, Uint8Array>, seen: ReadonlyMap<string, Readable> = new Map()): Promise<string | null> {
  if (given.size === 0 && seen.size === 0) return null;
  const held = [file, proseStatsDeltaPathOf(file)].map((f) => { try { return openProseStatsFile(f); } catch { return null; } });
  const states = [...new Set([...given.keys(), ...seen.keys()])].filter((state) => held.every((f) => f?.docOf(state) === undefined)).sort();
  for (const f of held) f?.close();
  if (states.length === 0) return null;
  const out = `${file}.counted.${process.pid}.tmp`;
  const c = new ProseStatsCollector(`${file}.spill.${process.pid}.tmp`);
  // One buffer for every file read again (counting keeps nothing of the bytes): no garbage outside the heap.
  const scratch = { buf: new Uint8Array(1 << 16) };
  try {
    for (const state of states) {
      const kept = given.get(state);
      given.delete(state);
      // A file changed since it was read is left out: the update reads it again, and finds it changed too.
      const bytes = kept ?? readAgain(seen.get(state)!, scratch);
      if (bytes) await countInto(c, state, bytes);
    }
    if (c.documents === 0) return null;
    writeProseStatsFile(out, c.body());
    return out;
  } finally {
    c.discard();
  }
}

/**
 * Brings `file` and its delta up to date with the prose documents of `snap`: `ahead` is a file of those
 * the run counted already (countProseAhead), removed here; `given` holds bytes the index run read, by
 * document state; others are read from disk (local files only) when `readMissing`. The documents
 * counted go to the delta with those it still holds, while it stays small beside the base (1/8 of its
 * documents) and the base holds few dead ones (1/4); else all are folded into a new base (records
 * copied as bytes) and the delta removed. Either file is written whole and renamed.
 */
export async function updateProseStats(file: string, snap: Snapshot, o: { ahead?: string | null; given?: Map<string, Uint8Array>; readMissing: boolean }): Promise<ProseStatsReport> {
  try {
    return await updateFiles(file, snap, o);
  } finally {
    if (o.ahead) rmSync(o.ahead, { force: true });
  }
}

async function updateFiles(file: string, snap: Snapshot, o: { ahead?: string | null; given?: Map<string, Uint8Array>; readMissing: boolean }): Promise<ProseStatsReport> {
  const deltaFile = proseStatsDeltaPathOf(file);
  const wanted = new Map<string, SnapshotFile>();
  for (const f of snap.files) if (f.kind === 'text' && isProsePath(f.key)) wanted.set(documentState(f), f);
  let damaged: string | undefined;
  // A damaged file is as none: its documents are counted again.
  const open = (f: string, said = true): ProseStatsFile | null => {
    try { return openProseStatsFile(f); } catch (e) { if (!(e instanceof DamagedFileError)) throw e; if (said) damaged ??= e.message; return null; }
  };
  let base = open(file);
  let delta = open(deltaFile);
  let ahead = o.ahead ? open(o.ahead, false) : null;
  let c: ProseStatsCollector | null = null;
  const closeAll = () => { for (const f of [base, delta, ahead]) f?.close(); base = delta = ahead = null; };
  try {
    const inDelta = (state: string) => delta?.docOf(state) !== undefined;
    const inBase = (state: string) => base?.docOf(state) !== undefined;
    const inAhead = (state: string) => ahead?.docOf(state) !== undefined;
    const missing: string[] = [];
    let heldDelta = 0;
    let heldBase = 0;
    let fresh = 0;
    for (const state of wanted.keys()) if (inDelta(state)) heldDelta++; else if (inBase(state)) heldBase++; else if (inAhead(state)) fresh++; else missing.push(state);
    const baseDocs = base?.docCount ?? 0;
    const held = heldDelta + heldBase;
    // Nothing new to count, and not much kept for documents no longer indexed as they were: left as it is.
    if (missing.length === 0 && fresh === 0 && (baseDocs + (delta?.docCount ?? 0) - held) * 2 <= Math.max(held, 16)) return { counted: 0, copied: held, left: 0, written: false, ...(damaged && { damaged }) };
    const fold = !base || (heldDelta + fresh + missing.length) * 8 > heldBase || (baseDocs - heldBase) * 4 > baseDocs;
    if (fold && !base && !delta && ahead && missing.length === 0 && ahead.docCount === fresh) {
      // A first build: the documents counted ahead are the file.
      closeAll();
      renameSync(o.ahead!, file);
      // A delta that failed its checksum (opened as none) goes too.
      rmSync(deltaFile, { force: true });
      return { counted: fresh, copied: 0, left: 0, written: true, ...(damaged && { damaged }) };
    }
    // The counted records wait in a temp file beside the file (swept like its other temp files if this process dies).
    c = new ProseStatsCollector(`${file}.spill.${process.pid}.tmp`);
    let copied = fold ? 0 : heldBase;
    try {
      if (fold && base) {
        // Few documents dropped since the base was compacted: copied whole, their slots left empty; else renumbered.
        const keep = (state: string) => wanted.has(state) && !inDelta(state);
        copied += (baseDocs - heldBase) * 4 <= baseDocs ? c.addWhole(base, keep) : c.addFrom(base, keep);
      }
      if (delta) {
        // Alone (not folded), with few dead documents: copied whole, as the base is.
        const whole = !fold && (delta.docCount - heldDelta) * 4 <= delta.docCount;
        copied += whole ? c.addWhole(delta, (state) => wanted.has(state)) : c.addFrom(delta, (state) => wanted.has(state));
      }
      if (ahead) c.addFrom(ahead, (state) => wanted.has(state) && !inBase(state) && !inDelta(state));
    } catch (e) {
      if (!(e instanceof DamagedFileError)) throw e;
      // A damaged block: the documents are counted again from their files.
      closeAll();
      for (const f of [file, deltaFile]) rmSync(f, { force: true });
      c.discard();
      return await updateFiles(file, snap, { ...o, ahead: null }).then((r) => ({ ...r, damaged: e.message }));
    }
    closeAll();
    // Each document counted and laid into the collector at once: only its encoded records are held.
    let counted = fresh;
    for (const state of missing) {
      const bytes = await bytesOf(wanted.get(state)!, o.given?.get(state), o.readMissing);
      // The run's bytes go as they are counted: they are most of what this step holds.
      o.given?.delete(state);
      if (!bytes) continue;
      await countInto(c, state, bytes);
      counted++;
    }
    if (fold) {
      writeProseStatsFile(file, c.body());
      // Its documents are in the base now (a crash before this leaves them in both: the same records).
      rmSync(deltaFile, { force: true });
    } else if (c.documents > 0) {
      writeProseStatsFile(deltaFile, c.body());
    } else {
      rmSync(deltaFile, { force: true });
    }
    return { counted, copied, left: missing.length + fresh - counted, written: true, ...(!fold && { delta: true }), ...(damaged && { damaged }) };
  } finally {
    closeAll();
    c?.discard();
  }
}

/** Counts a document into the collector; a document that keeps no statistics is held as such. */
async function countInto(c: ProseStatsCollector, state: string, bytes: Uint8Array): Promise<void> {
  const d = await countDocument(state, bytes);
  // A document that keeps no statistics (longer than they count, words its folded text cuts otherwise)
  // is held as such, so later runs do not count it again; searches read and count it.
  if (d) addCounted(c, d); else c.addDocument({ state, lengths: new Uint16Array(0), docs: NO_STATS, chars: 0 });
}

/** A local document read again into `scratch` (grown as needed), if it is still what the index holds; else null. */
function readAgain(f: Readable, scratch: { buf: Uint8Array }): Uint8Array | null {
  let fd: number;
  try { fd = openSync(f.key, 'r'); } catch { return null; }
  try {
    if (fstatSync(fd).size !== f.size) return null;
    if (scratch.buf.length < f.size) scratch.buf = new Uint8Array(Math.max(f.size, scratch.buf.length * 2));
    let at = 0;
    for (let n = 1; at < f.size && n > 0; at += n) n = readSync(fd, scratch.buf, at, f.size - at, at);
    const bytes = scratch.buf.subarray(0, f.size);
    return at === f.size && sha256Hex(bytes) === f.hash ? bytes : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** What a document's bytes are read again by: its path (or URI), and its indexed size and hash. */
export interface Readable { key: string; size: number; hash: string }

/** A document's bytes: those the index run read, else read again (local files only) if they are still what the index holds. */
async function bytesOf(f: Readable, given: Uint8Array | undefined, readMissing: boolean): Promise<Uint8Array | null> {
  if (given) return given;
  if (!readMissing || isRemoteUri(f.key)) return null;
  const read = await readFile(ioPathOf(f.key)).catch(() => null);
  // A file changed since is left to the searches, which see it changed.
  return read && read.length === f.size && sha256Hex(read) === f.hash ? read : null;
}

/** A document counted: its state, lines, and per key id and per gram id its (line, count) pairs. */
export interface Counted { state: string; lengths: Uint16Array; docs: number; chars: number; keys: ReadonlyMap<number, number[]>; grams: ReturnType<typeof documentGramCounts> }

/** A document's line statistics, read as a search reads it (binary sniff, transcoding, long lines cut); null when it keeps none. */
export async function countDocument(state: string, bytes: Uint8Array): Promise<Counted | null> {
  const opened = await openChunks((async function* () { yield bytes; })(), 1 << 16);
  const builder = new ProseLinesBuilder();
  for await (const chunk of opened.chunks) for (const line of chunk.lines) builder.add(line);
  const raw = opened.binary ? null : builder.postings();
  if (!raw) return null;
  const n = raw.lengths.length;
  const lengths = new Uint16Array(n);
  for (let i = 0; i < n; i++) {
    if (raw.lengths[i] >= BLANK_BIT) return null;
    lengths[i] = raw.lengths[i] | (raw.blank[i] ? BLANK_BIT : 0);
  }
  // The document's grams, counted from its words' lines as a resident process counts them.
  const ids = Int32Array.from(raw.byKey.keys()).sort();
  const ownStart = new Int32Array(ids.length + 1);
  for (let k = 0; k < ids.length; k++) ownStart[k + 1] = ownStart[k] + (raw.byKey.get(ids[k])!.length >> 1);
  const ownLine = new Uint16Array(ownStart[ids.length]);
  const ownCount = new Uint16Array(ownStart[ids.length]);
  for (let k = 0; k < ids.length; k++) {
    const pairs = raw.byKey.get(ids[k])!;
    for (let j = 0, at = ownStart[k]; j < pairs.length; j += 2, at++) { ownLine[at] = pairs[j]; ownCount[at] = pairs[j + 1]; }
  }
  const grams = documentGramCounts({ lines: n, ids, ownStart, ownLine, ownCount });
  return { state, lengths, docs: raw.docs, chars: raw.chars, keys: raw.byKey, grams };
}

/** Per process key id and gram id, the collector's number for its name (-1: not asked yet), for the collector at hand. */
let names: { c: ProseStatsCollector | null; keys: Int32Array; grams: Int32Array } = { c: null, keys: new Int32Array(0), grams: new Int32Array(0) };

function nameIdOf(c: ProseStatsCollector, kind: 'keys' | 'grams', id: number): number {
  if (names.c !== c) names = { c, keys: new Int32Array(1024).fill(-1), grams: new Int32Array(1024).fill(-1) };
  let table = names[kind];
  if (id >= table.length) {
    const grown = new Int32Array(Math.max(id + 1, table.length * 2)).fill(-1);
    grown.set(table);
    table = names[kind] = grown;
  }
  if (table[id] < 0) table[id] = c.nameId(kind === 'keys' ? keyNameOf(id) : 'g' + gramName(gramKeyOf(id)));
  return table[id];
}

/** Lays a counted document and its records into the collector. */
export function addCounted(c: ProseStatsCollector, d: Counted): void {
  const doc = c.addDocument({ state: d.state, lengths: d.lengths, docs: d.docs, chars: d.chars });
  for (const [id, pairs] of d.keys) c.addPairsOf(nameIdOf(c, 'keys', id), doc, pairs);
  const g = d.grams;
  for (let i = 0; i < g.gramId.length; i++) c.addGramOf(nameIdOf(c, 'grams', g.gramId[i]), doc, g.gramDf[i], g.gramMost[i]);
}
