// The lines of one big source file (just under 8 MiB, the whole-read bound): a file whose scoring a deadline or
// an abort cuts partway (abort.test.ts, stats-timeout.test.ts).
const W = ['upload', 'retry', 'invoice', 'socket', 'parser', 'render', 'cache', 'token', 'backoff', 'queue'];

/** Lines of code-like text, each ending in a newline once joined, summing to just under `bytes` (8 MiB less 4 KiB by default). */
export function bigFileLines(bytes = (8 << 20) - 4096): string[] {
  const lines: string[] = [];
  let total = 0;
  for (let i = 0; total < bytes; i++) {
    const line = `const ${W[i % 10]}${i} = ${W[(i * 7) % 10]}(${i}); // ${W[(i * 3) % 10]} handling of the ${W[(i * 11) % 10]}`;
    lines.push(line);
    total += line.length + 1;
  }
  return lines;
}
