// Shared helpers for tokenizer parity tests: the library's ids, fixture loading, and a readable
// description of the first disagreement.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import type { LineTokenizer } from '../../../src/model/tokenizer/index.js';
import { model2vecFixtures } from '../../helpers/shared.js';

export function loadFixtureTokenizer(dir: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(model2vecFixtures, dir, 'tokenizer.json'), 'utf8'));
}

export function libraryIds(json: unknown, lines: string[]): number[][] {
  const lib = new Tokenizer(json as never, {});
  return lines.map((l) => lib.encode(l, { add_special_tokens: false }).ids);
}

/** A readable description of the first line where `tok` disagrees with `expected`, or null. */
export function firstMismatch(tok: LineTokenizer, lines: string[], expected: number[][]): string | null {
  for (let i = 0; i < lines.length; i++) {
    const got = Array.from(tok.encode(lines[i]));
    const want = expected[i];
    if (got.length === want.length && got.every((v, k) => v === want[k])) continue;
    let k = 0;
    while (k < got.length && got[k] === want[k]) k++;
    const show = (s: string) => JSON.stringify(s.length > 300 ? `${s.slice(0, 300)}…(${s.length} chars)` : s);
    return [
      `line ${i} ${show(lines[i])} (${tok.kind})`,
      `  first difference at id #${k} of ${want.length} expected / ${got.length} got`,
      `  expected ${JSON.stringify(want.slice(Math.max(0, k - 3), k + 8))}`,
      `  got      ${JSON.stringify(got.slice(Math.max(0, k - 3), k + 8))}`,
    ].join('\n');
  }
  return null;
}
