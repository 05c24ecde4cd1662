// TEA's file.read and file.write for workflows (the seed names file.read as its companion), confined to
// the directory the run started in: a path is resolved on real paths (symlinks followed), and one that
// lands outside (`..`, an absolute path elsewhere, a link that leads out) is refused, so a workflow or
// the state it is given cannot read ~/.ssh or write over a file outside the project.
import { constants } from 'node:fs';
import { lstat, mkdir, open, realpath, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { fail } from '../errors.js';
import type { Action } from '../registry.js';

export const FILE_ACTION_NAMES = ['file.read', 'file.write', 'actions.file_read', 'actions.file_write'];

/** The file actions, confined to `root` (the working directory of the run). */
export function createFileActions(root: string = process.cwd()): Record<string, Action> {
  const read: Action = async (_state, p) => {
    if (typeof p.path !== 'string' || p.path === '') return fail('validation_error', 'file.read: path must be a non-empty string');
    const where = await confine(root, p.path, false);
    if (typeof where !== 'string') return where;
    let fh: FileHandle | undefined;
    try {
      // Without blocking, and a regular file only: a FIFO in the project (a cloned repository's, named by the
      // state a run was given) hung the run for ever at its open, waiting for a writer (trust47).
      fh = await open(where, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
      const st = await fh.stat();
      if (st.isDirectory()) return fail('validation_error', `file.read: ${p.path} is a directory, not a file`);
      if (!st.isFile()) return fail('validation_error', `file.read: ${p.path} is not a regular file (a pipe, socket or device); file.read reads files`);
      return { content: await fh.readFile({ encoding: (typeof p.encoding === 'string' ? p.encoding : 'utf-8') as BufferEncoding }), success: true };
    } catch (e) {
      return ioFailure('file.read', p.path, e);
    } finally {
      await fh?.close();
    }
  };
  const write: Action = async (_state, p) => {
    if (typeof p.path !== 'string' || p.path === '') return fail('validation_error', 'file.write: path must be a non-empty string');
    if (typeof p.content !== 'string') return fail('validation_error', 'file.write: content must be a string');
    const where = await confine(root, p.path, true);
    if (typeof where !== 'string') return where;
    try {
      await mkdir(path.dirname(where), { recursive: true });
      // Never through a link: one made at that name since the check would lead the write out.
      await writeFile(where, p.content, { flag: constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0) });
      return { path: p.path, success: true };
    } catch (e) {
      return ioFailure('file.write', p.path, e);
    }
  };
  return { 'file.read': read, 'file.write': write, 'actions.file_read': read, 'actions.file_write': write };
}

/**
 * The real path of `p` if it lies inside `root`; for a write, the deepest existing ancestor decides, and
 * no name on the way may be a link to nothing (a dangling link's target is where the write would land).
 */
async function confine(root: string, p: string, forWrite: boolean) {
  const realRoot = await realpath(root);
  const abs = path.resolve(realRoot, p);
  const outside = () => fail('permission_error', `${forWrite ? 'file.write' : 'file.read'}: ${p} is outside the directory the run started in (${realRoot}); workflows read and write files only there`);
  let existing = abs;
  let rest = '';
  for (;;) {
    try { existing = await realpath(existing); break; } catch {
      if (!forWrite && existing === abs) return fail('file_not_found', `file.read: ${p} does not exist`);
      if (await lstat(existing).then((st) => st.isSymbolicLink(), () => false)) {
        return fail('permission_error', `file.write: ${p}: ${existing} is a symbolic link to nothing (a write would land wherever it points, maybe outside ${realRoot}); remove the link or write to another path`);
      }
      const parent = path.dirname(existing);
      if (parent === existing) break;
      rest = path.join(path.basename(existing), rest);
      existing = parent;
    }
  }
  const real = path.join(existing, rest);
  const rel = path.relative(realRoot, real);
  if (rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return outside();
  return real;
}

function ioFailure(action: string, p: string, e: unknown) {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return fail('file_not_found', `${action}: ${p} does not exist`);
  if (code === 'EACCES' || code === 'EPERM') return fail('permission_error', `${action}: ${p}: permission denied`);
  return fail('internal_error', `${action}: ${p}: ${(e as Error).message}`);
}
