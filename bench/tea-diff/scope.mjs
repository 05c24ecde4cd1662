// Which workflows simgrep run takes (parseWorkflow from the build in dist/): reads file paths on stdin,
// prints {path: null (in scope) | "the refusal"} as JSON. One process for all, instead of one CLI each.
import { readFileSync } from 'node:fs';
import { parseWorkflow } from '../../dist/src/actions/workflow/workflow-parse.js';

const out = {};
for (const f of readFileSync(0, 'utf8').split('\n').filter(Boolean)) {
  try { parseWorkflow(readFileSync(f, 'utf8'), f); out[f] = null; } catch (e) { out[f] = e.message.startsWith(`${f}: `) ? e.message.slice(f.length + 2) : e.message; }
}
process.stdout.write(JSON.stringify(out));
