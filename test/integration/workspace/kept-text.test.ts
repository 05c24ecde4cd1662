// Regression guard (issue 30, warm search rescoring): a resident workspace keeps the candidate files' text
// (src/workspace/search/kept-text.ts): the bytes its index build read, and the files its searches and its
// warm-up read, under the index's state of each file (key, size, mtime and content hash: no ctime, as the
// hash is of the very bytes kept). A file edited afterwards (same size, so only its mtime, ctime and hash
// tell; or its mtime set back too, so only its ctime and hash) must be read again: the answer shows the edit,
// never the kept text. And windows cut
// from the kept text are the scan's, whatever the file's bytes (CRLF, no last newline, BOM, UTF-16, bad
// UTF-8, lines past 16 KiB).
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import type { SearchOptions } from '../../../src/searcher/api.js';
import { keptText } from '../../../src/workspace/search/kept-text.js';
import { residentTree } from '../../helpers/resident-tree.js';

const body = (word: string) => [
  'export function retryFailedUploads(queue: string[]) {',
  `  // ${word}: retry failed uploads with backoff`,
  '  return queue.length;',
  '}',
].join('\n');
const code = (name: string) => Array.from({ length: 60 }, (_, i) => `export function ${name}Step${i}(input: number) { return input + ${i}; } // ${name} step`);
const utf16 = (text: string) => Uint8Array.from([0xff, 0xfe, ...Buffer.from(text, 'utf16le')]);

const t = residentTree({
  'upload.ts': `${body('first')}\n`,
  'built.ts': `${body('built')}\n`.replace('retryFailedUploads', 'resendLostParcels').replace('retry failed uploads', 'resend lost parcels'),
  'other.ts': 'export const colour = "blue";\n',
  'crlf.ts': code('crlf').join('\r\n'),
  'bom.ts': `\ufeff${code('bom').join('\n')}\n`,
  'wide.ts': utf16(`${code('wide').join('\n')}\n`),
  'bad.ts': Uint8Array.from([...Buffer.from(code('bad').slice(0, 30).join('\n')), 0xff, 0xc3, 10, ...Buffer.from(code('bad').slice(30).join('\n'))]),
  'long.ts': [...code('long').slice(0, 20), `const longLine = "${'x'.repeat(20_000)}"; // long step`, ...code('long').slice(20)].join('\n'),
});
const { scan } = t;

const top = async (query: string) => (await t.ws.search({ query, paths: [t.dir], topK: 1 })).results[0].lines.join('\n');

/** Searches until the answer shows `word` (the workspace sees the edit through its watcher or its stale check). */
async function until(query: string, word: string): Promise<string> {
  let text = '';
  for (let i = 0; i < 30 && !text.includes(word); i++) {
    text = await top(query);
    if (!text.includes(word)) await new Promise((done) => setTimeout(done, 100));
  }
  return text;
}

it('an index build keeps its code files cut into lines (a first-time question cuts none), but those readText does more to', async () => {
  // The 8 files but bom.ts (a BOM), wide.ts (UTF-16) and long.ts (a line past 16 KiB): cut as they were kept (branch newq44).
  expect(keptText.held().files).toBe(8); // before any search: the build's
  expect(keptText.heldCut()).toBe(5);
});

it('windows cut from the kept text are the scan\'s, whatever the bytes', async () => {
  expect(keptText.held().files).toBeGreaterThanOrEqual(8); // the build's bytes
  for (const name of ['crlf', 'bom', 'wide', 'bad', 'long']) {
    for (const o of [{ query: `${name} step`, topK: 6, nLines: 4 }, { query: `${name}Step29 input`, topK: 3, nLines: 40, mode: 'lexical' }] as Omit<SearchOptions, 'paths'>[]) {
      const opts = { ...o, paths: [t.dir] };
      for (let pass = 0; pass < 2; pass++) expect((await t.ws.search(opts)).results).toEqual((await scan.search(opts)).results);
    }
  }
});

it('a file the index build kept cut, edited between two searches, is read again: the answer is a fresh scan\'s', async () => {
  const opts = { query: 'colour blue', paths: [t.dir], topK: 2, nLines: 2 };
  expect((await t.ws.search(opts)).results).toEqual((await scan.search(opts)).results);
  writeFileSync(path.join(t.dir, 'other.ts'), 'export const colour = "teal";\n'); // the same size
  await until('colour blue', 'teal');
  expect((await t.ws.search(opts)).results).toEqual((await scan.search(opts)).results);
  expect((await t.ws.search(opts)).results[0].lines.join('\n')).toContain('teal');
});

it('a file the index build kept, edited before any search, is read again', async () => {
  const query = 'resend lost parcels';
  writeFileSync(path.join(t.dir, 'built.ts'), `${body('again')}\n`.replace('retryFailedUploads', 'resendLostParcels').replace('retry failed uploads', 'resend lost parcels')); // the same size as 'built'
  const text = await until(query, 'again:');
  expect(text).toContain('again:');
  expect(text).not.toContain('built:');
});

it('a file edited between two warm searches is read again, not served from the kept text', async () => {
  const query = 'retry failed uploads';
  expect(await top(query)).toContain('first:');
  expect(await top(query)).toContain('first:'); // served from the kept text
  writeFileSync(path.join(t.dir, 'upload.ts'), `${body('again')}\n`); // the same size
  const text = await until(query, 'again:');
  expect(text).toContain('again:');
  expect(text).not.toContain('first:');
});

it('a kept file edited keeping its size and mtime (touch -r) between two warm searches is read again: its ctime tells', async () => {
  // The kept text's key has no ctime: the stale check's does, so the index takes the edit's state (another hash) first.
  const query = 'resend lost parcels';
  const file = path.join(t.dir, 'built.ts');
  const before = await top(query);
  expect(before).toContain('resend lost parcels');
  const word = before.includes('again:') ? 'later:' : 'again:';
  writeFileSync(`${file}.ref`, '');
  execFileSync('touch', ['-r', file, `${file}.ref`]); // the old mtime to the nanosecond (Node's utimes keeps less)
  writeFileSync(file, `${body(word.slice(0, -1))}\n`.replace('retryFailedUploads', 'resendLostParcels').replace('retry failed uploads', 'resend lost parcels'));
  execFileSync('touch', ['-r', `${file}.ref`, file]);
  rmSync(`${file}.ref`);
  const text = await until(query, word);
  expect(text).toContain(word);
  expect(text).not.toContain(before.includes('again:') ? 'again:' : 'built:');
});
