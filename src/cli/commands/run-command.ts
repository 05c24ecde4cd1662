// simgrep run agent.yaml [-i JSON|@FILE] [--state JSON] [--state-file FILE] [--env NAME,...]: runs a
// YAML agent and prints its final state as JSON on stdout; a node that fails prints the state reached
// (stdout) and the error naming the node (stderr), exit 2.
import { readFileSync } from 'node:fs';
import { SimgrepError } from '../../errors.js';
import { parseWorkflow, runWorkflow, WorkflowRunError } from '../../actions/workflow/workflow.js';
import { parseYamlAsTea } from '../../actions/workflow/workflow-parse.js';
import { parseAllowedEnv } from '../../actions/workflow/workflow-env.js';
import { pyJsonParse, stateJson } from '../../actions/workflow/py-json.js';
import type { EmbedderKind } from '../../types.js';
import type { ParsedFlags } from '../flags.js';

export async function runRunCommand(flags: ParsedFlags, args: string[]): Promise<number> {
  if (args.length !== 1) throw new SimgrepError('BAD_FLAG', 'usage: simgrep run AGENT.yaml [-i JSON|@FILE] [--state JSON] [--state-file FILE] [--env NAME,...]');
  const file = args[0];
  let text: string;
  try { text = readFileSync(file, 'utf8'); } catch (e) {
    throw new SimgrepError('PATH_NOT_FOUND', `${file}: cannot read the workflow (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const wf = parseWorkflow(text, file);
  const state = { ...readState(flags['state-file'], true), ...readState(flags.state, false), ...readInput(flags.input) };
  try {
    const final = await runWorkflow(wf, {
      state,
      allowEnv: parseAllowedEnv(flags.env as string | undefined),
      codeTimeoutMs: typeof flags['code-timeout'] === 'number' ? flags['code-timeout'] * 1000 : undefined,
      engineOptions: {
        ...(typeof flags.model === 'string' ? { model: flags.model } : {}),
        concurrency: flags.concurrency as number | undefined,
        embedder: flags.embedder as EmbedderKind | undefined,
        offline: flags.offline === true || undefined,
      },
    });
    process.stdout.write(`${stateJson(final)}\n`);
    return 0;
  } catch (e) {
    if (!(e instanceof WorkflowRunError)) throw e;
    process.stdout.write(`${stateJson(e.state)}\n`);
    process.stderr.write(`simgrep: ${file}: ${e.message}\n`);
    return 2;
  }
}

/** TEA's --input: a JSON object, or @file (YAML for .yaml/.yml, JSON otherwise). */
function readInput(v: unknown): Record<string, unknown> {
  if (v === undefined) return {};
  const raw = String(v);
  if (!raw.startsWith('@')) return readState(raw, false, '--input');
  const path = raw.slice(1);
  let body: string;
  try { body = readFileSync(path, 'utf8'); } catch (e) { throw new SimgrepError('PATH_NOT_FOUND', `--input ${raw}: cannot read it (${(e as NodeJS.ErrnoException).code})`); }
  if (!/\.ya?ml$/i.test(path)) return readState(body, false, `--input ${raw}`);
  let parsed: unknown;
  try { parsed = parseYamlAsTea(body); } catch (e) { throw new SimgrepError('BAD_FLAG', `--input ${raw}: not valid YAML (${(e as Error).message})`); }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new SimgrepError('BAD_FLAG', `--input ${raw}: must be a mapping`);
  return parsed as Record<string, unknown>;
}

function readState(v: unknown, isFile: boolean, label?: string): Record<string, unknown> {
  if (v === undefined) return {};
  const what = label ?? (isFile ? `--state-file ${String(v)}` : '--state');
  let raw = String(v);
  if (isFile) {
    try { raw = readFileSync(raw, 'utf8'); } catch (e) { throw new SimgrepError('PATH_NOT_FOUND', `${what}: cannot read it (${(e as NodeJS.ErrnoException).code})`); }
  }
  let parsed: unknown;
  try { parsed = pyJsonParse(raw); } catch (e) { throw new SimgrepError('BAD_FLAG', `${what}: not valid JSON (${(e as Error).message})`); }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new SimgrepError('BAD_FLAG', `${what}: must be a JSON object`);
  return parsed as Record<string, unknown>;
}
