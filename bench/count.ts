// Counts a corpus the way the bench reports it: files, lines ('\n' count) and bytes of a file or a
// tree, hidden entries skipped as simgrep's walker does, in sorted order.
import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import path from 'node:path';

export interface Counts { files: number; lines: number; bytes: number }

const BUF = Buffer.allocUnsafe(1 << 20);

export function countCorpus(p: string): Counts {
  const st = statSync(p);
  if (st.isDirectory()) {
    const total = { files: 0, lines: 0, bytes: 0 };
    for (const name of readdirSync(p).sort()) {
      if (name.startsWith('.')) continue;
      const c = countCorpus(path.join(p, name));
      total.files += c.files; total.lines += c.lines; total.bytes += c.bytes;
    }
    return total;
  }
  const fd = openSync(p, 'r');
  let lines = 0;
  try {
    for (let n = readSync(fd, BUF); n > 0; n = readSync(fd, BUF)) {
      for (let i = BUF.indexOf(10); i >= 0 && i < n; i = BUF.indexOf(10, i + 1)) lines++;
    }
  } finally {
    closeSync(fd);
  }
  return { files: 1, lines, bytes: st.size };
}
