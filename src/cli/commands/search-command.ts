// semtools 3.x's `search`: each line of each file embedded alone, ranked by cosine distance, one result
// per line; with --max-distance every line below it (--top-k ignored), else the --top-k best; in a
// workspace (-w or SEMTOOLS_WORKSPACE) the files are indexed into it first and --top-k always caps.
// Output: semtools' text, its --json, or (--output json) the match list TEA's semtools.search parses.
import { existsSync, mkdirSync } from 'node:fs';
import { SimgrepError } from '../../errors.js';
import { createJsonPrinter } from '../../output/json.js';
import { teaMatch } from '../../output/tea-matches.js';
import { createTextPrinter } from '../../output/text.js';
import type { SearchOptions, SearchResponse } from '../../searcher/api.js';
import { isRemoteUri } from '../../sources/uri.js';
import { SEMTOOLS_FLAGS, parseArgs, semtoolsHelpText } from '../flags.js';
import { visibleLine } from '../../output/visible.js';

const out = (s: string) => { process.stdout.write(s); };

export async function runSemtoolsSearch(argv: string[], program: string, version: string): Promise<number> {
  const { flags, positionals } = parseArgs(argv, SEMTOOLS_FLAGS, program);
  if (flags.help) { out(semtoolsHelpText(version, program === 'search' ? 'search' : program.replace(/ search$/, ''))); return 0; }
  if (flags.version) { out(`semtools ${version} (simgrep)\n`); return 0; }
  const [query, ...files] = positionals;
  if (query === undefined) throw new SimgrepError('BAD_QUERY', `the following required arguments were not provided:\n  <QUERY>\n\nUsage: ${program} <QUERY> [FILES]...`);
  const nLines = (flags['n-lines'] as number | undefined) ?? 3;
  const topK = (flags['top-k'] as number | undefined) ?? 3;
  const maxDistance = flags['max-distance'] as number | undefined;
  if (nLines < 0) throw new SimgrepError('BAD_FLAG', `invalid value '${nLines}' for '--n-lines <N_LINES>': a count cannot be negative`);
  if (topK < 0) throw new SimgrepError('BAD_FLAG', `invalid value '${topK}' for '--top-k <TOP_K>': a count cannot be negative`);
  const useStdin = files.length === 0 && !process.stdin.isTTY;
  if (files.length === 0 && !useStdin) {
    // semtools: a runtime error (exit 1), not a usage error.
    throw new SimgrepError('PATH_NOT_FOUND', 'No input provided. Either specify files as arguments or pipe input to stdin.');
  }
  const workspaceName = useStdin ? undefined : (flags.workspace as string | undefined) ?? (process.env.SEMTOOLS_WORKSPACE || undefined);
  const engine = {
    model: flags.model as string | undefined,
    concurrency: flags.concurrency as number | undefined,
    offline: flags.offline === true || undefined,
  };
  const options: SearchOptions = {
    query, paths: files, mode: 'line', merge: false, nLines, maxDistance, ignoreCase: flags['ignore-case'] === true,
    // semtools returns every line under --max-distance, but its workspace search still takes top-k.
    topK: maxDistance !== undefined && workspaceName === undefined ? undefined : topK,
  };
  const { createSearcher, createWorkspace } = await import('../../library.js');
  let response: SearchResponse;
  if (workspaceName !== undefined) {
    const { checkName, workspaceDir } = await import('../../workspace/registry.js');
    // As semtools does, a workspace named for the first time is created, and a search fills it.
    mkdirSync(workspaceDir(checkName(workspaceName)), { recursive: true });
    const ws = createWorkspace({ ...engine, name: workspaceName, oneShot: true });
    try {
      // A missing file is an error for that file (the search says so, exit 1), as without a workspace;
      // the files that exist are still indexed and searched (before, one missing file failed it all: trial33).
      const present = files.filter((f) => isRemoteUri(f) || existsSync(f));
      const report = present.length > 0 ? await ws.index(present) : { indexed: 0, lines: 0 };
      if (report.indexed > 0) {
        process.stderr.write(`Updating workspace with ${report.lines} lines from new/changed docs...\n`);
        process.stderr.write(`Updating workspace with ${report.indexed} new/changed documents...\n`);
      }
      response = await ws.search(options);
    } finally {
      await ws.close();
    }
  } else {
    const searcher = createSearcher(engine);
    try {
      const { createStdinSource } = await import('../../sources/content.js');
      response = await searcher.search({ ...options, sources: useStdin ? [createStdinSource(process.stdin)] : undefined });
    } finally {
      await searcher.close();
      if (useStdin) process.stdin.destroy();
    }
  }
  for (const w of response.warnings) process.stderr.write(`Error: ${visibleLine(w.message)}\n`);
  if (flags.output === 'json') {
    out(`${JSON.stringify(response.results.map(teaMatch), null, 2)}\n`);
  } else {
    const printer = flags.json ? createJsonPrinter(out) : createTextPrinter(out, { color: process.stdout.isTTY === true });
    for (const r of response.results) printer.result(r);
    printer.end?.();
  }
  return response.stats.errors > 0 ? 1 : 0;
}
