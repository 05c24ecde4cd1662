// trial35's probe of languages the bench does not measure: coreutils man pages in a language (Debian's
// manpages-LANG, manpages-l10n, GPL-3+), each option's lines the label, queried by the same option's --help
// text as coreutils.mo translates it (the Translation Project, GPL-3+: another translator), or with --eng by
// the English text (English-to-X). Default mode and --mode line through the library beside bm25-icu.ts.
// A probe to find failures, not a tuning set; the bundled model's second table learned from translated
// messages, so --mode line may know these very strings. Data: python3 bench/prose/manpage-probe.py DATA LANG... (its header) writes DATA/probe.json.
// npm run build && node bench/prose/manpage-probe.mjs DATA/probe.json fr,pl,uk,nl,pt_BR [--eng]
import fs from 'node:fs';
import { createSearcher } from '../../dist/src/library.js';
import { createBm25 } from '../../dist/bench/prose/bm25-icu.js';
const [file, langArg] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const eng = process.argv.includes('--eng');
const probe = JSON.parse(fs.readFileSync(file, 'utf8'));
const langs = langArg ? langArg.split(',') : Object.keys(probe);
const searcher = createSearcher({ concurrency: 0 });
const rr = (ranked, labels) => { const i = ranked.findIndex((l) => labels.includes(l)); return i < 0 ? 0 : 1 / (i + 1); };
const bm = new Map();
const out = {};
for (const lang of langs) {
  const items = probe[lang];
  if (!items || items.length < 10) continue;
  const s = { def: 0, line: 0, bm25: 0, def1: 0, line1: 0, bm1: 0, refused: 0, n: items.length };
  for (const it of items) {
    const q = eng ? it.eng : it.q;
    if (!bm.has(it.file)) bm.set(it.file, createBm25(fs.readFileSync(it.file, 'utf8').split('\n')));
    const b = bm.get(it.file)(q, 10);
    const res = {};
    for (const mode of ['hybrid', 'line']) {
      try {
        const r = await searcher.search({ query: q, paths: [it.file], mode, topK: 10, merge: false, nLines: 0 });
        res[mode] = r.results.map((x) => x.match_line);
      } catch (e) { s.refused++; res[mode] = []; if (process.env.PROBE_DIAG) console.error(lang, mode, q, e.message); }
    }
    const d = rr(res.hybrid, it.labels), l = rr(res.line, it.labels), bb = rr(b, it.labels);
    s.def += d; s.line += l; s.bm25 += bb; s.def1 += d === 1; s.line1 += l === 1; s.bm1 += bb === 1;
    if (process.env.PROBE_DIAG && d < bb) console.error(`${lang} def ${d.toFixed(2)} bm25 ${bb.toFixed(2)} | ${q} | ${it.desc.slice(0, 100)} | top ${res.hybrid.slice(0, 3)} labels ${it.labels}`);
  }
  const f = (x) => (x / s.n).toFixed(3);
  out[lang] = s;
  console.log(`${lang}\tn=${s.n}\tdefault ${f(s.def)} (R@1 ${f(s.def1)})\tline ${f(s.line)} (R@1 ${f(s.line1)})\tbm25 ${f(s.bm25)} (R@1 ${f(s.bm1)})\tdefault-bm25 ${((s.def - s.bm25) / s.n).toFixed(3)}\trefused ${s.refused}`);
}
await searcher.close();
