// The semtools personality: `simgrep search ...`, and simgrep started under the name `semtools` or
// `search` (a symlink), behave as semtools 3.x does: its subcommands, flags, output and exit codes
// (0 = ran, matches or not; 1 = a failure while running; 2 = a usage error, as clap exits).
import path from 'node:path';
import { isSimgrepError } from '../errors.js';
import { semtoolsHelpText } from './flags.js';

export type Personality = 'semtools' | 'search';

/** The personality the program's own name asks for (argv[1]'s base name, without .js/.cjs/.mjs). */
export function personalityOf(scriptPath: string | undefined): Personality | null {
  const base = path.basename(scriptPath ?? '').replace(/\.[cm]?js$/, '');
  return base === 'semtools' || base === 'search' ? base : null;
}

/** A failure as semtools reports it: usage errors as clap does (exit 2), others as anyhow does (exit 1). */
export function reportFailure(e: unknown, program: string, json: boolean): number {
  const usage = isSimgrepError(e) && (e.code === 'BAD_FLAG' || e.code === 'BAD_QUERY');
  const message = isSimgrepError(e) ? e.message : (e as Error)?.message ?? String(e);
  if (json) {
    const errorType = isSimgrepError(e) ? e.code : 'Internal';
    process.stderr.write(`${JSON.stringify({ error: message, error_type: errorType }, null, 2)}\n`);
  } else {
    process.stderr.write(usage ? `error: ${message}\n\nFor more information, try '${program} --help'.\n` : `Error: ${message}\n`);
  }
  return usage ? 2 : 1;
}

/**
 * Runs the semtools personality. `program` is how the user called it: 'semtools', 'search' (semtools'
 * search alone), or 'simgrep' (`simgrep search ...`; argv starts after "search").
 */
export async function runSemtools(argv: string[], program: 'semtools' | 'search' | 'simgrep', version: string): Promise<number> {
  const json = argv.includes('-j') || argv.includes('--json');
  try {
    if (program !== 'semtools') {
      const { runSemtoolsSearch } = await import('./commands/search-command.js');
      return await runSemtoolsSearch(argv, program === 'simgrep' ? 'simgrep search' : 'search', version);
    }
    const [sub, ...rest] = argv;
    if (sub === 'search') return await (await import('./commands/search-command.js')).runSemtoolsSearch(rest, 'semtools search', version);
    if (sub === 'workspace') return await (await import('./commands/semtools-workspace-command.js')).runSemtoolsWorkspace(rest, version);
    if (sub === undefined || sub === '-h' || sub === '--help' || sub === 'help') {
      process.stdout.write(semtoolsHelpText(version, 'semtools'));
      return sub === undefined ? 2 : 0;
    }
    if (sub === '-V' || sub === '--version') { process.stdout.write(`semtools ${version} (simgrep)\n`); return 0; }
    if (sub === 'parse' || sub === 'ask') {
      process.stderr.write(`error: semtools ${sub} is not part of simgrep (it calls ${sub === 'parse' ? 'LlamaParse' : 'an LLM'}); use semtools itself for it\n`);
      return 2;
    }
    process.stderr.write(`error: unrecognized subcommand '${sub}'\n\nUsage: semtools <COMMAND>\n\nFor more information, try 'semtools --help'.\n`);
    return 2;
  } catch (e) {
    return reportFailure(e, program === 'simgrep' ? 'simgrep search' : program, json);
  }
}
