// Reads one ignore-rule file safely: only a regular file is read (a FIFO, device or directory named
// .gitignore must never block or flood the walk), and only up to a size a rule file can sensibly have.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** A .gitignore bigger than this is a mistake (or an attack), not a list of rules. */
export const MAX_RULE_FILE_BYTES = 16 << 20;

export type RuleFileRead =
  | { ok: true; text: string }
  | { ok: false; missing: true }
  | { ok: false; missing: false; problem: string };

/** The file's text, "missing", or the problem that kept it from being read (said in plain words). */
export function readRuleFile(file: string | Buffer): RuleFileRead {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, missing: true };
    if (code === 'ELOOP') return { ok: false, missing: false, problem: 'is a symbolic link loop' };
    return { ok: false, missing: false, problem: `cannot be read (${code ?? String(e)}); check its permissions` };
  }
  try {
    const s = fstatSync(fd);
    if (s.isDirectory()) return { ok: false, missing: false, problem: 'is a directory, not a file of rules' };
    if (!s.isFile()) return { ok: false, missing: false, problem: 'is not a regular file (a pipe, socket or device)' };
    if (s.size > MAX_RULE_FILE_BYTES) return { ok: false, missing: false, problem: `is ${s.size} bytes, over the ${MAX_RULE_FILE_BYTES} bytes a rule file may have` };
    // Read what is there, never more than the cap, whatever stat said (/proc files say 0).
    const parts: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(64 << 10);
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      parts.push(chunk.subarray(0, n));
      total += n;
      if (total > MAX_RULE_FILE_BYTES) return { ok: false, missing: false, problem: `is over the ${MAX_RULE_FILE_BYTES} bytes a rule file may have` };
    }
    return { ok: true, text: Buffer.concat(parts).toString('utf8') };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EISDIR') return { ok: false, missing: false, problem: 'is a directory, not a file of rules' };
    return { ok: false, missing: false, problem: `cannot be read (${code ?? String(e)}); check its permissions` };
  } finally {
    closeSync(fd);
  }
}
