// A prose file counted by its probed lines first (rank/prose-file.ts, prose-counter.ts proseLineProbe; issue 30, the
// first answer's Markdown counting): the bound is never above the distance counting every line gives (a file
// skipped on it would be skipped after counting it whole), the pieces released after it and their statistics
// are the whole count's, and most lines are passed over without their terms looked for.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan } from '../../../src/rank/plan.js';
import { PROBED_MAX, proseLineProbe, proseTermLines } from '../../../src/rank/prose-counter.js';
import { ProseFile } from '../../../src/rank/prose-file.js';
import { LineSplitter, type Piece } from '../../../src/text/line-splitter.js';

const lexicon = parseLexicon('#docs\t1000\ncastle\t10\nthe\t900\nindex\t100\n');
const root = fileURLToPath(new URL('../../../', import.meta.url));
const docs = ['workspace.md', 'cli.md', 'agents.md', 'latency-log.md'].map((f) => readFileSync(path.join(root, 'docs', f), 'utf8'));
const texts = [
  ...docs.map((d) => d.split('\n').slice(0, 400).join('\n')),
  'Run parseConfig on 2025 and 25px, then retry_failed uploads.\r\n\r\nUploadS of RETRIES\r\ncafé 25 uploads\r\nRETRYING the FailedUpload',
  'castle\ncastle king\n\n\nking\nthe king of the castle was rebuilt in 1964',
  'In 1964 the castle was rebuilt.\n1964\n\nA320 and COVID-19 in 1,964 castles, 3.5 km\nretry the index\n\u00a0\n\t \nΚάστρο castle',
  // Every term in capitals, and one number: a probe that missed either would leave the file no line with a term.
  'Nothing to see.\nRETRYING THE FAILED UPLOADS, THE KING OF THE CASTLE\n\nModes: 1964\nthe end',
  // Lines of white space and of control characters (blank or not as String.trim says), a line ending in \r\r.
  'retry\n\u000b\t \f\n\u0001\nuploads failed\r\r\n \r\n\u001c\nthe castle king\rretry',
  // A line whose one term is a number.
  'Nothing much.\nIt happened in 1964, they say\n\nthe end',
  'Der Schlüssel öffnet das Schloss.\nDie Schlüssel der Burg\nSCHLÜSSEL und schlüssel\nkey and castle',
];
const queries = [
  'retry failed uploads', 'parseConfig', 'which mode should I use to search a document', 'the index format version',
  'castle king', 'which castle was rebuilt in 1964?', 'uploading retries', 'how does find_related pick its chunks',
  'Schlüssel der Burg', 'the first answer from nothing', 'MCP server instructions',
  // A pasted block, as find_related asks: more probes than PROBED_MAX, counted in full.
  docs[0].slice(0, 600),
];

/** The text's pieces as the pipeline makes them (pieces of 7 lines: a file over many). */
function piecesOf(text: string): Piece[] {
  const s = new LineSplitter({ pieceLines: 7, contextLines: 1, maxPieceBytes: 1 << 20, alignLines: 1 });
  return [...s.push(new TextEncoder().encode(text)), ...s.end()];
}

describe('a prose file counted by its probed lines', () => {
  it('bounds the whole count\'s distance from below, releases the same pieces and statistics, and counts few lines', () => {
    let probedLines = 0;
    let wholeLines = 0;
    let equal = 0;
    let cases = 0;
    for (const query of queries) {
      const plan = buildRankPlan(query, 'hybrid', lexicon);
      const probe = proseLineProbe(plan);
      expect(probe === null).toBe(new Set(plan.terms.map((t) => t.key)).size + (plan.prose?.numbers.length ?? 0) > PROBED_MAX);
      texts.forEach((text, f) => {
        const file = `docs/file-${f}.md`;
        const where = `${query.slice(0, 40)} / text ${f}`;
        const whole = new ProseFile(plan);
        const probed = new ProseFile(plan, undefined, true);
        let at = proseTermLines();
        for (const p of piecesOf(text)) expect(whole.push(p), where).toEqual([]);
        wholeLines += proseTermLines() - at;
        at = proseTermLines();
        for (const p of piecesOf(text)) expect(probed.push(p), where).toEqual([]);
        if (probe) probedLines += proseTermLines() - at;
        const bound = probed.probedDistance(file);
        const released = whole.end();
        const exact = whole.bestDistance(file);
        if (probe) {
          expect(bound, where).toBeLessThanOrEqual(exact);
          expect(probed.outOfReach(file, exact), where).toBe(false);
          if (bound >= exact * (1 - 1e-6)) equal++;
          cases++;
        } else {
          expect(bound, where).toBe(0);
        }
        // Within reach: the lines counted again in full, the pieces and statistics the whole count's.
        expect(probed.end(), where).toEqual(released);
        expect(probed.stats, where).toEqual(whole.stats);
        expect(probed.bestDistance(file), where).toBe(exact);
      });
    }
    // Most lines hold no query term's probe: their terms are never looked for.
    expect(probedLines).toBeLessThan(wholeLines / 3);
    // The gram frequencies are all the bound leaves out: it is the whole count's distance for many files.
    expect(equal).toBeGreaterThan(cases / 4);
  });

  it('is no bound while the statistics are taken at the cap, nor where the heap skips nothing', () => {
    const plan = buildRankPlan('retry failed uploads', 'hybrid', lexicon);
    const probed = new ProseFile(plan, undefined, true);
    for (const p of piecesOf(texts[4])) probed.push(p);
    expect(probed.outOfReach('a.md', Infinity)).toBe(false);
    expect(probed.outOfReach('a.md', 0)).toBe(true);
    const known = new ProseFile(plan, { idf: [1], norm: 1, avgChars: 1, gramIdf: [], gramNorm: 0 }, true);
    expect(known.probedDistance('a.md')).toBe(0);
  });
});

describe('a probed count\'s lines', () => {
  it('looks for terms in the line that holds a probe and in none after it that holds none (the search resumes past a hit)', () => {
    const plan = buildRankPlan('castle', 'hybrid', lexicon);
    // One piece of 7 ASCII lines (addAscii): the first holds the probe, the other six do not.
    const text = ['the castle gate', 'a wall of stone', 'the king rode out', 'rain fell', 'the moat froze', 'dogs barked', 'night came'].join('\n');
    const pieces = piecesOf(text);
    expect(pieces.length).toBe(1);
    const probed = new ProseFile(plan, undefined, true);
    const at = proseTermLines();
    probed.push(pieces[0]);
    expect(proseTermLines() - at).toBe(1);
  });

  it('counts a file it passed over no line of once: its probed count is the statistics (non-ASCII text)', () => {
    const plan = buildRankPlan('索引文件 重试 上传', 'hybrid', lexicon);
    const lines = Array.from({ length: 60 }, (_, i) => `第${i}行：索引文件的格式版本，检索失败的上传会重试。`);
    const text = lines.join('\n');
    const whole = new ProseFile(plan);
    for (const p of piecesOf(text)) whole.push(p);
    const released = whole.end();
    const probed = new ProseFile(plan, undefined, true);
    const at = proseTermLines();
    for (const p of piecesOf(text)) probed.push(p);
    expect(probed.outOfReach('a.md', whole.bestDistance('a.md'))).toBe(false);
    expect(probed.end()).toEqual(released);
    // Each line's terms looked for once: not once probed and again for the statistics.
    expect(proseTermLines() - at).toBe(lines.length);
    expect(probed.stats).toEqual(whole.stats);
    expect(probed.bestDistance('a.md')).toBe(whole.bestDistance('a.md'));
  });
});
