// The prose statistics as a search reads them: the base file (snapshot.prose.bin) and the small delta
// beside it (snapshot.prose.delta.bin) that index runs write instead of rewriting the base for a few
// documents. Both are prose-stats-file.ts files; a document is numbered base first, then delta, and
// found in the delta first. Any pair of the two is right (a record is used only under the state it was
// counted in): one a crash left stale only makes a search read and count that document.
import { existsSync } from 'node:fs';
import { openProseStatsFile, type ProseStatsFile } from './prose-stats-file.js';

/** The delta file beside a prose statistics file. */
export function proseStatsDeltaPathOf(file: string): string {
  return file.replace(/(\.prose)?\.bin$/, '') + '.prose.delta.bin';
}

/** One of the files: its documents are numbered from `first`. */
export interface ProseStatsLayer { readonly file: ProseStatsFile; readonly first: number }

/** The base and the delta, read as one: documents numbered across both. */
export interface ProseStatsLayers {
  /** The files there are, base first. */
  readonly layers: readonly ProseStatsLayer[];
  /** The document of this state (the delta's first), or undefined when neither holds it. */
  docOf(state: string): number | undefined;
  docs(doc: number): number;
  chars(doc: number): number;
  lengths(doc: number): Uint16Array;
  /** Whether both files on disk are still these (the delta still absent when it was). */
  current(): boolean;
  close(): void;
}

/** Opens the base and its delta; null when there is neither; DamagedFileError when one fails its checksum. */
export function openProseStats(file: string): ProseStatsLayers | null {
  const deltaFile = proseStatsDeltaPathOf(file);
  const base = openProseStatsFile(file);
  let delta: ProseStatsFile | null;
  try {
    delta = openProseStatsFile(deltaFile);
  } catch (e) {
    base?.close();
    throw e;
  }
  return base || delta ? layered(base, delta, file, deltaFile) : null;
}

function layered(base: ProseStatsFile | null, delta: ProseStatsFile | null, file: string, deltaFile: string): ProseStatsLayers {
  const layers: ProseStatsLayer[] = [];
  if (base) layers.push({ file: base, first: 0 });
  if (delta) layers.push({ file: delta, first: base?.docCount ?? 0 });
  const last = layers[layers.length - 1];
  const at = (doc: number): [ProseStatsFile, number] => (doc >= last.first ? [last.file, doc - last.first] : [layers[0].file, doc]);
  return {
    layers,
    docOf(state) {
      for (let i = layers.length - 1; i >= 0; i--) {
        const d = layers[i].file.docOf(state);
        if (d !== undefined) return d + layers[i].first;
      }
      return undefined;
    },
    docs: (doc) => { const [f, d] = at(doc); return f.docs(d); },
    chars: (doc) => { const [f, d] = at(doc); return f.chars(d); },
    lengths: (doc) => { const [f, d] = at(doc); return f.lengths(d); },
    current: () => (base ? base.current() : !existsSync(file)) && (delta ? delta.current() : !existsSync(deltaFile)),
    close() {
      for (const l of layers) l.file.close();
    },
  };
}
