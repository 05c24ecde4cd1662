// Every search and find_related answer fits the output schema the server lists: the server does not check
// its own answers against it on each call (server.ts), so this does, over budgets that keep everything,
// turn matches compact, leave them out, and locations only.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { buildAnswer } from '../../../src/mcp/answer.js';
import { answerShape } from '../../../src/mcp/server.js';
import type { SearchResult } from '../../../src/rank/windows.js';

const source = readFileSync(path.join(import.meta.dirname, '../../../src/mcp/front.ts'), 'utf8').split('\n');
const results: SearchResult[] = Array.from({ length: 11 }, (_, i) => {
  const start = i * 9;
  const lines = source.slice(start, start + 7 + (i % 3));
  return { filename: `/root/src/f${i}.ts`, lines, start, end: start + lines.length, match_line: start + 3, distance: 0.3 + i / 20, matches: [{ line: start + 3, distance: 0.3 + i / 20 }] };
});

describe('buildAnswer: the structured content fits the listed output schema', () => {
  const schema = z.object(answerShape).strict();
  for (const maxTokens of [200, 400, 900, 2000, 4000]) {
    for (const withCode of [true, false]) {
      it(`max_tokens ${maxTokens}, ${withCode ? 'with code' : 'locations only'}`, () => {
        const a = buildAnswer({ results, mode: 'hybrid', maxTokens, withCode, filesSearched: 9, more: true, index: 'fresh', notes: ['a note'] });
        const parsed = schema.safeParse(a.structuredContent);
        expect(parsed.success, parsed.error?.message).toBe(true);
        expect(parsed.data).toEqual(a.structuredContent);
      });
    }
  }
  it('the budgets above do turn matches compact and leave some out', () => {
    const cuts = [200, 900].map((maxTokens) => buildAnswer({ results, mode: 'hybrid', maxTokens, withCode: true, filesSearched: 9, more: false, index: 'fresh', notes: [] }).structuredContent.budget);
    expect(cuts[0].dropped).toBeGreaterThan(0);
    expect(cuts[1].compacted).toBeGreaterThan(0);
  });
});

describe('buildAnswer: a long hunk is cut on a code point boundary', () => {
  it('8000 characters of emoji after one letter: the code is well-formed, ending "…"', () => {
    const lines = [`a${'😀'.repeat(5000)}`];
    const a = buildAnswer({ results: [{ filename: '/root/e.ts', lines, start: 0, end: 1, match_line: 0, distance: 0.3 }], mode: 'hybrid', maxTokens: 100_000, withCode: true, filesSearched: 1, more: false, index: 'fresh', notes: [] });
    const code = a.structuredContent.matches[0].code!;
    expect(code).toBe(`a${'😀'.repeat(3999)}…`);
    expect(code).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });
});
