// Ranking-quality bench: builds the pinned dev-set corpora, runs simgrep (each requested mode) and the
// BM25 baseline on every query, and writes bench/QUALITY.md and bench/quality/results.json.
// npm run build && node dist/bench/quality/run.js [--mode hybrid|semantic|lexical|line|all] [--model DIR|ID]
//   [--repos a,b] [--concurrency N] [--out FILE]
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSearcher, type SearchMode } from '../../src/index.js';
import { buildBm25Index, searchBm25 } from './bm25.js';
import { distStamp, gitCommit } from './build-info.js';
import { ensureCorpus, missingTargets, type Corpus } from './corpora.js';
import { loadDataset, REPO_ROOT, toUpstreamPath } from './dataset.js';
import { fileList, hitList } from './metrics.js';
import { describeModel } from './model-info.js';
import { renderQuality } from './report.js';
import { PROTOCOLS, protocolResult, serializeResults, summarize, type MethodInfo, type QualityResults, type QueryResult } from './results.js';
import { FILE_TOP_K, HIT_TOP_K, runSimgrepMode, type SimgrepModeRun } from './simgrep-runner.js';

const MODES: readonly SearchMode[] = ['hybrid', 'semantic', 'lexical', 'line'];
const USAGE = `usage: node dist/bench/quality/run.js [--mode hybrid|semantic|lexical|line|all] [--model DIR|ID]
         [--repos a,b] [--concurrency N] [--out FILE]
  --mode         simgrep ranking mode(s) to measure (default all); the BM25 baseline always runs
  --model        model2vec directory or Hugging Face id (default: $SIMGREP_MODEL, else the bundled model)
  --repos        only these dev-set repos (default all 13)
  --concurrency  simgrep worker threads (default: cores)
  --out          markdown report path (default bench/QUALITY.md); the JSON goes beside it as <name>.json,
                 or to bench/quality/results.json by default`;

interface Args { modes: SearchMode[]; model?: string; repos?: string[]; concurrency?: number; out: string; json: string }

function parseArgs(argv: string[]): Args {
  const args: Args = { modes: [...MODES], out: path.join(REPO_ROOT, 'bench', 'QUALITY.md'), json: path.join(REPO_ROOT, 'bench', 'quality', 'results.json') };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value\n${USAGE}`);
      return v;
    };
    if (flag === '--help' || flag === '-h') { process.stdout.write(`${USAGE}\n`); process.exit(0); }
    else if (flag === '--mode') {
      const v = value();
      if (v !== 'all' && !(MODES as readonly string[]).includes(v)) throw new Error(`--mode must be hybrid, semantic, lexical, line or all (got ${v})`);
      args.modes = v === 'all' ? [...MODES] : [v as SearchMode];
    } else if (flag === '--model') args.model = value();
    else if (flag === '--repos') args.repos = value().split(',').map((s) => s.trim()).filter(Boolean);
    else if (flag === '--concurrency') {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 0) throw new Error(`--concurrency must be a whole number >= 0 (got ${argv[i]})`);
      args.concurrency = n;
    } else if (flag === '--out') {
      args.out = path.resolve(value());
      args.json = args.out.replace(/\.md$/i, '') + '.json';
    } else throw new Error(`unknown argument ${flag}\n${USAGE}`);
  }
  return args;
}

const log = (msg: string): void => { process.stderr.write(`[quality] ${msg}\n`); };

/** Groups of simgrep methods whose lists were the same on every query and protocol. */
function identicalGroups(queries: QueryResult[], ids: string[]): string[][] {
  const sig = (id: string): string => JSON.stringify(queries.map((q) => [q.methods[id].hit.files, q.methods[id].file.files]));
  const groups = new Map<string, string[]>();
  for (const id of ids) {
    const s = sig(id);
    groups.set(s, [...(groups.get(s) ?? []), id]);
  }
  return [...groups.values()].filter((g) => g.length > 1);
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const args = parseArgs(argv);
  const started = performance.now();
  const loadStart = os.loadavg();
  const stampStart = distStamp();
  const data = loadDataset(args.repos);

  const corpora = new Map<string, Corpus>();
  for (const r of data.repos) corpora.set(r.name, ensureCorpus(r.name, log));
  const missing = missingTargets(data, corpora);
  for (const m of missing) log(`MISSING target ${m.target} (${m.repo}: "${m.query}")`);
  const targets = data.repos.map((spec) => ({ spec, root: corpora.get(spec.name)!.root, queries: data.queries.filter((q) => q.repo === spec.name) }));

  const methods: MethodInfo[] = [];
  const lists = new Map<string, Map<(typeof data.queries)[number], { hit: string[]; file: string[]; hunks: number; error?: string }>>();
  const searcher = createSearcher({ model: args.model, concurrency: args.concurrency });
  let model: QualityResults['model'] = null;
  try {
    model = describeModel(args.model, await searcher.model());
    log(`model ${model.id} (${model.rows} x ${model.dim})`);
    for (const mode of args.modes) {
      const run: SimgrepModeRun = await runSimgrepMode(searcher, mode, targets, log);
      const id = `simgrep-${mode}`;
      lists.set(id, run.runs);
      const runs = [...run.runs.values()];
      methods.push({
        id, label: `simgrep --mode ${mode}`,
        timing: { wallMs: run.wallMs, searches: run.searches, lines: run.lines, queriesPerSec: run.searches / (run.wallMs / 1000) },
        shortFileLists: runs.filter((r) => r.file.length < 10).length,
        meanHitSlots: runs.reduce((s, r) => s + r.hunks, 0) / Math.max(1, runs.length),
        errors: runs.filter((r) => r.error).length,
      });
    }
  } finally {
    await searcher.close();
  }

  const bm25Runs = new Map<(typeof data.queries)[number], { hit: string[]; file: string[]; hunks: number }>();
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
  const bm25All = [...bm25Runs.values()];
  methods.push({
    id: 'bm25', label: 'BM25 baseline (semble recipe)',
    timing: { wallMs: bm25Ms, searches: data.queries.length, lines: 0, queriesPerSec: data.queries.length / (bm25Ms / 1000) },
    shortFileLists: bm25All.filter((r) => r.file.length < 10).length,
    meanHitSlots: bm25All.reduce((s, r) => s + r.hunks, 0) / Math.max(1, bm25All.length),
    errors: 0,
  });

  const queries: QueryResult[] = data.queries.map((q) => ({
    repo: q.repo, index: q.index, query: q.query, category: q.category, targets: q.targets,
    methods: Object.fromEntries(methods.map((m) => {
      const r = lists.get(m.id)!.get(q)!;
      return [m.id, { hit: protocolResult(r.hit, q.targets), file: protocolResult(r.file, q.targets), ...(r.error && { error: r.error }) }];
    })),
  }));
  const summaries = Object.fromEntries(methods.map((m) => [m.id, Object.fromEntries(PROTOCOLS.map((p) => [p, summarize(queries, m.id, p)]))])) as QualityResults['summaries'];

  const cpus = os.cpus();
  const results: QualityResults = {
    date: new Date().toISOString(),
    command: ['node dist/bench/quality/run.js', ...argv].join(' '),
    durationS: (performance.now() - started) / 1000,
    build: { commit: gitCommit(), distChangedDuringRun: distStamp() !== stampStart },
    machine: {
      cpu: cpus[0]?.model ?? 'unknown', nproc: os.availableParallelism(), memGb: os.totalmem() / 2 ** 30,
      os: `${os.type()} ${os.release()} ${os.arch()}`, node: process.version, loadStart, loadEnd: os.loadavg(),
    },
    model,
    settings: { hitTopK: HIT_TOP_K, fileTopK: FILE_TOP_K, concurrency: args.concurrency ?? os.availableParallelism() },
    corpora: data.repos.map((r) => {
      const c = corpora.get(r.name)!;
      return {
        name: r.name, pkg: c.pin.pkg, version: c.pin.version, kind: c.pin.kind, root: path.relative(REPO_ROOT, c.root),
        files: c.files, lines: c.lines, bytes: c.bytes, ...bm25Stats.get(r.name)!,
      };
    }),
    missingTargets: missing,
    methods,
    summaries,
    identical: identicalGroups(queries, methods.filter((m) => m.id.startsWith('simgrep-')).map((m) => m.id)),
    queries,
  };

  mkdirSync(path.dirname(args.out), { recursive: true });
  mkdirSync(path.dirname(args.json), { recursive: true });
  writeFileSync(args.json, serializeResults(results));
  writeFileSync(args.out, renderQuality(results, path.relative(path.dirname(args.out), args.json)));
  process.stdout.write(`${summaryTable(results)}\n`);
  log(`wrote ${path.relative(process.cwd(), args.out)} and ${path.relative(process.cwd(), args.json)} in ${results.durationS.toFixed(0)} s`);
}

/** The console summary: NDCG@10 per method and protocol. */
function summaryTable(r: QualityResults): string {
  const rows = r.methods.map((m) => `${m.label.padEnd(32)} ${PROTOCOLS.map((p) => r.summaries[m.id][p].overall.ndcg.toFixed(3).padStart(8)).join(' ')}`);
  return [`${'NDCG@10 (mean over repos)'.padEnd(32)} ${PROTOCOLS.map((p) => p.padStart(8)).join(' ')}`, ...rows].join('\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`[quality] error: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 2;
});
