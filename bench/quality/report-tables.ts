// The tables of bench/QUALITY.md, both dev sets side by side: headline, published figures, hybrid
// minus lexical, Recall/MRR, per language, per category, per repo, timing and corpora.
import { fmt } from '../results.js';
import { CATEGORIES } from './dataset.js';
import { COUNTERPART, loadPublished, meansOver, type Published } from './published.js';
import { PROTOCOLS, repoGains, type MethodInfo, type QualityResults, type SetResults } from './results.js';

export const f3 = (x: number | undefined): string => (x === undefined || Number.isNaN(x) ? '-' : x.toFixed(3));
const signed = (x: number): string => `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;

export function table(head: string[], rows: string[][]): string[] {
  return [`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)];
}

/** Every method id any set ran, in first-seen order, with its label. */
export function methodIds(r: QualityResults): { id: string; label: string }[] {
  const seen = new Map<string, string>();
  for (const s of r.sets) for (const m of s.methods) if (!seen.has(m.id)) seen.set(m.id, m.label);
  return [...seen].map(([id, label]) => ({ id, label }));
}

const repoCount = (s: SetResults): number => s.corpora.length;
const published = new Map<string, Published>();
export const publishedOf = (s: SetResults): Published => {
  if (!published.has(s.id)) published.set(s.id, loadPublished(s.id));
  return published.get(s.id)!;
};
/** Published means over the repos measured here (all of them when the set publishes only means). */
const publishedMeasured = (s: SetResults): Record<string, number> => {
  const p = publishedOf(s);
  return p.byRepo ? meansOver(p.byRepo, s.corpora.map((c) => c.name), p.methods) : p.means;
};

export function headline(r: QualityResults): string[] {
  const head = ['Method', ...r.sets.flatMap((s) => PROTOCOLS.map((p) => `${s.id} "${p}" (${repoCount(s)} repos)`))];
  const rows = methodIds(r).map(({ id, label }) => [label, ...r.sets.flatMap((s) => PROTOCOLS.map((p) => f3(s.summaries[id]?.[p].overall.ndcg)))]);
  const counterparts = methodIds(r).filter(({ id }) => COUNTERPART[id]).map(({ id, label }) => {
    return [label, ...r.sets.map((s) => {
      const p = publishedOf(s);
      const name = p.methods.find((m) => m.id === COUNTERPART[id])?.label ?? COUNTERPART[id];
      const ours = s.summaries[id]?.hit.overall.ndcg;
      const theirs = publishedMeasured(s)[COUNTERPART[id]];
      return ours === undefined || theirs === undefined ? '-' : `${f3(ours)} vs ${name} ${f3(theirs)} (${signed(ours - theirs)})`;
    })];
  });
  return ['## NDCG@10, mean over repos, both dev sets', '', ...table(head, rows), '',
    'Each mode beside the published method closest to it in kind ("hit" protocol; published means over the same repos):', '',
    ...table(['Method', ...r.sets.map((s) => s.id)], counterparts), ''];
}

export function publishedTable(r: QualityResults): string[] {
  const cols = r.sets.flatMap((s) => {
    const p = publishedOf(s);
    const all = { label: `${s.id}, all ${Object.keys(p.byRepo ?? {}).length || repoCount(s)} repos`, values: p.means, methods: p.methods };
    return p.byRepo && Object.keys(p.byRepo).length !== repoCount(s)
      ? [all, { label: `${s.id}, the ${repoCount(s)} measured here`, values: publishedMeasured(s), methods: p.methods }]
      : [all];
  });
  const names = [...new Map(cols.flatMap((c) => c.methods.map((m) => [m.id, m.label]))).entries()];
  const rows = names.map(([id, label]) => [label, ...cols.map((c) => f3(c.values[id]))]);
  return ['Published NDCG@10 (semble\'s result files, upstream revisions, "hit" protocol; semble-dev: its README\'s means, semble-dev2: `published.json`):', '',
    ...table(['Published method', ...cols.map((c) => c.label)], rows), ''];
}

export function hybridVsLexical(r: QualityResults): string[] {
  const sets = r.sets.filter((s) => s.summaries['simgrep-hybrid'] && s.summaries['simgrep-lexical']);
  if (!sets.length) return [];
  const summary = sets.map((s) => {
    const hit = repoGains(s.summaries['simgrep-hybrid'].hit, s.summaries['simgrep-lexical'].hit);
    const file = repoGains(s.summaries['simgrep-hybrid'].file, s.summaries['simgrep-lexical'].file);
    return [s.id, String(hit.perRepo.length), signed(hit.mean), `${hit.below} (${hit.ties} level)`, signed(file.mean), `${file.below} (${file.ties} level)`];
  });
  const rows = sets.flatMap((s) => {
    const lang = new Map(s.corpora.map((c) => [c.name, c.language]));
    const file = new Map(repoGains(s.summaries['simgrep-hybrid'].file, s.summaries['simgrep-lexical'].file).perRepo.map((g) => [g.repo, g.gain]));
    return repoGains(s.summaries['simgrep-hybrid'].hit, s.summaries['simgrep-lexical'].hit).perRepo
      .map((g) => [s.id, g.repo, lang.get(g.repo) ?? '-', f3(g.a), f3(g.b), `${g.gain < 0 ? '**' : ''}${signed(g.gain)}${g.gain < 0 ? '**' : ''}`, signed(file.get(g.repo) ?? NaN)]);
  });
  return ['## Hybrid minus lexical (NDCG@10)', '',
    ...table(['Set', 'Repos', 'Mean gain "hit"', 'Repos where hybrid < lexical "hit"', 'Mean gain "file"', 'Repos where hybrid < lexical "file"'], summary), '',
    'Per repo (losses in bold):', '',
    ...table(['Set', 'Repo', 'Language', 'hybrid "hit"', 'lexical "hit"', 'gain "hit"', 'gain "file"'], rows), ''];
}

export function recallMrr(r: QualityResults): string[] {
  const rows = r.sets.flatMap((s) => s.methods.map((m) => [s.id, m.label, ...PROTOCOLS.flatMap((p) => {
    const o = s.summaries[m.id][p].overall;
    return [f3(o.recall), f3(o.mrr)];
  })]));
  return ['## Recall@10 and MRR@10 (mean over repos)', '', ...table(['Set', 'Method', 'hit Recall@10', 'hit MRR', 'file Recall@10', 'file MRR'], rows), ''];
}

export function byLanguage(r: QualityResults): string[] {
  const ids = methodIds(r);
  const pubIds = [...new Set(r.sets.flatMap((s) => (publishedOf(s).byRepo ? publishedOf(s).methods.map((m) => m.id) : [])))].filter((id) => id !== 'ripgrep');
  const rows = r.sets.flatMap((s) => {
    const langs = [...new Set(s.corpora.map((c) => c.language))].sort();
    const pub = publishedOf(s);
    return langs.map((lang) => {
      const repos = s.corpora.filter((c) => c.language === lang).map((c) => c.name);
      const queries = s.queries.filter((q) => repos.includes(q.repo)).length;
      const pubMeans = pub.byRepo ? meansOver(pub.byRepo, repos, pub.methods) : {};
      return [s.id, lang, String(repos.length), String(queries), ...ids.map(({ id }) => f3(s.summaries[id]?.hit.byLanguage[lang]?.ndcg)),
        ...pubIds.map((id) => f3(pubMeans[id]))];
    });
  });
  const pubLabels = pubIds.map((id) => `published ${id}`);
  return ['## NDCG@10 by language, "hit" protocol (mean over the language\'s repos)', '',
    ...table(['Set', 'Language', 'Repos', 'Queries', ...ids.map((m) => m.label), ...pubLabels], rows), '',
    'Published columns: semble\'s per-repo figures (semble-dev2 only; semble-dev publishes means only), averaged over the same repos.', ''];
}

export function byCategory(r: QualityResults): string[] {
  const counts = (s: SetResults, c: string): number => s.queries.filter((q) => q.category === c).length;
  const head = ['Method (protocol)', ...r.sets.flatMap((s) => CATEGORIES.map((c) => `${s.id} ${c} (${counts(s, c)} q)`))];
  const rows = methodIds(r).flatMap(({ id, label }) => PROTOCOLS.map((p) => [`${label} (${p})`,
    ...r.sets.flatMap((s) => CATEGORIES.map((c) => f3(s.summaries[id]?.[p].byCategory[c]?.ndcg)))]));
  return ['## NDCG@10 by category (mean over repos of each repo\'s category mean)', '', ...table(head, rows), ''];
}

export function byRepo(r: QualityResults): string[] {
  const out: string[] = [];
  for (const s of r.sets) {
    const pub = publishedOf(s);
    for (const p of PROTOCOLS) {
      const pubCols = p === 'hit' && pub.byRepo ? pub.methods.filter((m) => m.id !== 'ripgrep') : [];
      const rows = s.corpora.map((c) => [c.name, c.language, String(s.queries.filter((q) => q.repo === c.name).length),
        ...s.methods.map((m) => f3(s.summaries[m.id][p].byRepo[c.name]?.ndcg)), ...pubCols.map((m) => f3(pub.byRepo![c.name]?.[m.id]))]);
      out.push(`## ${s.id}: NDCG@10 by repo, "${p}" protocol`, '',
        ...table(['Repo', 'Language', 'Queries', ...s.methods.map((m) => m.label), ...pubCols.map((m) => `published ${m.id}`)], rows), '');
    }
  }
  return out;
}

export function timing(r: QualityResults): string[] {
  const rows = r.sets.flatMap((s) => s.methods.filter((m): m is MethodInfo & { timing: NonNullable<MethodInfo['timing']> } => !!m.timing).map((m) => [
    s.id, m.label, fmt(m.timing.searches), fmt(m.timing.wallMs / 1000, 1), fmt(m.timing.queriesPerSec, 1),
    m.timing.lines ? fmt(m.timing.lines) : '-', m.timing.lines ? fmt(m.timing.lines / (m.timing.wallMs / 1000)) : '-',
    fmt(m.meanHitSlots, 2), String(m.shortFileLists), String(m.errors)]));
  return ['## Timing and list shapes (informative)', '',
    ...table(['Set', 'Method', 'Searches', 'Wall s', 'Searches/s', 'Lines scanned', 'Lines/s', 'Mean "hit" slots', 'Queries with < 10 files ("file")', 'Errors'], rows), '',
    'One-shot simgrep rows: every search walks and embeds the whole corpus again, twice per query (one search per protocol).',
    ...indexBuilds(r),
    'BM25 wall time includes building its index for each repo once.', ''];
}

/** The "from the index" rows: how long indexing every corpus took (not in their wall time). */
function indexBuilds(r: QualityResults): string[] {
  return r.sets.flatMap((s) => {
    const m = s.methods.find((x) => x.timing?.indexBuildMs !== undefined);
    if (!m) return [];
    const lines = s.corpora.reduce((n, c) => n + c.lines, 0);
    return [`"From the index" rows (${s.id}): searches of workspace indexes built once per corpus (\`--index\`: ${fmt(lines)} lines indexed in ${fmt(m.timing!.indexBuildMs! / 1000, 1)} s, not included in their wall time); a search checks the corpus for changes, then ranks from the index.`];
  });
}

export function corpora(r: QualityResults): string[] {
  const out: string[] = [];
  for (const s of r.sets) {
    const rows = s.corpora.map((c) => [c.name, c.language, `${c.kind} \`${c.pkg}\``, c.kind === 'git' ? `\`${c.version.slice(0, 12)}\`${c.annotated ? ' (not the annotated revision)' : ''}` : c.version,
      `\`${c.root}\``, fmt(c.files), fmt(c.lines), fmt(c.bytes / 1e6, 2), fmt(c.codeFiles), fmt(c.chunks)]);
    const total = s.corpora.reduce((t, c) => ({ files: t.files + c.files, lines: t.lines + c.lines, bytes: t.bytes + c.bytes }), { files: 0, lines: 0, bytes: 0 });
    rows.push(['**total**', '', '', '', '', fmt(total.files), fmt(total.lines), fmt(total.bytes / 1e6, 2), '', '']);
    const notes = [
      ...s.corpora.filter((c) => c.note).map((c) => `- ${c.name}: ${c.note}${c.annotated ? ` (annotated: \`${c.annotated.slice(0, 12)}\`)` : ''}.`),
      ...s.corpora.filter((c) => c.absent.length).map((c) => `- ${c.name}: ${c.absent.length} file(s) listed at that commit are absent from the snapshot: ${c.absent.slice(0, 5).map((f) => `\`${f}\``).join(', ')}.`),
      ...s.unavailable.map((u) => `- **${u.name} (${u.language}) is not measured**: ${u.reason}. It is left out of every mean above, ours and the published ones beside them.`),
    ];
    const missing = s.missingTargets.length
      ? ['**Targets missing from the corpora** (they count as not found):', '', ...s.missingTargets.map((m) => `- ${m.repo}: \`${m.target}\` ("${m.query}")`)]
      : [`Every labelled target (${s.queries.reduce((n, q) => n + q.targets.length, 0)} over ${s.queries.length} queries) exists in its corpus.`];
    out.push(`## ${s.id}: corpora (${s.corpora[0]?.kind === 'git' ? 'pinned git revisions' : 'pinned releases'})`, '',
      ...table(['Repo', 'Language', 'Source', 'Version', 'Search root', 'Files', 'Lines', 'MB', 'BM25 code files', 'BM25 chunks'], rows), '',
      ...(notes.length ? [...notes, ''] : []), ...missing, '');
  }
  return out;
}
