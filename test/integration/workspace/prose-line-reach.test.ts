// Branch rel33 (review gap33): outOfReach's last bound before a prose document is read, proseLineReach
// (rank/prose-lines.ts), pairs each line's lexical bound (its kept line terms: ownLine) with that same
// line's cosine bound (its kept tokens: prose-source.ts proseLineCosine, lineBest). Here a resident tree
// whose Markdown documents put a code file's words on some lines and code-like text on others, searched
// for code like a code file's line (what makes the bound skip on the bench tree): the bound skips
// documents the older bounds keep, and every answer is the scan's, byte for byte.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { proseLineReachWork } from '../../../src/pipeline/unread-prose.js';
import type { SearchOptions } from '../../../src/searcher/api.js';
import { keptLinesCounted } from '../../../src/workspace/search/kept-documents.js';
import { residentTree } from '../../helpers/resident-tree.js';
import { mulberry32 } from '../../helpers/seeded.js';

const rand = mulberry32(33);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
const NAMES = ['upload', 'retry', 'attempts', 'backoff', 'buffer', 'socket', 'parse', 'token', 'cache', 'index', 'queue', 'worker'];
const PROSE = ['the', 'team', 'meets', 'on', 'monday', 'to', 'plan', 'garden', 'budget', 'review', 'notes', 'travel', 'lunch', 'weather', 'river', 'a', 'long', 'walk'];
const code = (n: number) => Array.from({ length: 8 }, (_, i) => {
  const a = NAMES[(n + i) % NAMES.length], b = NAMES[(n * 3 + i + 1) % NAMES.length];
  return [
    `export async function ${a}${b[0].toUpperCase()}${b.slice(1)}${n}x${i}(${a}: string, ${b} = ${i + 2}) {`,
    `  for (let k = 0; k < ${b}; k++) { if (await ${a}(${a}, k)) return ${b} * ${n + i}; }`,
    `  throw new Error(\`${a} failed: \${${a}}\`);`,
    '}',
    '',
  ].join('\n');
}).join('\n');
/** A Markdown document (CRLF, blank lines, numbers): prose lines, some holding a code word among many others, and now and then a code-like line. */
const doc = (n: number) => Array.from({ length: 30 }, (_, i) => {
  const r = rand();
  if (r < 0.15) return '';
  if (r < 0.3) return `    await ${pick(NAMES)}(${pick(NAMES)}, ${Math.floor(rand() * 100)});`;
  const words = Array.from({ length: 6 + Math.floor(rand() * 14) }, () => (rand() < 0.12 ? pick(NAMES) : pick(PROSE)));
  return `${words.join(' ')} ${n}.${i}`;
}).join('\r\n');

const FILES: Record<string, string> = {};
for (let n = 0; n < 10; n++) FILES[`src/net-${n}.ts`] = code(n);
for (let n = 0; n < 60; n++) FILES[`docs/note-${String(n).padStart(2, '0')}.md`] = doc(n);
/** Documents that quote a code file's function (one line of it each) among prose: their best line is that one line. */
for (let n = 0; n < 24; n++) {
  const quoted = code(n % 10).split('\n')[(n * 5 + 1) % 40];
  FILES[`docs/sample-${String(n).padStart(2, '0')}.md`] = [`# Sample ${n}`, '', ...Array.from({ length: 6 }, () => doc(n + 100).split('\r\n')[Math.floor(rand() * 30)]), '```ts', quoted, '```', '', `The ${pick(PROSE)} ${pick(PROSE)} after ${n * 7} days.`, ''].join('\r\n');
}

const t = residentTree(FILES);

/** A search on the resident workspace: its answer (JSON, as the CLI's --json prints it) and how many documents proseLineReach skipped. */
async function skipsAndAnswer(o: SearchOptions): Promise<{ skips: number; answer: string }> {
  const before = proseLineReachWork().skips;
  const r = await t.ws.search(o);
  expect(r.stats.index?.workspace).toBeDefined();
  return { skips: proseLineReachWork().skips - before, answer: JSON.stringify(r.results) };
}

describe('proseLineReach skips prose documents on a resident tree (branch rel33, review gap33)', () => {
  it('find_related on code lines, a pasted code block, a question: documents skipped by the line bound, answers byte-equal to the scan\'s', async () => {
    // batchLines 32: the heap fills (and its floor falls) after a few documents, as after a few MB of
    // them on the bench tree; a search answers alike at any batch size.
    const search = (o: Omit<SearchOptions, 'paths'>): SearchOptions => ({ mode: 'hybrid', batchLines: 32, ...o, paths: [t.dir] });
    const like: SearchOptions[] = [];
    for (const n of [0, 3, 6, 9]) for (const line of [1, 2, 13]) for (const topK of [1, 10]) like.push(search({ query: '', like: { path: path.join(t.dir, `src/net-${n}.ts`), line }, topK }));
    const others = [
      search({ query: code(3).split('\n').slice(0, 4).join('\n'), topK: 5 }),
      search({ query: 'where do we retry a failed upload with backoff after 3 attempts?', topK: 5 }),
    ];
    // Every prose document counted and its line tokens kept (what proseLineCosine reads).
    await t.ws.search(search({ query: 'retry an upload' }));
    await keptLinesCounted();
    let skips = 0;
    let quoting = 0;
    for (const o of [...like, ...others]) {
      const got = await skipsAndAnswer(o);
      skips += got.skips;
      expect(got.answer).toEqual(JSON.stringify((await t.scan.search(o)).results));
      if (got.answer.includes('sample-')) quoting++;
    }
    // Skipped by proseLineReach itself: the older bounds (proseReach, proseBest) kept these documents.
    expect(skips).toBeGreaterThan(0);
    // Documents whose one quoted line enters the answer: a bound that took another line's cosine for it would skip them.
    expect(quoting).toBeGreaterThan(0);
  });
});
