// The process's dictionary of identifier runs (rank/run-table.ts): a run read in place from any text
// is found again by its characters, whatever string holds it, and a full dictionary starts again.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createRunDictionary, HASH_START, hashStep } from '../../../src/rank/run-table.js';
import { identifierParts, stem } from '../../../src/rank/lexical/terms.js';

const hashOf = (text: string, from: number, to: number) => {
  let h = HASH_START;
  for (let i = from; i < to; i++) h = hashStep(h, text.charCodeAt(i));
  return h;
};
const idOf = (d: ReturnType<typeof createRunDictionary>, text: string, from: number, to: number) => d.id(text, from, to, hashOf(text, from, to));

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

describe('the identifier run dictionary', () => {
  it('keeps a run it met, not the text it read the run from (V8 makes a long slice a view of its source)', () => {
    const d = createRunDictionary();
    gc();
    gc();
    const before = process.memoryUsage().heapUsed;
    const ids: number[] = [];
    for (let i = 0; i < 32; i++) {
      // A flat text of 512 KB (a batch range's decoded lines), an identifier of 27 characters at its start.
      const bytes = Buffer.alloc(512 << 10, 0x20);
      const ident = `retryFailedUploadNumber${String(i).padStart(4, '0')}`;
      bytes.write(ident, 'latin1');
      ids.push(idOf(d, bytes.toString('latin1'), 0, ident.length));
    }
    gc();
    gc();
    const held = process.memoryUsage().heapUsed - before;
    // 32 texts of 512 KB: 16 MB if each run kept its text alive.
    expect(held).toBeLessThan(4 << 20);
    expect(d.whole(ids[31])).toBe('retryfaileduploadnumber0031');
    expect(idOf(d, 'x retryFailedUploadNumber0007', 2, 29)).toBe(ids[7]);
  });

  it('finds a run again in another text, and keeps its lower-cased whole and its parts\' stems', () => {
    const d = createRunDictionary();
    const a = idOf(d, 'x = retryFailedUploads(1)', 4, 22);
    expect(idOf(d, 'retryFailedUploads', 0, 18)).toBe(a);
    expect(idOf(d, 'retryFailedUpload', 0, 17)).not.toBe(a);
    expect(d.whole(a)).toBe('retryfaileduploads');
    expect(d.stems(a)).toEqual(identifierParts('retryFailedUploads').map(stem));
    expect(d.size).toBe(2);
  });

  it('tells runs apart whose hashes collide in the table (many runs, each found as itself)', () => {
    const d = createRunDictionary();
    const words = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}_${(i * 7919) % 1000}`);
    const ids = words.map((w) => idOf(d, ` ${w} `, 1, w.length + 1));
    expect(new Set(ids).size).toBe(words.length);
    words.forEach((w, i) => { expect(idOf(d, w, 0, w.length)).toBe(ids[i]); expect(d.whole(ids[i])).toBe(w.toLowerCase()); });
  });

  it('starts again when full: a new generation, whose ids name the new runs', () => {
    const d = createRunDictionary(3);
    for (const w of ['alpha', 'beta', 'gamma']) idOf(d, w, 0, w.length);
    expect(d.generation).toBe(0);
    const id = idOf(d, 'delta', 0, 5);
    expect(d.generation).toBe(1);
    expect(d.size).toBe(1);
    expect(d.whole(id)).toBe('delta');
    expect(idOf(d, 'alpha', 0, 5)).not.toBe(id);
    expect(d.whole(idOf(d, 'alpha', 0, 5))).toBe('alpha');
  });
});
