// A kept prose document let go for room (past KEPT_BYTES) is let go by the prose files' cache of the
// kept line terms too (prose-source.ts keptAt, branch warm30): before, the cache held every listed
// document's line terms until its coverage was searched again, past the kept documents' bound.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { bundledLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan } from '../../../src/rank/plan.js';
import { toFloat16 } from '../../../src/workspace/packed/float16.js';
import { documentState, KEPT_BYTES, keepDocument, keptLines, keptLinesCounted } from '../../../src/workspace/search/kept-documents.js';
import { splitProse } from '../../../src/workspace/search/prose-source.js';
import { emptySnapshot, patchSnapshot } from '../../../src/workspace/snapshot/snapshot.js';
import { TermCollector } from '../../../src/workspace/snapshot/term-collector.js';
import { idents } from '../../helpers/snapshots.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

describe('kept line terms let go for room', () => {
  it('are not held by a listed coverage until it is searched again', async () => {
    const DIM = 8;
    const docs = Array.from({ length: 12 }, (_, f) => `/k/doc-${f}.md`);
    const terms = new TermCollector();
    const rows = docs.map((path, i) => {
      terms.add(i, idents(terms, 'castle river bridge'));
      return { path, start: 0, end: 48, hasTokens: true, chars: 60, blank: false, defs: [], halves: toFloat16(Float32Array.from({ length: DIM }, (_, d) => Math.sin(i + d))) };
    });
    const files = docs.map((key, i) => ({ key, size: 40 + i, mtime: 2, hash: `h${i}`, kind: 'text' as const, lines: 4 }));
    const s = patchSnapshot(emptySnapshot(DIM, '1.1'), { dropChunksOf: new Set(), dropFiles: new Set(), files, rows, terms }, '1.1');
    const display = s.files.map((f) => f.key);
    const plan = buildRankPlan('castle river bridge', 'hybrid', bundledLexicon());
    const line = 'The castle by the river and the bridge over the road. '.repeat(20);
    s.files.forEach((f, i) => keepDocument(documentState(f), new TextEncoder().encode(Array.from({ length: 300 }, (_, j) => `Line ${j} of doc ${i}: ${line}\n`).join(''))));
    const alive = setInterval(() => {}, 1000);
    await keptLinesCounted();
    clearInterval(alive);
    const refs = s.files.map((f) => new WeakRef(keptLines({ path: f.key, state: documentState(f) })!));
    expect(refs.every((r) => r.deref() !== undefined)).toBe(true);
    // Listed once: the coverage's prose files look the kept line terms up and keep them.
    let listed = 0;
    for await (const _ of splitProse(s, display, {}, plan, { keepBytes: true }).prose.list()) listed++;
    expect(listed).toBe(12);
    // Other documents, past KEPT_BYTES: ours, the oldest, are let go.
    for (let i = 0; i < Math.ceil(KEPT_BYTES / (4 << 20)) + 1; i++) keepDocument(`other\0${i}`, new Uint8Array(4 << 20).fill(10));
    expect(s.files.filter((f) => keptLines({ path: f.key, state: documentState(f) }) !== undefined)).toEqual([]);
    await new Promise((r) => setImmediate(r));
    gc();
    gc();
    expect(refs.filter((r) => r.deref() !== undefined).length).toBe(0);
    expect(display.length).toBe(12); // the coverage is still alive
  });
});
