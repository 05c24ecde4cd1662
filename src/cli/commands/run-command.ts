// simgrep run agent.yaml [--state JSON] [--state-file FILE] [--env NAME,...]: runs a YAML agent and
// prints its final state as JSON on stdout.
import { readFileSync } from 'node:fs';
import { SimgrepError } from '../../errors.js';
import { parseWorkflow, runWorkflow } from '../../actions/workflow/workflow.js';
import { parseAllowedEnv } from '../../actions/workflow/workflow-env.js';
import type { EmbedderKind } from '../../types.js';
import type { ParsedFlags } from '../flags.js';

export async function runRunCommand(flags: ParsedFlags, args: string[]): Promise<number> {
  if (args.length !== 1) throw new SimgrepError('BAD_FLAG', 'usage: simgrep run AGENT.yaml [--state JSON] [--state-file FILE] [--env NAME,...]');
  const file = args[0];
  let text: string;
  try { text = readFileSync(file, 'utf8'); } catch (e) {
    throw new SimgrepError('PATH_NOT_FOUND', `${file}: cannot read the workflow (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const wf = parseWorkflow(text, file);
  const state = { ...readState(flags['state-file'], true), ...readState(flags.state, false) };
  const final = await runWorkflow(wf, {
    state,
    allowEnv: parseAllowedEnv(flags.env as string | undefined),
    engineOptions: {
      ...(typeof flags.model === 'string' ? { model: flags.model } : {}),
      concurrency: flags.concurrency as number | undefined,
      embedder: flags.embedder as EmbedderKind | undefined,
      offline: flags.offline === true || undefined,
    },
  });
  process.stdout.write(`${JSON.stringify(final, null, 2)}\n`);
  return 0;
}

function readState(v: unknown, isFile: boolean): Record<string, unknown> {
  if (v === undefined) return {};
  const what = isFile ? `--state-file ${String(v)}` : '--state';
  let raw = String(v);
  if (isFile) {
    try { raw = readFileSync(raw, 'utf8'); } catch (e) { throw new SimgrepError('PATH_NOT_FOUND', `${what}: cannot read it (${(e as NodeJS.ErrnoException).code})`); }
  }
  let parsed: unknown;
  try { parsed = JSON.parse(raw); } catch (e) { throw new SimgrepError('BAD_FLAG', `${what}: not valid JSON (${(e as Error).message})`); }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new SimgrepError('BAD_FLAG', `${what}: must be a JSON object`);
  return parsed as Record<string, unknown>;
}
