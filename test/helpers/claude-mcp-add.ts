// `claude mcp add ...` read back as Claude Code's own parser reads it, for the tests of --print-config.
import { expect } from 'vitest';
import type { ServerEntry } from '../../src/mcp/client-config.js';

/**
 * `claude mcp add` as Claude Code's parser reads it (commander: `add <name> <commandOrUrl> [args...]` with
 * `-e, --env <env...>` variadic: it takes every following word up to the next option or `--`, so a name
 * after it was read as an env value and refused, "Invalid environment variable format: simgrep": audit44).
 */
export function claudeMcpAdd(words: string[]): ServerEntry {
  expect(words.slice(0, 3)).toEqual(['claude', 'mcp', 'add']);
  const positional: string[] = [];
  const env: Record<string, string> = {};
  let i = 3;
  for (; i < words.length && words[i] !== '--'; i++) {
    const w = words[i];
    if (w === '--transport' || w === '-t' || w === '--scope' || w === '-s') { i++; continue; }
    if (w === '--env' || w === '-e') {
      for (; i + 1 < words.length && !words[i + 1].startsWith('-'); i++) {
        const m = /^([^=]+)=(.*)$/s.exec(words[i + 1]);
        expect(m, `Invalid environment variable format: ${words[i + 1]}`).not.toBeNull();
        env[m![1]] = m![2];
      }
      continue;
    }
    positional.push(w);
  }
  positional.push(...words.slice(i + 1));
  expect(positional[0]).toBe('simgrep');
  expect(words[words.indexOf('--transport') + 1]).toBe('stdio');
  return { command: positional[1], args: positional.slice(2), env };
}

/** Words of a line of bare and single-quoted words (the forms shellWord writes), as sh splits them. */
export function shellSplit(line: string): string[] {
  const words: string[] = [];
  const re = /\s*((?:\\'|[^\s'\\]+|'[^']*')+)/gy;
  let m: RegExpExecArray | null;
  let end = 0;
  while ((m = re.exec(line)) !== null) {
    end = re.lastIndex;
    words.push(m[1].replace(/'([^']*)'|\\'/g, (q, inner: string | undefined) => (inner !== undefined ? inner : "'")));
  }
  expect(line.slice(end).trim()).toBe('');
  return words;
}
