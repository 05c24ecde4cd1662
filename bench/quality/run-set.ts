// Runs one dev set: builds its corpora, runs simgrep (each requested mode) and the BM25 baseline on
// every query, and aggregates per repo, category and language.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { createWorkspace, type Searcher, type SearchMode, type Workspace } from '../../src/index.js';
import { buildBm25Index, searchBm25 } from './bm25.js';
import { ensureCorpus, missingTargets, QUALITY_TMP, type Corpus } from './corpora.js';
import { REPO_ROOT, toUpstreamPath, type Dataset, type Query } from './dataset.js';
import { fileList, hitList } from './metrics.js';
import { UNAVAILABLE } from './pins.js';
import { FROM_INDEX, listsKey, PROTOCOLS, protocolResult, summarize, type MethodInfo, type QueryResult, type SetResults } from './results.js';
import { runSimgrepMode, type CorpusQueries } from './simgrep-runner.js';

/** The modes a workspace index answers (line mode always scans). */
const INDEXED_MODES: readonly SearchMode[] = ['hybrid', 'semantic', 'lexical'];

type Log = (msg: string) => void;
interface Lists { hit: string[]; file: string[]; hunks: number; error?: string }

/** Groups of simgrep methods whose lists were the same on every query and protocol. */
function identicalGroups(queries: QueryResult[], ids: string[]): string[][] {
  const sig = (id: string): string => queries.map((q) => listsKey(q, id)).join('\n');
  const groups = new Map<string, string[]>();
  for (const id of ids) {
    const s = sig(id);
    groups.set(s, [...(groups.get(s) ?? []), id]);
  }
  return [...groups.values()].filter((g) => g.length > 1);
}

/** Every corpus indexed into a fresh workspace under bench/.tmp/quality/index/SET/REPO, sharing the searcher's model. */
async function indexCorpora(set: string, targets: CorpusQueries[], searcher: Searcher, log: Log): Promise<{ workspaces: Map<string, Workspace>; buildMs: number }> {
  const workspaces = new Map<string, Workspace>();
  const t0 = performance.now();
  for (const { spec, root } of targets) {
    const dir = path.join(QUALITY_TMP, 'index', set, spec.name);
    rmSync(dir, { recursive: true, force: true });
    const ws = createWorkspace({ dir, searcher });
    workspaces.set(spec.name, ws);
    const r = await ws.index([root]);
    if (r.errors > 0) log(`${spec.name}: indexing reported ${r.errors} error(s): ${JSON.stringify(r.warnings[0])}`);
    log(`indexed ${spec.name}: ${r.files} files, ${r.chunks} chunks in ${(r.ms / 1000).toFixed(1)} s`);
  }
  return { workspaces, buildMs: performance.now() - t0 };
}

const listShape = (runs: Lists[]): Pick<MethodInfo, 'shortFileLists' | 'meanHitSlots' | 'errors'> => ({
  shortFileLists: runs.filter((r) => r.file.length < 10).length,
  meanHitSlots: runs.reduce((s, r) => s + r.hunks, 0) / Math.max(1, runs.length),
  errors: runs.filter((r) => r.error).length,
});

/**
 * Runs one dev set. With `viaIndex`, each corpus is also indexed into a fresh workspace and the
 * modes the index answers run again from it (methods `simgrep-MODE-indexed`), so the report shows
 * whether the index gives the one-shot lists (it must: same files, lines and distances).
 */
export async function runDevSet(all: Dataset, searcher: Searcher | null, modes: SearchMode[], log: Log, viaIndex = false): Promise<SetResults> {
  const unavailable = all.repos.filter((r) => UNAVAILABLE[r.name]).map((r) => ({ name: r.name, language: r.language, reason: UNAVAILABLE[r.name] }));
  for (const u of unavailable) log(`${all.id}: skipping ${u.name}: ${u.reason}`);
  const repos = all.repos.filter((r) => !UNAVAILABLE[r.name]);
  const data: Dataset = { ...all, repos, queries: all.queries.filter((q) => repos.some((r) => r.name === q.repo)) };

  const corpora = new Map<string, Corpus>();
  for (const r of data.repos) corpora.set(r.name, ensureCorpus(r.name, log));
  const missing = missingTargets(data, corpora);
  for (const m of missing) log(`MISSING target ${m.target} (${m.repo}: "${m.query}")`);
  const targets = data.repos.map((spec) => ({ spec, root: corpora.get(spec.name)!.root, queries: data.queries.filter((q) => q.repo === spec.name) }));

  const methods: MethodInfo[] = [];
  const lists = new Map<string, Map<Query, Lists>>();
  const addRun = (id: string, label: string, run: Awaited<ReturnType<typeof runSimgrepMode>>, buildMs?: number) => {
    lists.set(id, run.runs);
    methods.push({
      id, label,
      timing: { wallMs: run.wallMs, searches: run.searches, lines: run.lines, queriesPerSec: run.searches / (run.wallMs / 1000), ...(buildMs !== undefined && { indexBuildMs: buildMs }) },
      ...listShape([...run.runs.values()]),
    });
  };
  for (const mode of searcher ? modes : []) {
    addRun(`simgrep-${mode}`, `simgrep --mode ${mode}`, await runSimgrepMode(() => searcher!, mode, targets, log));
  }
  const indexedModes = modes.filter((m) => INDEXED_MODES.includes(m));
  if (searcher && viaIndex && indexedModes.length > 0) {
    const { workspaces, buildMs } = await indexCorpora(data.id, targets, searcher, log);
    try {
      for (const mode of indexedModes) {
        const run = await runSimgrepMode((c) => workspaces.get(c.spec.name)!, mode, targets, log, true);
        addRun(`simgrep-${mode}${FROM_INDEX}`, `simgrep --mode ${mode}, from the index`, run, buildMs);
      }
    } finally {
      for (const ws of workspaces.values()) await ws.close();
    }
  }

  const bm25Runs = new Map<Query, Lists>();
  const bm25Stats = new Map<string, { codeFiles: number; chunks: number }>();
  const t0 = performance.now();
  for (const { spec, root, queries } of targets) {
    const index = buildBm25Index(root, (rel) => toUpstreamPath(spec, rel));
    bm25Stats.set(spec.name, { codeFiles: index.codeFiles, chunks: index.chunks.length });
    for (const q of queries) {
      const ranked = searchBm25(index, q.query).map((c) => c.file);
      bm25Runs.set(q, { hit: hitList(ranked), file: fileList(ranked), hunks: Math.min(10, ranked.length) });
    }
  }
  const bm25Ms = performance.now() - t0;
  lists.set('bm25', bm25Runs);
  methods.push({
    id: 'bm25', label: 'BM25 baseline (semble recipe)',
    timing: { wallMs: bm25Ms, searches: data.queries.length, lines: 0, queriesPerSec: data.queries.length / (bm25Ms / 1000) },
    ...listShape([...bm25Runs.values()]),
  });

  const queries: QueryResult[] = data.queries.map((q) => ({
    repo: q.repo, index: q.index, query: q.query, category: q.category, targets: q.targets,
    methods: Object.fromEntries(methods.map((m) => {
      const r = lists.get(m.id)!.get(q)!;
      return [m.id, { hit: protocolResult(r.hit, q.targets), file: protocolResult(r.file, q.targets), ...(r.error && { error: r.error }) }];
    })),
  }));
  const languages = Object.fromEntries(data.repos.map((r) => [r.name, r.language]));
  const summaries = Object.fromEntries(methods.map((m) => [m.id,
    Object.fromEntries(PROTOCOLS.map((p) => [p, summarize(queries, m.id, p, languages)]))])) as SetResults['summaries'];

  return {
    id: data.id,
    corpora: data.repos.map((r) => {
      const c = corpora.get(r.name)!;
      return {
        name: r.name, language: r.language, kind: c.pin.kind, pkg: c.pin.pkg, version: c.pin.version,
        ...(c.pin.kind === 'git' && c.pin.version !== r.revision && { annotated: r.revision }),
        ...(c.pin.kind === 'git' && c.pin.note && { note: c.pin.note }),
        root: path.relative(REPO_ROOT, c.root), files: c.files, lines: c.lines, bytes: c.bytes, ...bm25Stats.get(r.name)!, absent: c.absent,
      };
    }),
    unavailable,
    missingTargets: missing,
    methods,
    summaries,
    identical: identicalGroups(queries, methods.filter((m) => m.id.startsWith('simgrep-')).map((m) => m.id)),
    queries,
  };
}
