// A temp file a big build parks full blocks of its term triples in until the snapshot merges them
// (they are written once and read back in order): a million-line build's ~40 MB are then on disk
// (page cache) rather than in the process at its peak. The file is unlinked as soon as it is open,
// so nothing is left behind whatever happens to the process.
import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

/** Closes a spill file its owner dropped without closing it. */
const open = new FinalizationRegistry<number>((fd) => { try { closeSync(fd); } catch { /* closed */ } });

export class SpillFile {
  private size = 0;
  private closed = false;

  private constructor(private readonly fd: number) {
    open.register(this, fd, this);
  }

  /**
   * An anonymous file in `dir`, or null where none can be made (a read-only directory, or a system
   * that cannot unlink an open file): the caller keeps its blocks in memory.
   */
  static create(dir: string): SpillFile | null {
    const file = path.join(dir, `.simgrep-spill-${process.pid}-${Math.random().toString(36).slice(2)}.tmp`);
    let fd: number;
    try { fd = openSync(file, 'wx+', 0o600); } catch { return null; }
    try {
      unlinkSync(file);
    } catch {
      closeSync(fd);
      try { unlinkSync(file); } catch { /* left for the system's temp cleaner */ }
      return null;
    }
    return new SpillFile(fd);
  }

  /** Appends `bytes`; their offset in the file. */
  append(bytes: Uint8Array): number {
    const at = this.size;
    for (let done = 0; done < bytes.length;) done += writeSync(this.fd, bytes, done, bytes.length - done, at + done);
    this.size += bytes.length;
    return at;
  }

  /** Fills `into` from offset `at`. */
  read(at: number, into: Uint8Array): void {
    for (let done = 0; done < into.length;) {
      const n = readSync(this.fd, into, done, into.length - done, at + done);
      if (n === 0) throw new Error('spill file is truncated');
      done += n;
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    open.unregister(this);
    closeSync(this.fd);
  }
}
