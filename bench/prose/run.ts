// The prose benchmark (issue 31): XQuAD-R's sentences of one language in one file, one per line, its
// questions as queries; MRR@10, R@1 and R@10 of the answering line for each simgrep mode through the
// library, beside plain BM25 over ICU words, monolingual and English questions to each language.
// npm run build && node dist/bench/prose/run.js [--questions N] [--offset N] [--modes hybrid,semantic,lexical,line] [--model DIR|ID] [--out FILE]
// --offset skips the first N ids of the seeded sample: the ids a weight was tuned on (the first 40) stay
// apart from the ids it is checked on (--offset 40).
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSearcher } from '../../src/library.js';
import { SimgrepError } from '../../src/errors.js';
import type { SearchMode } from '../../src/types.js';
import { REPO_ROOT } from '../quality/dataset.js';
import { gitCommit } from '../quality/build-info.js';
import { createBm25 } from './bm25-icu.js';
import { DEV_LANGUAGES, LAREQA_LICENCE, LAREQA_PIN, loadLanguage, shuffledCommonIds, type LanguageSet } from './dataset.js';
import { proseReport, type Cell, type ProseRun } from './report.js';

const ALL_MODES: SearchMode[] = ['hybrid', 'semantic', 'lexical', 'line'];

function parseArgs(argv: string[]) {
  const a: { questions: number; offset: number; modes: SearchMode[]; out: string; seed: number; model?: string } =
    { questions: 100, offset: 0, modes: ALL_MODES, out: path.join(REPO_ROOT, 'bench', 'PROSE.md'), seed: 31 };
  for (let i = 0; i < argv.length; i++) {
    const v = argv[i + 1];
    if (argv[i] === '--questions') { a.questions = Number(v); i++; }
    else if (argv[i] === '--offset') { a.offset = Number(v); i++; }
    else if (argv[i] === '--modes') { a.modes = v.split(',') as SearchMode[]; i++; }
    else if (argv[i] === '--out') { a.out = path.resolve(v); i++; }
    // A candidate model (a model2vec directory or Hugging Face id) instead of $SIMGREP_MODEL / the bundled one.
    else if (argv[i] === '--model') { a.model = v; i++; }
    else throw new Error(`unknown flag ${argv[i]}; see the usage line at the top of bench/prose/run.ts`);
  }
  if (!(a.questions > 0)) throw new Error('--questions must be a number > 0');
  if (!(Number.isInteger(a.offset) && a.offset >= 0)) throw new Error('--offset must be a whole number >= 0');
  return a;
}

/** The first labelled line's rank among `ranked` (1-based), 0 when it is not there. */
function rankOf(ranked: number[], labels: number[]): number {
  const i = ranked.findIndex((l) => labels.includes(l));
  return i < 0 ? 0 : i + 1;
}

function addRank(cell: Cell, rank: number): void {
  cell.n++;
  if (rank > 0 && rank <= 10) { cell.mrr += 1 / rank; cell.r10++; }
  if (rank === 1) cell.r1++;
}

const newCell = (): Cell => ({ n: 0, mrr: 0, r1: 0, r10: 0, refused: 0 });

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const dir = path.join(REPO_ROOT, 'bench', '.tmp', 'prose');
  const sets = new Map<string, LanguageSet>(DEV_LANGUAGES.map((l) => [l, loadLanguage(l, dir)]));
  // The same questions (by id) in every language, so English-to-X asks what X's own questions ask.
  const common = shuffledCommonIds(DEV_LANGUAGES.map((l) => sets.get(l)!), args.seed);
  const ids = common.slice(args.offset, args.offset + args.questions);
  const searcher = createSearcher({ concurrency: 0, model: args.model });
  const run: ProseRun = { cells: {}, questions: ids.length, offset: args.offset, lines: {}, modes: args.modes };
  try {
    for (const lang of DEV_LANGUAGES) {
      const set = sets.get(lang)!;
      run.lines[lang] = set.lines.length;
      const bm25 = createBm25(set.lines);
      for (const direction of ['mono', 'en'] as const) {
        if (direction === 'en' && lang === 'en') continue;
        const ask = (id: string) => (direction === 'en' ? sets.get('en')! : set).questions.get(id)!.text;
        const cell = (method: string) => (run.cells[`${direction}:${lang}:${method}`] ??= newCell());
        for (const id of ids) {
          const labels = set.questions.get(id)!.labels;
          addRank(cell('bm25'), rankOf(bm25(ask(id), 10), labels));
          for (const mode of args.modes) {
            let ranked: number[] = [];
            try {
              const r = await searcher.search({ query: ask(id), paths: [set.file], mode, topK: 10, merge: false, nLines: 0 });
              ranked = r.results.map((x) => x.match_line);
            } catch (e) {
              if (!(e instanceof SimgrepError) || e.code !== 'BAD_QUERY') throw e;
              cell(mode).refused++;
            }
            addRank(cell(mode), rankOf(ranked, labels));
          }
        }
        process.stderr.write(`[prose] ${direction === 'en' ? 'en->' : ''}${lang} done (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
      }
    }
  } finally {
    await searcher.close();
  }
  const md = proseReport(run, {
    command: `node dist/bench/prose/run.js --questions ${args.questions}${args.offset ? ` --offset ${args.offset}` : ''}${args.modes === ALL_MODES ? '' : ` --modes ${args.modes.join(',')}`}${args.model ? ` --model ${args.model}` : ''}`,
    build: gitCommit(), wallSeconds: (Date.now() - started) / 1000, pin: LAREQA_PIN, licence: LAREQA_LICENCE,
    machine: `${os.cpus()[0]?.model ?? 'cpu'}, nproc ${os.availableParallelism()}; Node ${process.version}; load ${os.loadavg().map((x) => x.toFixed(2)).join(' / ')}`,
  });
  writeFileSync(args.out, md);
  writeFileSync(args.out.replace(/\.md$/, '.json'), `${JSON.stringify(run, null, 1)}\n`);
  process.stdout.write(md);
}

main().catch((e) => { process.stderr.write(`[prose] error: ${(e as Error).message}\n`); process.exit(1); });
