// A long query's part probes are looked for in each identifier run with one regular expression
// (rank/term-index.ts anyOf; issue 30: ~20 includes per run of every prose document read): it must
// say what some(includes) says, for any needles, regular-expression characters and other scripts included.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyOf, countRun, probeOf, runHitsOf, termIndexOf } from '../../../src/rank/term-index.js';
import { HASH_START, hashStep, identifierRuns, runFirst } from '../../../src/rank/run-table.js';
import { stem } from '../../../src/rank/lexical/terms.js';
import { parseLexicon } from '../../../src/rank/lexical/lexicon.js';
import { buildRankPlan, type RankPlan } from '../../../src/rank/plan.js';
import { asciiLineHits, chunkStats, countTerms } from '../../../src/rank/chunk-scorer.js';

const unit = fc.constantFrom('a', 'b', '_', '1', '.', '*', '\\', '[', ']', '(', '|', '^', '$', '-', '/', '?', '+', '{', 'é', '城', '\uD83D', '\uDE00');
const text = fc.string({ unit, maxLength: 12 });

describe('anyOf', () => {
  it('says whether a text holds one of the needles, as some(includes) does', () => {
    fc.assert(fc.property(fc.array(fc.string({ unit, minLength: 1, maxLength: 4 }), { maxLength: 8 }), fc.array(text, { maxLength: 20 }), (needles, texts) => {
      const holds = anyOf(needles);
      for (const t of texts) expect(holds(t), `${JSON.stringify(needles)} in ${JSON.stringify(t)}`).toBe(needles.some((n) => t.includes(n)));
    }), { numRuns: 500 });
    expect(anyOf([])('abc')).toBe(false);
    expect(anyOf(['', 'x'])('abc')).toBe(true);
    expect(anyOf(['a.c'])('abc')).toBe(false);
  });
});

// A 3-letter stem from an -ies word (`tries` -> `try`) was its own probe, which `tries` does not hold,
// so a query for "tries" never counted the lines that say "tries" (hot30's report, session 22).
describe('probeOf', () => {
  it('is held by every word that stems to the term', () => {
    const letter = fc.constantFrom(...'abcdefilnoprstuy');
    fc.assert(fc.property(fc.string({ unit: letter, minLength: 1, maxLength: 9 }), (word) => {
      const key = stem(word);
      expect(word.includes(probeOf({ key, whole: false } as RankPlan['terms'][number])), `${word} -> ${key}`).toBe(true);
    }), { numRuns: 2000 });
    for (const word of ['tries', 'flies', 'skies', 'handling', 'stopped', 'routes']) {
      expect(word.includes(probeOf({ key: stem(word), whole: false } as RankPlan['terms'][number])), word).toBe(true);
    }
  });

  it('lets a query for "tries" count the lines that say it', () => {
    const plan = buildRankPlan('tries again', 'lexical', parseLexicon('#docs\t1000\ntry\t20\n'));
    const tf = new Float64Array(plan.terms.length);
    expect(countTerms('the client tries to reconnect', plan, tf)).toBe(true);
  });
});

// chunkStats takes each line's terms from asciiLineHits (issue 30: one lower-casing and one search per
// probe over a scored range's lines joined, not per line): each line's hits must be what countTerms
// counts in that line alone, term by term and count by count, whatever the lines, the plan, blank lines,
// identifiers at a line's start or end, leading digits and line ends.
describe('asciiLineHits', () => {
  const lexicon = parseLexicon('#docs\t1000\nretry\t20\nupload\t30\nfail\t40\nconfig\t50\n');
  const word = fc.constantFrom('retry', 'Retries', 'upload', 'UPLOADS', 'failed', 'config', 'x', 'parseConfig', 'retryUpload', '_fail', '9retry', '8_retry', '2025', 'up', '');
  const sep = fc.constantFrom(' ', '.', '(', '_', '', '\t', '//', '\r');
  const line = fc.array(fc.tuple(word, sep), { maxLength: 6 }).map((ws) => ws.map(([w, s]) => w + s).join(''));
  it("gives each line countTerms' counts of it", () => {
    fc.assert(fc.property(fc.constantFrom('retry failed uploads', 'parse the config', 'retryUpload', 'fail', 'config config retry'), fc.array(line, { maxLength: 30 }), (query, lines) => {
      const plan = buildRankPlan(query, 'hybrid', lexicon);
      const hits = asciiLineHits(lines, plan);
      expect(hits).not.toBeNull();
      expect(hits!.lines.every((l, k) => k === 0 || l >= hits!.lines[k - 1])).toBe(true);
      lines.forEach((l, i) => {
        const tf = new Float64Array(plan.terms.length);
        countTerms(l, plan, tf);
        const got = new Float64Array(plan.terms.length);
        hits!.lines.forEach((at, k) => { if (at === i) got[hits!.terms[k]]++; });
        expect([...got], `${query}: ${JSON.stringify(l)}`).toEqual([...tf]);
      });
    }), { numRuns: 500 });
  });

  it('leaves lines that are not all ASCII to countTerms', () => {
    const plan = buildRankPlan('retry failed uploads', 'hybrid', lexicon);
    expect(asciiLineHits(['retry', 'réessayer'], plan)).toBeNull();
    const hits = asciiLineHits(['', 'no', 'a retry', 'x', 'uploads uploaded'], plan)!;
    expect(hits.lines).toEqual([2, 4, 4]);
    expect(hits.terms.map((t) => plan.terms[t].key)).toEqual(['retry', 'upload', 'upload']);
  });

  // A scan's worker knows whether a range's lines are ASCII from the bytes it decoded them from
  // (embed/chunk-scoring.ts: node:buffer isAscii), and hands that over instead of a test of the lines.
  it("takes the caller's word for whether the lines are all ASCII", () => {
    const plan = buildRankPlan('retry failed uploads', 'hybrid', lexicon);
    const lines = ['', 'no', 'a retry', 'x', 'uploads uploaded'];
    expect(asciiLineHits(lines, plan, false), 'said not ASCII: left to countTerms').toBeNull();
    expect(asciiLineHits(lines, plan, true)).toEqual(asciiLineHits(lines, plan));
  });

  // Said ASCII wrongly: `İ` lower-cases to two chars, so the lower-cased text's spans run past the lines
  // (it threw, failing the whole batch). The lines are then counted one by one, as countTerms counts them.
  it('gives null, not a throw, where lines said ASCII lower-case to another length', () => {
    const plan = buildRankPlan('retry failed uploads', 'hybrid', lexicon);
    const lines = ['retry', 'İİİİİİ upload', 'retry'];
    expect(asciiLineHits(lines, plan, true)).toBeNull();
    expect(chunkStats(lines, 0, 'src/a.ts', plan, undefined, true)).toEqual(chunkStats(lines, 0, 'src/a.ts', plan));
  });
});

describe("the chunk scorer's identifiers", () => {
  it("are looked up in the thread's run dictionary: each distinct identifier's terms worked out once, its whole and its parts' stems", () => {
    const lexicon = parseLexicon('#docs\t1000\nrequest\t20\nhandler\t30\nregister\t40\n');
    const plan = buildRankPlan('where is the request handler registered', 'hybrid', lexicon);
    const ident = 'registerQzxRequestHandlers';
    const lines = [`app.${ident}(router);`, 'const x = 1;', `// ${ident} again, and requests`];
    const hits = asciiLineHits(lines, plan)!;
    // The dictionary knows the identifier and the plan's terms it counts for (first36: was a Map of stems
    // per identifier text, compared with every term, the dictionary untouched).
    let h = HASH_START;
    for (let i = 0; i < ident.length; i++) h = hashStep(h, ident.charCodeAt(i));
    const known = identifierRuns.size;
    const id = identifierRuns.id(ident, 0, ident.length, h);
    expect(identifierRuns.size).toBe(known);
    const r = runHitsOf(termIndexOf(plan));
    const first = runFirst(r, id);
    expect(first).toBeGreaterThanOrEqual(0);
    const keys = r.terms.slice(first, first + r.table.count[id]).map((t) => plan.terms[t].key).sort();
    expect(keys).toEqual(['handler', 'register', 'request'].map(stem).sort());
    // What countTerms counts line by line.
    const want: number[][] = lines.map((l) => { const tf = new Float64Array(plan.terms.length); countTerms(l, plan, tf); return [...tf]; });
    const got: number[][] = lines.map(() => new Array<number>(plan.terms.length).fill(0));
    hits.lines.forEach((line, k) => { got[line][hits.terms[k]]++; });
    expect(got).toEqual(want);
  });
});

describe("the plans' run hits", () => {
  const hashOf = (w: string) => { let h = HASH_START; for (let i = 0; i < w.length; i++) h = hashStep(h, w.charCodeAt(i)); return h; };
  const idOf = (w: string) => identifierRuns.id(w, 0, w.length, hashOf(w));
  const counted = (plan: RankPlan, id: number) => {
    const tf = new Float64Array(plan.terms.length);
    countRun(termIndexOf(plan), plan, id, tf, []);
    return plan.terms.flatMap((t, k) => Array<string>(tf[k]).fill(t.key)).sort();
  };

  it('share one table between plans: a new plan allocates none (tables per plan were 512 KB on a big tree, warm38)', () => {
    const lexicon = parseLexicon('#docs\t1000\nretry\t20\nupload\t30\n');
    const a = runHitsOf(termIndexOf(buildRankPlan('retry uploads quietly', 'hybrid', lexicon)));
    const b = runHitsOf(termIndexOf(buildRankPlan('upload the retry queue', 'hybrid', lexicon)));
    expect(b.table).toBe(a.table);
    expect(b.table.owner).toBeInstanceOf(Int32Array);
    expect(b.token).not.toBe(a.token);
  });

  it('count the same terms when plans take turns over the same runs (an entry another plan took is worked out again)', () => {
    const lexicon = parseLexicon('#docs\t1000\nretry\t20\nupload\t30\nqueue\t40\n');
    const queries = ['retry uploads quietly', 'queue the upload retries', 'queue'];
    const plans = queries.map((q) => buildRankPlan(q, 'hybrid', lexicon));
    const words = ['retryUploadQueue', 'uploadQueue', 'RetryUploads', 'queueRetry', 'nothingHere', 'upload_retry_queue'].map((w) => `${w}Zq38`);
    // What each plan counts for each run, asked alone with fresh plans (a new token each).
    const alone = queries.map((q) => words.map((w) => counted(buildRankPlan(q, 'hybrid', lexicon), idOf(w))));
    for (let round = 0; round < 3; round++)
      for (let w = 0; w < words.length; w++)
        for (let k = 0; k < plans.length; k++) {
          const plan = plans[(k + round + w) % plans.length];
          expect(counted(plan, idOf(words[w])), `${queries[plans.indexOf(plan)]} / ${words[w]}`).toEqual(alone[plans.indexOf(plan)][w]);
        }
    expect(alone[0][0]).toEqual(['retry', 'upload'].map(stem).sort());
    // Two plans taking turns on one run for long: each one's list starts over past its bound, the same terms counted.
    const id = idOf(words[0]);
    const [x, y] = [runHitsOf(termIndexOf(plans[0])), runHitsOf(termIndexOf(plans[1]))];
    const token = x.token;
    const tf = new Float64Array(8);
    for (let i = 0; i < 300_000 && x.token === token; i++) { countRun(termIndexOf(plans[0]), plans[0], id, tf, undefined); countRun(termIndexOf(plans[1]), plans[1], id, tf, undefined); }
    expect(x.token).not.toBe(token);
    expect(x.terms.length).toBeLessThan(10);
    expect(counted(plans[0], id)).toEqual(alone[0][0]);
    expect(counted(plans[1], id)).toEqual(alone[1][0]);
    expect(y.terms.length).toBeLessThan(1 << 19);
  });
});
