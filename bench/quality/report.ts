// Renders bench/QUALITY.md from a quality run: targets, headline NDCG@10 beside semble's published
// figures, Recall@10 / MRR, per category, per repo, timing and the corpora. Figures come only from the run.
import { fmt } from '../results.js';
import { CATEGORIES } from './dataset.js';
import { PROTOCOLS, type MethodInfo, type QualityResults } from './results.js';

/** semble's published NDCG@10 on these 13 repos (../shared/eval/semble-dev/README.md), hit protocol. */
export const PUBLISHED: [string, number][] = [
  ['semble (potion-code-16M + BM25)', 0.869], ['CodeRankEmbed hybrid', 0.869], ['CodeRankEmbed', 0.795], ['ColGREP', 0.733],
  ['potion-code-16M alone', 0.69], ['BM25 alone', 0.669], ['grepai', 0.614], ['ripgrep', 0.189],
];
/** The published method each of ours is closest to in kind. */
const COUNTERPART: Record<string, [string, number]> = {
  'simgrep-hybrid': ['semble (potion-code-16M + BM25)', 0.869],
  'simgrep-semantic': ['potion-code-16M alone', 0.69],
  'simgrep-lexical': ['BM25 alone', 0.669],
  'simgrep-line': ['potion-code-16M alone', 0.69],
  bm25: ['BM25 alone', 0.669],
};
/** The targets, hit protocol. */
export const TARGETS: { method: string; min: number }[] = [
  { method: 'simgrep-semantic', min: 0.65 },
  { method: 'simgrep-hybrid', min: 0.87 },
];

const f3 = (x: number): string => x.toFixed(3);

function table(head: string[], rows: string[][]): string[] {
  return [`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)];
}

function targets(r: QualityResults): string[] {
  const rows = TARGETS.filter((t) => r.summaries[t.method]).map((t) => {
    const got = r.summaries[t.method].hit.overall.ndcg;
    return [`${label(r, t.method)}: NDCG@10 >= ${t.min} (hit)`, f3(got), got >= t.min ? 'PASS' : 'FAIL'];
  });
  return rows.length ? ['## Targets (dev set, "hit" protocol)', '', ...table(['Target', 'Measured', 'Result'], rows), ''] : [];
}

const label = (r: QualityResults, id: string): string => r.methods.find((m) => m.id === id)?.label ?? id;

function headline(r: QualityResults): string[] {
  const rows = r.methods.map((m) => {
    const [name, fig] = COUNTERPART[m.id] ?? ['-', NaN];
    return [m.label, ...PROTOCOLS.map((p) => f3(r.summaries[m.id][p].overall.ndcg)), Number.isNaN(fig) ? '-' : `${name}: ${f3(fig)}`];
  });
  return [`## NDCG@10, mean over the ${Object.keys(r.summaries[r.methods[0].id].hit.byRepo).length} repos`, '',
    ...table(['Method', '"hit"', '"file"', 'Published counterpart (semble\'s runs, hit)'], rows), '',
    'Published NDCG@10 on these 13 repos (semble\'s result files, upstream revisions, hit protocol):', '',
    ...table(PUBLISHED.map(([n]) => n), [PUBLISHED.map(([, v]) => f3(v))]), ''];
}

function recallMrr(r: QualityResults): string[] {
  const rows = r.methods.map((m) => [m.label, ...PROTOCOLS.flatMap((p) => {
    const o = r.summaries[m.id][p].overall;
    return [f3(o.recall), f3(o.mrr)];
  })]);
  return ['## Recall@10 and MRR@10 (mean over repos)', '', ...table(['Method', 'hit Recall@10', 'hit MRR', 'file Recall@10', 'file MRR'], rows), ''];
}

function byCategory(r: QualityResults): string[] {
  const counts = Object.fromEntries(CATEGORIES.map((c) => [c, r.queries.filter((q) => q.category === c).length]));
  const rows = r.methods.flatMap((m) => PROTOCOLS.map((p) => [`${m.label} (${p})`,
    ...CATEGORIES.map((c) => { const s = r.summaries[m.id][p].byCategory[c]; return s ? f3(s.ndcg) : '-'; })]));
  return ['## NDCG@10 by category (mean over repos of each repo\'s category mean)', '',
    ...table(['Method (protocol)', ...CATEGORIES.map((c) => `${c} (${counts[c]} queries)`)], rows), ''];
}

function byRepo(r: QualityResults): string[] {
  const out: string[] = [];
  for (const p of PROTOCOLS) {
    const rows = r.corpora.map((c) => [c.name, String(r.queries.filter((q) => q.repo === c.name).length),
      ...r.methods.map((m) => f3(r.summaries[m.id][p].byRepo[c.name]?.ndcg ?? NaN))]);
    out.push(`## NDCG@10 by repo, "${p}" protocol`, '', ...table(['Repo', 'Queries', ...r.methods.map((m) => m.label)], rows), '');
  }
  return out;
}

function timing(r: QualityResults): string[] {
  const rows = r.methods.filter((m): m is MethodInfo & { timing: NonNullable<MethodInfo['timing']> } => !!m.timing).map((m) => [
    m.label, fmt(m.timing.searches), fmt(m.timing.wallMs / 1000, 1), fmt(m.timing.queriesPerSec, 1),
    m.timing.lines ? fmt(m.timing.lines) : '-', m.timing.lines ? fmt(m.timing.lines / (m.timing.wallMs / 1000)) : '-',
    fmt(m.meanHitSlots, 2), String(m.shortFileLists), String(m.errors)]);
  return ['## Timing and list shapes (informative)', '',
    ...table(['Method', 'Searches', 'Wall s', 'Searches/s', 'Lines scanned', 'Lines/s', 'Mean "hit" slots', 'Queries with < 10 files ("file")', 'Errors'], rows), '',
    'simgrep has no index: every search walks and embeds the whole corpus again, twice per query (one search per protocol).',
    'BM25 wall time includes building its index for each repo once.', ''];
}

function corpora(r: QualityResults): string[] {
  const rows = r.corpora.map((c) => [c.name, `${c.kind} \`${c.pkg}\``, c.version, `\`${c.root}\``, fmt(c.files), fmt(c.lines), fmt(c.bytes / 1e6, 2), fmt(c.codeFiles), fmt(c.chunks)]);
  const missing = r.missingTargets.length
    ? ['**Targets missing from the corpora** (they count as not found):', '', ...r.missingTargets.map((m) => `- ${m.repo}: \`${m.target}\` ("${m.query}")`)]
    : [`Every labelled target (${r.queries.reduce((s, q) => s + q.targets.length, 0)} over ${r.queries.length} queries) exists in its corpus.`];
  return ['## Corpora (pinned releases)', '',
    ...table(['Repo', 'Package', 'Version', 'Search root', 'Files', 'Lines', 'MB', 'BM25 code files', 'BM25 chunks'], rows), '', ...missing, ''];
}

function method(r: QualityResults): string[] {
  const notes = [
    '## How the figures are made',
    '',
    '- Queries and labels: `../shared/eval/semble-dev` (semble\'s annotations for these 13 repos). Every target, relevant and secondary, has gain 1; line spans are ignored (file level).',
    '- Corpora: the released packages above, extracted to `bench/.tmp/quality/corpora/`; the search root is the package folder matching semble\'s `benchmark_root`. simgrep and BM25 report paths relative to that root; the bench prefixes `benchmark_root` to get upstream-repo-relative paths, and a hit matches a target when the paths are equal or one ends with `/` + the other.',
    `- simgrep runs through its library interface (\`createSearcher\`, one searcher and one model load per run, ${r.settings.concurrency} worker threads), default options otherwise (3 context lines, merged hunks, every file the walker finds under the root). "hit": \`topK: ${r.settings.hitTopK}\`, each returned hunk is one slot in order (adjacent hits merge into one hunk, so there can be fewer than 10 slots; see "Mean hit slots"). "file": \`topK: ${r.settings.fileTopK}\` lines, distinct files in order of first appearance (= of their best line), first 10.`,
    '- `--mode` is passed through to simgrep unchanged.',
    '- BM25 baseline (`bench/quality/bm25.ts`): semble\'s recipe. code files only (`.py .pyi .js .mjs .cjs .jsx .ts .mts .cts .tsx`, so `.d.ts` counts; `.pyx .pxd .json .md .map` do not), files over 1 MB skipped, greedy chunks of whole lines up to 1,500 characters, identifier tokens `[a-zA-Z_][a-zA-Z0-9_]*` lower-cased plus their snake_case or camelCase parts (no stemming), the file stem twice and the last three directory names of the upstream path added to each chunk, Lucene BM25 (k1 1.5, b 0.75, idf ln(1 + (N - df + 0.5)/(df + 0.5))), query tokenised the same way. "hit": top 10 chunks; "file": distinct files in chunk order.',
    '- Metrics (`bench/quality/metrics.ts`): NDCG@10 = DCG / ideal DCG, DCG = sum(rel_i / log2(i + 2)), ideal over min(10, #targets); Recall@10 = share of targets in the top 10; MRR@10 = 1 / rank of the first target (0 if none). Per repo: mean over its queries; headline: mean over repos.',
    '- Nothing in bench/quality is tuned on individual queries. Per-query lists and scores: the JSON beside this report.',
  ];
  for (const g of r.identical) {
    notes.push(`- **${g.map((id) => label(r, id)).join(', ')} returned identical lists on every query**: these modes do not yet rank differently in this build.`);
  }
  const errs = r.methods.filter((m) => m.errors > 0);
  for (const m of errs) notes.push(`- ${m.label} failed on ${m.errors} queries (scored 0); see the JSON for the messages.`);
  return [...notes, ''];
}

export function renderQuality(r: QualityResults, jsonPath: string): string {
  const m = r.machine;
  const model = r.model
    ? `${r.model.spec}: \`${r.model.dir}\` (id \`${r.model.id}\`, ${fmt(r.model.bytes / 1e6, 1)} MB on disk, ${fmt(r.model.rows)} x ${r.model.dim}; card: "${r.model.card}")`
    : 'none (no simgrep mode was run)';
  return [
    '# simgrep ranking quality: semble\'s code-search dev set',
    '',
    '<!-- Written by bench/quality/run.ts; do not edit by hand. Re-run the bench to update. -->',
    '',
    `- Date: ${r.date}; wall time ${fmt(r.durationS)} s for the whole run (corpora, every mode, BM25)`,
    `- Command: \`${r.command}\` (after \`npm run build\`)`,
    `- Build: ${r.build.commit}`
      + (r.build.distChangedDuringRun ? ' — **dist/ was rebuilt while the bench ran (a shared tree): figures may mix builds; re-run on a quiet tree**' : ''),
    `- Model: ${model}`,
    `- Machine: ${m.cpu}, nproc ${m.nproc}, ${fmt(m.memGb, 1)} GiB RAM, ${m.os}; Node ${m.node}; load average at start ${m.loadStart.map((x) => fmt(x, 2)).join(' / ')}, at end ${m.loadEnd.map((x) => fmt(x, 2)).join(' / ')}`,
    `- Per-query ranked lists and scores: [${jsonPath}](${jsonPath})`,
    '',
    'Reproduce from a fresh clone (the corpora come from the local pip wheel store and npm, pinned below):',
    '',
    '```sh',
    'npm install',
    'node dist/bench/quality/run.js            # --mode hybrid|semantic|lexical|line|all, --model DIR|ID, --repos a,b',
    '```',
    '',
    ...targets(r),
    ...headline(r),
    ...recallMrr(r),
    ...byCategory(r),
    ...byRepo(r),
    ...timing(r),
    ...corpora(r),
    ...method(r),
  ].join('\n');
}
