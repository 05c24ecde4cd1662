// A prose file cut by the deadline before its statistics were taken (rank/prose-file.ts cut): session 44 dropped
// its held pieces; now they and the lines read since are released in file order with the statistics of what was
// read (the same a file that ended there gives), at most one batch of lines and bytes.
import { describe, expect, it } from 'vitest';
import { parseLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan } from '../../../src/rank/plan.js';
import { ProseFile } from '../../../src/rank/prose-file.js';
import { LineSplitter, type Piece } from '../../../src/text/line-splitter.js';

const plan = buildRankPlan('retry failed uploads', 'hybrid', parseLexicon('#docs\t1000\nretry\t10\nthe\t900\n'));
const text = Array.from({ length: 40 }, (_, i) => (i === 5 ? 'we retry the failed uploads' : `line ${i} about the castle`)).join('\n') + '\n';

function pieces(): Piece[] {
  const s = new LineSplitter({ pieceLines: 8, contextLines: 1, maxPieceBytes: 1 << 20, alignLines: 1 });
  return [...s.push(new TextEncoder().encode(text)), ...s.end()];
}
const lines = (ps: Piece[]) => ps.map((p) => [p.firstLine + p.scoreFrom, p.firstLine + p.scoreTo]);

describe('ProseFile.cut', () => {
  for (const probed of [false, true]) {
    it(`${probed ? 'probed' : 'whole'} count: the held pieces and the rest, in order, with the statistics of the lines read`, () => {
      const all = pieces();
      const cutFile = new ProseFile(plan, undefined, probed);
      for (const p of all.slice(0, 3)) expect(cutFile.push(p)).toEqual([]);
      const out = cutFile.cut(all.slice(3), 2048, 1 << 20);
      expect(lines(out)).toEqual(lines(all));
      const ended = new ProseFile(plan);
      for (const p of all) ended.push(p);
      ended.end();
      expect(cutFile.stats).toEqual(ended.stats);
    });
  }

  it('releases at most one batch: the first pieces that fit in maxLines', () => {
    const all = pieces();
    const f = new ProseFile(plan);
    for (const p of all) f.push(p);
    expect(lines(f.cut([], 16, 1 << 20))).toEqual(lines(all.slice(0, 2)));
    expect(f.stats).not.toBeNull();
  });
});
