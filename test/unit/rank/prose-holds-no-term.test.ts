// Whether a prose file's kept line terms hold no term of a plan (rank/prose-lines.ts proseHoldsNoTerm, branch
// warm37): true exactly when counting each of its lines finds none (rank/prose.ts lineTerms null for every
// line), numbers and stems included, so a document read for a search is scored with every line's lexical 0.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan } from '../../../src/rank/plan.js';
import { proseHoldsNoTerm, ProseLinesBuilder } from '../../../src/rank/prose-lines.js';
import { lineTerms } from '../../../src/rank/prose.js';

const lexicon = parseLexicon('#docs\t1000\ncastle\t10\nthe\t900\nindex\t100\n');
const root = fileURLToPath(new URL('../../../', import.meta.url));
const texts = [
  readFileSync(path.join(root, 'docs', 'workspace.md'), 'utf8').split('\n').slice(0, 120).join('\n'),
  'Run parseConfig on 2025 and 25px, then retry_failed uploads.\n\nUploadS of RETRIES\ncafé 25 uploads',
  'castle\ncastle king\n\n\nking\nthe king of the castle was rebuilt in 1964',
  'In 1964 the castle was rebuilt.\n1964\n\nA320 and COVID-19 in 1,964 castles, 3.5 km',
  'The garden needs water.\n\nCompost the soil in spring.',
  'Axios interceptors\nthe InterceptorManager keeps handlers',
];
const queries = [
  'InterceptorManager', 'Axios', 'parseConfig', 'retry failed uploads', 'uploading retries', 'castle king', 'which castle was rebuilt in 1964?',
  '2025', 'A320', 'the index format version', 'CliRunner', 'garden', 'gardens', 'how does find_related pick its chunks',
];

function built(lines: string[]) {
  const b = new ProseLinesBuilder();
  for (const line of lines) b.add(line);
  return b.done()!;
}

describe('a prose file that holds no term of a plan', () => {
  it('is one whose every line counts none, terms, stems and numbers alike', () => {
    let none = 0;
    let some = 0;
    for (const query of queries) {
      const plan = buildRankPlan(query, 'hybrid', lexicon);
      for (const text of texts) {
        const lines = text.split('\n');
        const tf = new Float64Array(plan.terms.length + (plan.prose?.numbers.length ?? 0) + 1);
        const counted = lines.every((line) => lineTerms(line, plan, tf, []) === null);
        expect({ query, text: text.slice(0, 30), holdsNoTerm: proseHoldsNoTerm(built(lines), plan) }).toEqual({ query, text: text.slice(0, 30), holdsNoTerm: counted });
        if (counted) none++; else some++;
      }
    }
    expect(none).toBeGreaterThan(10);
    expect(some).toBeGreaterThan(10);
  });
});
