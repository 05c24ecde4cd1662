// The files a resident process's index builds registered for the scans meanwhile (pipeline/kept-files.ts),
// one set of entries per build: builds that share a searcher (two workspaces, or two roots of one engine)
// may pool the same file, and one build's publish must let go of its own entries only, not the other's.
import type { PooledFile } from './kept-files.js';

/** One build's entries, key in the index (real path, or URI) -> what it registered (live: the build sets them as it pools). */
export interface PooledBuild {
  readonly files: Map<string, PooledFile>;
  /** Lets go of this build's entries (its index is published, or it failed); a second call does nothing. */
  release(): void;
}

export class PooledFiles {
  private readonly builds = new Set<Map<string, PooledFile>>();

  /** A new build's entries, registered until it releases them. */
  build(): PooledBuild {
    const files = new Map<string, PooledFile>();
    this.builds.add(files);
    return { files, release: () => { this.builds.delete(files); } };
  }

  /** What the latest-started build holding the path holds of it (every build keys its state by the content's sha256). */
  get(path: string): PooledFile | undefined {
    let found: PooledFile | undefined;
    for (const files of this.builds) found = files.get(path) ?? found;
    return found;
  }

  /** How many entries all builds hold (a path two builds registered counts twice). */
  get size(): number {
    let n = 0;
    for (const files of this.builds) n += files.size;
    return n;
  }

  /** Every build's paths (a path two builds registered comes twice). */
  *keys(): IterableIterator<string> {
    for (const [p] of this) yield p;
  }

  /** Every build's entries (a path two builds registered comes twice). */
  *[Symbol.iterator](): IterableIterator<[string, PooledFile]> {
    for (const files of this.builds) yield* files;
  }
}
