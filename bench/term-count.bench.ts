// Micro-benchmark: CPU to count a long query's terms in every line of a tree (what ranking a prose
// file or a candidate chunk costs per line for a pasted file or a find_related chunk), for a 48-line
// chunk of the tree and for 100,000 characters of src/ as the query. Build first, then:
// node dist/bench/term-count.bench.js [--dir bench/corpus/tree-200k] [--reps 12]. Not part of `npm test`.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './bench-model.js';
import { countTerms } from '../src/rank/chunk-scorer.js';
import { bundledLexicon } from '../src/rank/lexical/lexicon.js';
import { buildRankPlan } from '../src/rank/plan.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

/** Every .md and .ts file under dir, sorted (deterministic). */
function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile() && /\.(md|ts)$/.test(d.name))
    .map((d) => path.join(d.parentPath, d.name)).sort();
}

const dir = path.resolve(REPO_ROOT, arg('--dir', 'bench/corpus/tree-200k'));
const reps = Number(arg('--reps', '12'));
const lines = files(dir).flatMap((f) => readFileSync(f, 'utf8').split('\n'));
const src = files(path.join(REPO_ROOT, 'src')).filter((f) => f.endsWith('.ts')).map((f) => readFileSync(f, 'utf8')).join('').slice(0, 100_000);
const chunk = readFileSync(files(dir).find((f) => f.endsWith('.ts'))!, 'utf8').split('\n').slice(0, 48).join('\n');
const cpuMs = () => process.cpuUsage().user / 1000;

for (const [name, query] of [['48-line chunk', chunk], ['100,000 characters of src/', src]] as const) {
  let best = Infinity;
  let terms = 0;
  for (let rep = 0; rep < reps; rep++) {
    // A new plan each time, as each search makes one.
    const plan = buildRankPlan(query, 'hybrid', bundledLexicon());
    terms = plan.terms.length;
    const tf = new Float64Array(terms);
    const t = cpuMs();
    for (const line of lines) countTerms(line, plan, tf);
    best = Math.min(best, cpuMs() - t);
  }
  process.stdout.write(`${name}: ${terms} terms, ${lines.length} lines of ${path.relative(REPO_ROOT, dir)}: ${best.toFixed(1)} ms CPU (min of ${reps})\n`);
}
