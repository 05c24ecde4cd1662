// Renders bench/QUALITY.md from a quality run: the run, the issue's targets, then both dev sets side
// by side (report-tables.ts) and how the figures are made. Figures come only from the run.
import { fmt } from '../results.js';
import { PINS } from './pins.js';
import { listsKey, oneShotOf, repoGains, type QualityResults } from './results.js';
import { byCategory, byLanguage, byRepo, corpora, f3, headline, hybridVsLexical, methodIds, publishedTable, recallMrr, table, timing } from './report-tables.js';

/** Issue 10's targets, "hit" protocol, mean over repos. */
export const TARGETS: { set: string; method: string; min: number }[] = [
  { set: 'semble-dev', method: 'simgrep-hybrid', min: 0.89 },
  { set: 'semble-dev', method: 'simgrep-semantic', min: 0.78 },
  { set: 'semble-dev2', method: 'simgrep-hybrid', min: 0.88 },
  { set: 'semble-dev2', method: 'simgrep-semantic', min: 0.78 },
];
export const MIN_HYBRID_GAIN = 0.03;
export const MAX_REPOS_HYBRID_BELOW_LEXICAL = 3;

const label = (r: QualityResults, id: string): string => methodIds(r).find((m) => m.id === id)?.label ?? id;
const verdict = (ok: boolean): string => (ok ? 'PASS' : 'FAIL');

function targets(r: QualityResults): string[] {
  const rows = TARGETS.flatMap((t) => {
    const s = r.sets.find((x) => x.id === t.set)?.summaries[t.method];
    return s ? [[`${t.set}: ${label(r, t.method)} >= ${t.min}`, f3(s.hit.overall.ndcg), verdict(s.hit.overall.ndcg >= t.min)]] : [];
  });
  let below = 0;
  let repos = 0;
  for (const set of r.sets) {
    const h = set.summaries['simgrep-hybrid'];
    const l = set.summaries['simgrep-lexical'];
    if (!h || !l) continue;
    const g = repoGains(h.hit, l.hit);
    below += g.below;
    repos += g.perRepo.length;
    rows.push([`${set.id}: hybrid - lexical >= +${MIN_HYBRID_GAIN}`, `${g.mean >= 0 ? '+' : ''}${f3(g.mean)}`, verdict(g.mean >= MIN_HYBRID_GAIN)]);
  }
  if (repos) rows.push([`hybrid < lexical on at most ${MAX_REPOS_HYBRID_BELOW_LEXICAL} of the ${repos} repos`, String(below), verdict(below <= MAX_REPOS_HYBRID_BELOW_LEXICAL)]);
  return rows.length ? ['## Targets (issue 10, "hit" protocol, mean over repos)', '', ...table(['Target', 'Measured', 'Result'], rows), ''] : [];
}

function method(r: QualityResults): string[] {
  const notes = [
    '## How the figures are made',
    '',
    '- Queries and labels: `../shared/eval/semble-dev` (13 Python/JS/TS repos) and `../shared/eval/semble-dev2` (24 repos in 14 other languages), semble\'s annotations. Every target, relevant and secondary, has gain 1; line spans are ignored (file level).',
    '- semble-dev corpora: the released packages listed above, extracted to `bench/.tmp/quality/corpora/<repo>/`; the search root is the package folder matching semble\'s `benchmark_root`.',
    '- semble-dev2 corpora: `git archive` of the pinned commit\'s `benchmark_root` (the whole tree where it is null) from the bare git directory the search tool\'s `fetch github:owner/name` brings in (`../.mirror/owner+name/repo`, or `$SIMGREP_GIT_MIRRORS`), extracted to `bench/.tmp/quality/corpora/<repo>/tree/`; nothing from the repos is run. Pins: `bench/quality/pins.ts`.',
    '- simgrep and BM25 report paths relative to the search root; the bench prefixes `benchmark_root` to get upstream-repo-relative paths, and a hit matches a target when the paths are equal or one ends with `/` + the other (semble labelled pandoc and zls relative to the root; the suffix rule scores them the same).',
    `- simgrep runs through its library interface (\`createSearcher\`, one searcher and one model load per run, ${r.settings.concurrency} worker threads), default options otherwise (3 context lines, merged hunks, every file the walker finds under the root). "hit": \`topK: ${r.settings.hitTopK}\`, each returned hunk is one slot in order (adjacent hits merge into one hunk, so there can be fewer than 10 slots; see "Mean hit slots"). "file": \`topK: ${r.settings.fileTopK}\` lines, distinct files in order of first appearance (= of their best line), first 10.`,
    '- `--mode` is passed through to simgrep unchanged.',
    '- BM25 baseline (`bench/quality/bm25.ts`): semble\'s recipe. Code files only (Python, JS/TS incl. `.d.ts`, Java, PHP, Ruby, Rust, C#, Kotlin, Scala, Elixir, Swift, C/C++, Haskell, Zig, shell, Lua; not `.pyx .pxd .json .md .map` or templates), files over 1 MB skipped, greedy chunks of whole lines up to 1,500 characters, identifier tokens `[a-zA-Z_][a-zA-Z0-9_]*` lower-cased plus their snake_case or camelCase parts (no stemming), the file stem twice and the last three directory names of the upstream path added to each chunk, Lucene BM25 (k1 1.5, b 0.75, idf ln(1 + (N - df + 0.5)/(df + 0.5))), query tokenised the same way. "hit": top 10 chunks; "file": distinct files in chunk order.',
    '- Metrics (`bench/quality/metrics.ts`): NDCG@10 = DCG / ideal DCG, DCG = sum(rel_i / log2(i + 2)), ideal over min(10, #targets); Recall@10 = share of targets in the top 10; MRR@10 = 1 / rank of the first target (0 if none). Per repo: mean over its queries; headline: mean over repos; per language and per category: mean over repos, so every repo weighs the same.',
    '- Nothing in bench/quality is tuned on individual queries. Per-query lists and scores: the JSON beside this report.',
  ];
  for (const s of r.sets) {
    for (const g of s.identical) {
      const viaIndex = g.length === 2 && oneShotOf(g[1]) === g[0];
      notes.push(viaIndex
        ? `- ${s.id}: ${label(r, g[0])} returned the same lists one-shot and from the index on every query, as the index promises.`
        : `- ${s.id}: **${g.map((id) => label(r, id)).join(', ')} returned identical lists on every query**: these modes do not yet rank differently in this build.`);
    }
    for (const m of s.methods) {
      const base = oneShotOf(m.id);
      if (!base || !s.methods.some((x) => x.id === base) || s.identical.some((g) => g.includes(m.id) && g.includes(base))) continue;
      const differ = s.queries.filter((q) => listsKey(q, base) !== listsKey(q, m.id));
      notes.push(`- ${s.id}: **${m.label} differed from the one-shot lists on ${differ.length} of ${s.queries.length} queries** (first: ${differ.slice(0, 3).map((q) => `${q.repo} "${q.query}"`).join('; ')}).`);
    }
    for (const m of s.methods.filter((x) => x.errors > 0)) notes.push(`- ${s.id}: ${m.label} failed on ${m.errors} queries (scored 0); see the JSON for the messages.`);
  }
  return [...notes, ''];
}

function fetchCommands(): string {
  const repos = [...new Set(Object.values(PINS).filter((p) => p.kind === 'git').map((p) => p.pkg))];
  return repos.map((p) => `github:${p}`).join(' ');
}

export function renderQuality(r: QualityResults, jsonPath: string): string {
  const m = r.machine;
  const model = r.model
    ? `${r.model.spec}: \`${r.model.dir}\` (id \`${r.model.id}\`, ${fmt(r.model.bytes / 1e6, 1)} MB on disk, ${fmt(r.model.rows)} x ${r.model.dim}; card: "${r.model.card}")`
    : 'none (no simgrep mode was run)';
  return [
    '# simgrep ranking quality: semble\'s code-search dev sets',
    '',
    '<!-- Written by bench/quality/run.ts; do not edit by hand. Re-run the bench to update. -->',
    '',
    `- Date: ${r.date}; wall time ${fmt(r.durationS)} s for the whole run (corpora, every set and mode, BM25)`,
    `- Command: \`${r.command}\` (after \`npm run build\`)`,
    `- Build: ${r.build.commit}`
      + (r.build.distChangedDuringRun ? ' — **dist/ was rebuilt while the bench ran (a shared tree): figures may mix builds; re-run on a quiet tree**' : ''),
    `- Model: ${model}`,
    `- Machine: ${m.cpu}, nproc ${m.nproc}, ${fmt(m.memGb, 1)} GiB RAM, ${m.os}; Node ${m.node}; load average at start ${m.loadStart.map((x) => fmt(x, 2)).join(' / ')}, at end ${m.loadEnd.map((x) => fmt(x, 2)).join(' / ')}`,
    `- Per-query ranked lists and scores: [${jsonPath}](${jsonPath})`,
    '',
    'Reproduce from a fresh clone. semble-dev\'s corpora come from the local pip wheel store and npm; semble-dev2\'s from git snapshots brought in once with the search tool\'s `fetch` verb (into `../.mirror`, or set `SIMGREP_GIT_MIRRORS`): '
      + `\`fetch\` each of ${fetchCommands()}. Both are pinned below; built corpora are reused.`,
    '',
    '```sh',
    'npm install',
    'node dist/bench/quality/run.js            # --set semble-dev|semble-dev2|all, --mode hybrid|semantic|lexical|line|all, --model DIR|ID, --repos a,b',
    '```',
    '',
    ...targets(r),
    ...headline(r),
    ...publishedTable(r),
    ...hybridVsLexical(r),
    ...byLanguage(r),
    ...byCategory(r),
    ...recallMrr(r),
    ...byRepo(r),
    ...timing(r),
    ...corpora(r),
    ...method(r),
  ].join('\n');
}
