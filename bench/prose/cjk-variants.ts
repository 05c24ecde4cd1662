// Variants of the prose line rule for a query in a script written without spaces (issue 31, zh36),
// registered into grid-probe.ts's table: Lucene's CJK bigram rule (each run
// of Han, kana or Hangul cut into overlapping character pairs, across ICU's words; a lone character
// whole) as terms of the words' field (so of the window too) beside ICU's words, or instead of them;
// and a run of one-character ICU words (a name ICU's dictionary lacks) as one term. Chosen on ids 0-79 /
// 80-179, checked once on 180-279: none held (figures in docs/models.md, Prose and other languages).
// PROBE_LANGS=zh PROBE_RANGE='0,80;80,180' SIMGREP_GIT_MIRRORS=/work/.mirror node dist/bench/prose/grid-probe.js '^(bi|name)'
import { fold, textWords } from '../../src/rank/lexical/words.js';
import { fileFrequencies } from './probe-table.js';
import type { Q } from './loss-fields.js';
import { GRID_VARIANTS as V, rule, type GridOpts } from './grid-rule.js';

const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;
const CJK_ONLY = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+$/u;

/** Lucene's CJK bigrams of a text: each run's overlapping pairs of characters, a lone character whole. */
function cjkBigrams(text: string): string[] {
  const out: string[] = [];
  for (const m of fold(text).match(CJK_RUN) ?? []) {
    const c = [...m];
    if (c.length === 1) out.push(m); else for (let i = 0; i + 1 < c.length; i++) out.push(c[i] + c[i + 1]);
  }
  return out;
}

/** Runs of 3+ neighbouring one-character CJK words (ICU's fallback for a word its dictionary lacks), joined. */
function nameRuns(text: string, min = 3): string[] {
  const ws = textWords(fold(text));
  const out: string[] = [];
  let run: string[] = [];
  const flush = () => { if (run.length >= min) out.push(run.join('')); run = []; };
  for (const w of ws) { if ([...w].length === 1 && CJK_ONLY.test(w)) run.push(w); else flush(); }
  flush();
  return out;
}

const cache = new WeakMap<string[], Map<string, string[][]>>();
function perLine(lines: string[], key: string, f: (s: string) => string[]): string[][] {
  let m = cache.get(lines); if (!m) cache.set(lines, (m = new Map()));
  let r = m.get(key); if (!r) m.set(key, (r = lines.map(f)));
  return r;
}

/**
 * The question with `extra` terms appended to the words' field at weight `wt` (tw), counted in each
 * line by `lineTerms` (or as substrings of the folded line with `substr`); `dropHanWords` zeroes the
 * plan's CJK words (bigrams instead of ICU's words).
 */
function withTerms(q: Q, extra: string[], lineTerms: ((s: string) => string[]) | null, key: string, wt: number, dropHanWords = false): { q: Q; tw: Float64Array } {
  const list = [...new Set(extra)];
  const nT = q.tf[0]?.length ?? 0;
  const at = new Map(list.map((t, k) => [t, k]));
  const folded = lineTerms ? null : perLine(q.lines, 'fold', (s) => [fold(s)]);
  const lt = lineTerms ? perLine(q.lines, key, lineTerms) : null;
  const tf = q.tf.map((row, i) => {
    const out = new Float64Array(nT + list.length); out.set(row);
    if (q.lens[i] === 0 || list.length === 0) return out;
    if (lt) { for (const t of lt[i]) { const k = at.get(t); if (k !== undefined) out[nT + k]++; } }
    else { const s = folded![i][0]; list.forEach((t, k) => { let p = s.indexOf(t); while (p >= 0) { out[nT + k]++; p = s.indexOf(t, p + t.length); } }); }
    return out;
  });
  const tw = new Float64Array(nT + list.length).fill(1);
  for (let k = 0; k < list.length; k++) tw[nT + k] = wt;
  if (dropHanWords) q.plan.terms.forEach((t, i) => { if (CJK_ONLY.test(t.key)) tw[i] = 0; });
  return { q: { ...q, tf, freq: fileFrequencies({ lens: q.lens, tf, gtf: q.gtf }) }, tw };
}

/** Whether a query holds Han, kana or Hangul (the variants leave any other query to the shipped rule). */
const cjkQuery = (q: Q) => /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(q.query);
for (const wt of [1, 0.5, 0.25]) for (const o of [{}, { gramW: 0.4 }] as GridOpts[]) {
  const tag = JSON.stringify(o).replace(/[{}"]/g, '');
  V[`bi-add-${wt}${tag ? `-${tag}` : ''}`] = (q) => { if (!cjkQuery(q)) return rule(q); const r = withTerms(q, cjkBigrams(q.query), cjkBigrams, 'bi', wt); return rule(r.q, { ...o, tw: r.tw }); };
}
V['bi-only'] = (q) => { if (!cjkQuery(q)) return rule(q); const r = withTerms(q, cjkBigrams(q.query), cjkBigrams, 'bi', 1, true); return rule(r.q, { tw: r.tw }); };
for (const min of [2, 3]) for (const wt of [1, 2]) {
  V[`name${min}-${wt}`] = (q) => { const runs = nameRuns(q.query, min); if (runs.length === 0) return rule(q); const r = withTerms(q, runs, null, 'name', wt); return rule(r.q, { tw: r.tw }); };
}
for (const wt of [0.5, 1]) for (const o of [{ gramW: 0.3 }, { gramW: 0.35 }, { gramW: 0.4, ctx: 0.4 }, { gramW: 0.4, ctx: 0.6 }, { gramW: 0.4, k1: 0.9 }] as GridOpts[]) {
  const tag = JSON.stringify(o).replace(/[{}"]/g, '');
  V[`bi-add-${wt}-${tag}`] = (q) => { if (!cjkQuery(q)) return rule(q); const r = withTerms(q, cjkBigrams(q.query), cjkBigrams, 'bi', wt); return rule(r.q, { ...o, tw: r.tw }); };
}
V['bi-only-gramW:0.4'] = (q) => { if (!cjkQuery(q)) return rule(q); const r = withTerms(q, cjkBigrams(q.query), cjkBigrams, 'bi', 1, true); return rule(r.q, { tw: r.tw, gramW: 0.4 }); };
