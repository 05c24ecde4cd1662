// The candidate pass's covered paths (covered-paths.ts): what every query over the same display list
// shares (which files are covered, their lengths and priors) is kept for the next query, so a query does
// not read every file's object again; and files searched under other names than the path postings' are
// counted on their own, with the same signals whether kept or made anew.
import { describe, expect, it } from 'vitest';
import { bundledLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan } from '../../../src/rank/plan.js';
import { coveredPaths } from '../../../src/workspace/search/covered-paths.js';
import { pathInfo, pathTermCounts, priorsIndex } from '../../../src/workspace/snapshot/path-info.js';
import type { Snapshot } from '../../../src/workspace/snapshot/snapshot.js';
import { build } from '../../helpers/snapshots.js';

const QUERIES = ['retry failed uploads', 'dir1 file007 upload', 'tests for the file reader', 'sharedName', 'config data loader'];

/** The snapshot with its files' chunkCount reads counted. */
function counted(s: Snapshot): { snap: Snapshot; reads: () => number } {
  let reads = 0;
  const files = s.files.map((f) => {
    const { chunkCount, ...rest } = f;
    return Object.defineProperty({ ...rest }, 'chunkCount', { get: () => { reads++; return chunkCount; }, enumerable: true }) as typeof f;
  });
  return { snap: { ...s, files }, reads: () => reads };
}

const plain = (p: ReturnType<typeof coveredPaths>) => ({
  covered: [...p.covered], pathMatchOf: [...p.pathMatchOf], priorOf: [...p.priorOf], pathLengthOf: [...p.pathLengthOf],
  terms: [...p.pathStart].map((from, f) => (from < 0 ? [] : p.pathTerm.slice(from, p.pathEnd[f]).map((t, i) => [t, p.pathCount[from + i]]))),
});

describe('covered paths', () => {
  it('keeps what the queries over one display list share, and counts files under other names on their own', () => {
    const { snap, reads } = counted(build(40, '1'));
    const display = snap.files.map((f) => f.key.slice(3));
    // Four files searched under other names than those the path postings were made with (not past an eighth).
    const renamed = display.map((p, f) => (f % 10 === 3 ? `tests/data/${p.replace('file', 'reader')}` : f % 9 === 5 ? undefined : p));
    for (const names of [display, renamed]) {
      const infos = names.map((p) => (p === undefined ? undefined : pathInfo(p)));
      // The path postings are made with the first list's facts.
      const postingsInfos = display.map((p) => pathInfo(p));
      coveredPaths(snap, { plan: buildRankPlan('warm', 'hybrid', bundledLexicon()), query: new Float32Array(4), display, infos: postingsInfos, heapSize: 10 });
      for (const text of QUERIES) {
        const plan = buildRankPlan(text, 'hybrid', bundledLexicon());
        const q = { plan, query: new Float32Array(4), display: names, infos, heapSize: 10 };
        const before = reads();
        const kept = plain(coveredPaths(snap, q));
        // Every query after the first over a list reads no file's object.
        if (text === QUERIES[0]) expect(reads() - before, text).toBeGreaterThan(30); else expect(reads() - before, text).toBe(0);
        // Made anew (no facts kept by the caller: nothing to keep them by) they are the same.
        expect(plain(coveredPaths(snap, { ...q, infos: undefined })), text).toEqual(kept);
        names.forEach((p, f) => {
          if (p === undefined || names === display || f % 10 !== 3) return;
          const info = infos[f]!;
          const tf = new Float64Array(plan.terms.length);
          const touched: number[] = [];
          pathTermCounts(info, plan, tf, touched);
          expect(kept.covered[f]).toBe(2);
          expect(kept.pathLengthOf[f]).toBe(info.pathText.length);
          expect(kept.terms[f], `${p} ${text}`).toEqual(touched.map((t) => [t, tf[t]]));
          if (kept.pathMatchOf[f] === 0) expect(kept.priorOf[f]).toBe(info.priors[priorsIndex(plan)].prior);
        });
      }
    }
  });
});
