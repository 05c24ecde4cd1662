// Ranking-quality bench: builds the pinned corpora of both semble dev sets, runs simgrep (each
// requested mode) and the BM25 baseline on every query, and writes bench/QUALITY.md and
// bench/quality/results.json.
// npm run build && node dist/bench/quality/run.js [--set semble-dev|semble-dev2|all] [--mode hybrid|semantic|lexical|line|all]
//   [--model DIR|ID] [--repos a,b] [--concurrency N] [--index] [--out FILE]
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSearcher, type SearchMode } from '../../src/index.js';
import { distStamp, gitCommit } from './build-info.js';
import { checkRepoNames, DEV_SETS, loadDataset, REPO_ROOT, type DevSetId } from './dataset.js';
import { describeModel } from './model-info.js';
import { renderQuality } from './report.js';
import { PROTOCOLS, serializeResults, type QualityResults, type SetResults } from './results.js';
import { runDevSet } from './run-set.js';
import { FILE_TOP_K, HIT_TOP_K } from './simgrep-runner.js';

const MODES: readonly SearchMode[] = ['hybrid', 'semantic', 'lexical', 'line'];
const USAGE = `usage: node dist/bench/quality/run.js [--set semble-dev|semble-dev2|all] [--mode hybrid|semantic|lexical|line|all]
         [--model DIR|ID] [--repos a,b] [--concurrency N] [--index] [--out FILE]
  --set          dev set(s) to measure (default all: semble-dev's 13 repos and semble-dev2's 24)
  --mode         simgrep ranking mode(s) to measure (default all); the BM25 baseline always runs
  --model        model2vec directory or Hugging Face id (default: $SIMGREP_MODEL, else the bundled model)
  --repos        only these dev-set repos (default all)
  --concurrency  simgrep worker threads (default: cores)
  --index        also index every corpus into a workspace (bench/.tmp/quality/index) and run the
                 hybrid, semantic and lexical modes again from it (the lists must be the one-shot's)
  --out          markdown report path (default bench/QUALITY.md); the JSON goes beside it as <name>.json,
                 or to bench/quality/results.json by default`;

interface Args { sets: DevSetId[]; modes: SearchMode[]; model?: string; repos?: string[]; concurrency?: number; index: boolean; out: string; json: string }

function parseArgs(argv: string[]): Args {
  const args: Args = { sets: [...DEV_SETS], modes: [...MODES], index: false, out: path.join(REPO_ROOT, 'bench', 'QUALITY.md'), json: path.join(REPO_ROOT, 'bench', 'quality', 'results.json') };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value\n${USAGE}`);
      return v;
    };
    if (flag === '--help' || flag === '-h') { process.stdout.write(`${USAGE}\n`); process.exit(0); }
    else if (flag === '--set') {
      const v = value();
      if (v !== 'all' && !(DEV_SETS as readonly string[]).includes(v)) throw new Error(`--set must be ${DEV_SETS.join(', ')} or all (got ${v})`);
      args.sets = v === 'all' ? [...DEV_SETS] : [v as DevSetId];
    } else if (flag === '--mode') {
      const v = value();
      if (v !== 'all' && !(MODES as readonly string[]).includes(v)) throw new Error(`--mode must be hybrid, semantic, lexical, line or all (got ${v})`);
      args.modes = v === 'all' ? [...MODES] : [v as SearchMode];
    } else if (flag === '--model') args.model = value();
    else if (flag === '--repos') args.repos = value().split(',').map((s) => s.trim()).filter(Boolean);
    else if (flag === '--concurrency') {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 0) throw new Error(`--concurrency must be a whole number >= 0 (got ${argv[i]})`);
      args.concurrency = n;
    } else if (flag === '--index') args.index = true;
    else if (flag === '--out') {
      args.out = path.resolve(value());
      args.json = args.out.replace(/\.md$/i, '') + '.json';
    } else throw new Error(`unknown argument ${flag}\n${USAGE}`);
  }
  return args;
}

const log = (msg: string): void => { process.stderr.write(`[quality] ${msg}\n`); };

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const args = parseArgs(argv);
  const started = performance.now();
  const loadStart = os.loadavg();
  const stampStart = distStamp();
  if (args.repos) checkRepoNames(args.sets, args.repos);
  const datasets = args.sets.map((id) => loadDataset(id, args.repos)).filter((d) => d.repos.length > 0);

  const sets: SetResults[] = [];
  const searcher = createSearcher({ model: args.model, concurrency: args.concurrency });
  let model: QualityResults['model'] = null;
  try {
    model = describeModel(args.model, await searcher.model());
    log(`model ${model.id} (${model.rows} x ${model.dim})`);
    for (const data of datasets) {
      log(`${data.id}: ${data.repos.length} repos, ${data.queries.length} queries`);
      sets.push(await runDevSet(data, searcher, args.modes, log, args.index));
    }
  } finally {
    await searcher.close();
  }

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
    sets,
  };

  mkdirSync(path.dirname(args.out), { recursive: true });
  mkdirSync(path.dirname(args.json), { recursive: true });
  writeFileSync(args.json, serializeResults(results));
  writeFileSync(args.out, renderQuality(results, path.relative(path.dirname(args.out), args.json)));
  process.stdout.write(`${summaryTable(results)}\n`);
  log(`wrote ${path.relative(process.cwd(), args.out)} and ${path.relative(process.cwd(), args.json)} in ${results.durationS.toFixed(0)} s`);
}

/** The console summary: NDCG@10 per set, method and protocol. */
function summaryTable(r: QualityResults): string {
  return r.sets.flatMap((set) => {
    const rows = set.methods.map((m) => `${m.label.padEnd(32)} ${PROTOCOLS.map((p) => set.summaries[m.id][p].overall.ndcg.toFixed(3).padStart(8)).join(' ')}`);
    return [`${`${set.id}: NDCG@10 (mean over repos)`.padEnd(32)} ${PROTOCOLS.map((p) => p.padStart(8)).join(' ')}`, ...rows];
  }).join('\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`[quality] error: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 2;
});
