// The prose benchmark's markdown: one table per direction (monolingual, English to each language),
// a row per language and the mean, MRR@10 / R@1 / R@10 per method.
export interface Cell { n: number; mrr: number; r1: number; r10: number; refused: number }
export interface ProseRun { cells: Record<string, Cell>; questions: number; offset?: number; lines: Record<string, number>; modes: string[] }
export interface ReportInfo { command: string; build: string; wallSeconds: number; pin: string; licence: string; machine: string }

const f3 = (x: number) => x.toFixed(3);

function table(run: ProseRun, direction: 'mono' | 'en'): string[] {
  const methods = [...run.modes, 'bm25'];
  const name = (m: string) => (m === 'bm25' ? 'BM25 over ICU words' : m === 'hybrid' ? 'hybrid (default)' : m);
  const langs = Object.keys(run.lines).filter((l) => direction === 'mono' || l !== 'en');
  const out = [
    `| language | ${methods.map((m) => `${name(m)} MRR@10 / R@1 / R@10`).join(' | ')} |`,
    `|---|${methods.map(() => '---:').join('|')}|`,
  ];
  const sums = methods.map(() => [0, 0, 0, 0]);
  for (const lang of langs) {
    const row = methods.map((m, k) => {
      const c = run.cells[`${direction}:${lang}:${m}`];
      const v = [c.mrr / c.n, c.r1 / c.n, c.r10 / c.n];
      v.forEach((x, i) => (sums[k][i] += x));
      sums[k][3] += c.refused;
      return `${v.map(f3).join(' / ')}${c.refused ? ` (${c.refused} refused)` : ''}`;
    });
    out.push(`| ${lang} (${run.lines[lang]} lines) | ${row.join(' | ')} |`);
  }
  out.push(`| **mean** | ${sums.map((s) => `**${f3(s[0] / langs.length)}** / ${f3(s[1] / langs.length)} / ${f3(s[2] / langs.length)}${s[3] ? ` (${s[3]} refused)` : ''}`).join(' | ')} |`);
  return out;
}

export function proseReport(run: ProseRun, info: ReportInfo): string {
  return [
    '# simgrep on prose: XQuAD-R line search (dev languages ar, de, en, es, hi, zh)',
    '',
    '<!-- Written by bench/prose/run.ts; do not edit by hand. Re-run the bench to update. -->',
    '',
    `- Command: \`${info.command}\` (after \`npm run build\`; needs \`fetch github:google-research-datasets/lareqa\` in ../.mirror or $SIMGREP_GIT_MIRRORS)`,
    `- Build: ${info.build}; wall time ${info.wallSeconds.toFixed(0)} s; ${info.machine}`,
    `- Data: XQuAD-R from google-research-datasets/lareqa @ ${info.pin}, licence ${info.licence}. Only ar, de, en, es, hi and zh are read; el, ru, th, tr and vi are held out. A dev set for measurement only: nothing is trained or tuned on it.`,
    `- Per language: all its sentences in one file, one per line (\`bench/.tmp/prose/xquad-r-<lang>.txt\`); ${run.questions} questions (the same question ids in every language, a seeded sample${run.offset ? `, from its position ${run.offset}: the ids the weights were not chosen on` : ': the ids the prose weights were chosen on; `--offset 40` checks them on the next 40'}); the label is the line of the sentence holding the answer (or an identical line).`,
    '- simgrep through the library: `createSearcher().search({ query, paths: [file], mode, topK: 10, merge: false, nLines: 0 })` (the CLI\'s `--top-k 10 --no-merge -n 0`); a refused query (BAD_QUERY) counts as a miss and is counted.',
    '- Baseline: BM25 over `Intl.Segmenter` words, NFKC + lower-case folding, k1 = 1.2, b = 0.75, df over the file\'s lines (`bench/prose/bm25-icu.ts`).',
    '',
    '## Monolingual (questions in the file\'s language)',
    '',
    ...table(run, 'mono'),
    '',
    '## English questions over each language\'s file',
    '',
    ...table(run, 'en'),
    '',
  ].join('\n');
}
