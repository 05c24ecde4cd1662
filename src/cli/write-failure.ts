// The message for results that could not be written to standard output (a full disk, /dev/full).

const REASONS: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is exceeded',
  EIO: 'an input/output error',
  EBADF: 'standard output is closed',
  EFBIG: 'the file is too large',
  EAGAIN: 'standard output would block',
};

export function writeFailure(e: NodeJS.ErrnoException): string {
  const reason = (e.code && REASONS[e.code]) ?? e.message;
  const hint = e.code === 'ENOSPC' || e.code === 'EDQUOT' ? '; free some space or write them elsewhere' : '';
  return `cannot write the results to standard output: ${reason}${e.code ? ` (${e.code})` : ''}; the output is incomplete${hint}`;
}
