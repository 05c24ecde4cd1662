// The simgrep command: parse -> run -> print -> exit code (0 hits, 1 none, 2 an error occurred).
import './arrow-first.js';
import path from 'node:path';
import { SimgrepError, isSimgrepError } from '../errors.js';
import { createJsonPrinter } from '../output/json.js';
import { createJsonlPrinter } from '../output/jsonl.js';
import { roundDistance, type Printer } from '../output/printer.js';
import { createTextPrinter } from '../output/text.js';
import { visibleLine, visibleName } from '../output/visible.js';
import { budgetedJson, budgetedJsonl } from '../output/budgeted.js';
import { filterAdvice, filtersGiven } from '../sources/filter-advice.js';
import { checkFilterValues } from '../sources/filter-options.js';
import type { SearchMode } from '../types.js';
import type { SearchResponse } from '../searcher/api.js';
import { modeOf, type EmbedderKind, type ModeName } from '../types.js';
import { commandName, filterValuesOf, helpText, parseArgs, type ParsedFlags } from './flags.js';
import { createProgress } from './progress.js';
import { searchTarget, targetDir } from './commands/workspace-target.js';
import { askServer } from '../server/client.js';
import { identityOf } from '../server/identity.js';
import type { WireSearchOptions } from '../server/protocol.js';
import { socketPathFor } from '../server/socket-path.js';
import { writeFailure } from './write-failure.js';
import { removeIncompleteDownloads } from '../model/download-temps.js';
import { thousands } from './thousands.js';
import { sayUntrusted } from './untrusted-socket.js';
import { simgrepVersion } from '../version.js';
import { personalityOf, runSemtools } from './semtools.js';

const version = simgrepVersion();

type Command = (flags: ParsedFlags, args: string[]) => Promise<number>;

/**
 * Subcommands by their first word (anything else is a search), loaded when used: a plain search
 * never loads the MCP SDK, the workflow runner or LanceDB.
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  index: async () => (await import('./commands/index-command.js')).runIndexCommand,
  serve: async () => (await import('./commands/serve-command.js')).runServeCommand,
  workspace: async () => (await import('./commands/workspace-command.js')).runWorkspaceCommand,
  mcp: async () => (await import('./commands/mcp-command.js')).runMcpCommand,
  run: async () => (await import('./commands/run-command.js')).runRunCommand,
  worker: async () => (await import('./commands/worker-command.js')).runWorkerCommand,
};

/** Aborted by Ctrl-C / SIGTERM during a cluster search, so its shards are cancelled before simgrep dies. */
const interrupted = new AbortController();
let searching: Promise<unknown> | null = null;

async function main(argv: string[]): Promise<number> {
  // Started as `semtools` or `search` (a symlink), or `simgrep search ...`: semtools 3.x's CLI.
  const personality = personalityOf(process.argv[1]);
  if (personality || argv[0] === 'search') return runSemtools(personality ? argv : argv.slice(1), personality ?? 'simgrep', version);
  // `simgrep run` takes TEA's -i for --input (elsewhere -i is --ignore-case, as in grep).
  if (argv[0] === 'run') argv = argv.map((a) => (a === '-i' ? '--input' : a));
  const { flags, positionals } = parseArgs(argv);
  if (flags.help) { process.stdout.write(helpText(version)); return 0; }
  if (flags.version) { process.stdout.write(`simgrep ${version}\n`); return 0; }
  const name = commandName(argv, positionals);
  const command = name === undefined ? undefined : COMMANDS[name];
  if (command) return (await command())(flags, positionals.slice(1));
  const like = typeof flags.like === 'string' ? parseLike(flags.like) : undefined;
  const [query, ...named] = like ? ['', ...positionals] : positionals;
  if (query === undefined) throw new SimgrepError('BAD_QUERY', 'missing QUERY; usage: simgrep [OPTIONS] <QUERY> [PATH]... (simgrep --help)');
  // "-" is standard input, as in grep (once, wherever it stands among the paths).
  const paths = named.filter((p) => p !== '-');
  const dash = paths.length < named.length;
  const useStdin = dash || (paths.length === 0 && !process.stdin.isTTY);
  if (named.length === 0 && !useStdin) {
    throw new SimgrepError('BAD_FLAG', 'no PATH given and nothing piped on stdin; e.g. simgrep "retry failed uploads" ./src');
  }
  if (flags.json && flags.jsonl) throw new SimgrepError('BAD_FLAG', 'choose one of --json and --jsonl');
  checkAnswerFlags(flags);
  const filters = filterValuesOf(flags);
  checkFilterValues(filters, 'cli');

  const progress = createProgress(process.stderr);
  const engine = {
    model: flags.model as string | undefined,
    concurrency: flags.concurrency as number | undefined,
    embedder: flags.embedder as EmbedderKind | undefined,
    offline: flags.offline === true || undefined,
    onModelProgress: progress.download,
  };
  const clusterUrl = (flags.cluster as string | undefined) ?? (process.env.SIMGREP_CLUSTER || undefined);
  const cluster = clusterUrl === undefined ? undefined : {
    url: clusterUrl,
    timeoutMs: typeof flags['cluster-timeout'] === 'number' ? flags['cluster-timeout'] * 1000 : undefined,
    shardBytes: flags['shard-size'] as number | undefined,
    onNotice: (m: string) => { progress.clear(); process.stderr.write(`simgrep: ${visibleLine(m)}\n`); },
  };
  const options: WireSearchOptions = {
    query,
    like,
    mode: flags.mode === undefined ? undefined : modeOf(flags.mode as ModeName),
    paths,
    topK: flags['top-k'] as number | undefined,
    maxDistance: flags['max-distance'] as number | undefined,
    nLines: flags['n-lines'] as number | undefined,
    ignoreCase: flags['ignore-case'] === true,
    ...filters,
    recursive: flags.recursive !== false,
    hidden: flags.hidden === true,
    noIgnore: flags.ignore === false,
    maxFileBytes: flags['max-filesize'] as number | undefined,
    followSymlinks: flags.follow === true,
    timeoutMs: typeof flags.timeout === 'number' ? flags.timeout * 1000 : undefined,
    remote: { s3Endpoint: flags['s3-endpoint'] as string | undefined, gcsEndpoint: flags['gcs-endpoint'] as string | undefined },
    merge: flags.merge !== false,
  };
  // A cluster search scans on the workers: a workspace index here cannot answer for them.
  const target = useStdin || cluster ? null : searchTarget(flags, paths);
  // The workspace's resident server (simgrep serve) answers when one runs for it.
  if (target && flags.server !== false) {
    const answer = await askServer(socketPathFor(targetDir(target)), { op: 'search', identity: identityOf(engine), cwd: process.cwd(), options }, { onUntrusted: sayUntrusted });
    if (answer?.search) return report(answer.search, flags, { pid: answer.pid, building: answer.freshness === 'building' }, like ? named[0] : undefined);
  }
  // Loaded only for a search this process runs itself: a server's client never pays for them.
  const [{ createWorkspace, createSearcher }, { createStdinSource }] = await Promise.all([
    import('../library.js'), import('../sources/content.js'),
  ]);
  const searcher = target ? createWorkspace({ ...engine, ...target, remote: { s3Endpoint: flags['s3-endpoint'] as string | undefined, gcsEndpoint: flags['gcs-endpoint'] as string | undefined }, oneShot: true }) : createSearcher(engine);
  try {
    const search = searcher.search({
      ...options,
      cluster,
      signal: cluster ? interrupted.signal : undefined,
      sources: useStdin ? [createStdinSource(process.stdin)] : undefined,
      onProgress: progress.search,
    });
    if (cluster) searching = search;
    const response = await search;
    progress.clear();
    return report(response, flags, undefined, like ? named[0] : undefined);
  } finally {
    progress.clear();
    await searcher.close();
    // A pipe that never ends (cut short by --timeout) must not keep the process alive.
    if (useStdin) process.stdin.destroy();
  }
}

/**
 * Prints warnings and results (before the worker pool is closed), and returns the exit code. `likeFirst`: with --like, the first positional, which a query written beside --like (from a plain search's
 * habit) lands in: not found, it is named as such (before audit44, only "no such file or directory").
 */
function report(response: SearchResponse, flags: ParsedFlags, server?: ServedBy, likeFirst?: string): number {
  for (const w of response.warnings) {
    const hint = likeFirst === undefined || w.code !== 'PATH_NOT_FOUND' || w.path !== likeFirst ? ''
      : looksLikeQuery(likeFirst) ? '; with --like every positional is a PATH: the chunk at PATH:LINE is the query, so leave the query out'
        : isBareWord(likeFirst) ? `; if ${likeFirst} was meant as the query, leave it out: with --like every positional is a PATH (the chunk at PATH:LINE is the query)`
          : '';
    process.stderr.write(`simgrep: ${visibleLine(w.message)}${hint}\n`);
  }
  const results = response.results;
  const filtersNote = noFileNote(response, flags);
  if (filtersNote) process.stderr.write(`simgrep: ${visibleLine(filtersNote)}\n`);
  const maxTokens = flags['max-tokens'] as number | undefined;
  if (flags['files-with-matches']) {
    // -0 is for programs: the names as they are. Otherwise a person reads them: one name a line, escaped.
    const line = flags.null ? (f: string) => `${f}\0` : (f: string) => `${visibleName(f)}\n`;
    process.stdout.write((response.files ?? [...new Set(results.map((r) => r.filename))]).map(line).join(''));
  } else if (maxTokens !== undefined) {
    process.stdout.write(flags.json ? budgetedJson(results, maxTokens) : budgetedJsonl(results, maxTokens));
  } else {
    const printer = pickPrinter(flags);
    for (const r of results) printer.result(r);
    printer.end?.();
  }
  if (response.results.length === 0 && response.closestMiss && !flags.json && !flags.jsonl) {
    const c = response.closestMiss;
    // Its distance as results print theirs: -m past it keeps it.
    process.stderr.write(`simgrep: no line is closer than --max-distance ${flags['max-distance']}; the closest was ${visibleName(c.filename)}:${c.match_line + 1} (distance ${roundDistance(c.distance)})\n`);
  }
  if (flags.stats) process.stderr.write(statsLine(response.stats, server));
  if (response.stats.errors > 0) return 2;
  return results.length > 0 ? 0 : 1;
}

/**
 * When the file filters (-g, -t, -T, --ext) passed no file, what to write instead: "no match" and exit 1
 * alone read as "nothing like it here" to whoever wrote `-g 'flask\sansio\*.py'` (agent47's left).
 */
function noFileNote(response: SearchResponse, flags: ParsedFlags): string | null {
  if (response.results.length > 0 || response.stats.files > 0) return null;
  const values = filterValuesOf(flags);
  const given = filtersGiven(values, 'cli');
  if (given.length === 0) return null;
  const named = given.map((g) => `${g.name} ${g.values.map((v) => JSON.stringify(v)).join(' ')}`).join(', ');
  return `no file passed the filters (${named}); ${filterAdvice(values, 'the searched directory').join('; ')}`;
}

/**
 * Whether a positional that is not there reads as a query written beside --like, not a mistyped path:
 * words apart, with no path separator and no file extension (`retry upload`, not `srcc` or `my dir/x.ts`,
 * which were told to leave a query out: audit44's left).
 */
const looksLikeQuery = (p: string): boolean => /\S\s+\S/.test(p) && !/[\\/]/.test(p) && !/\.\w{1,8}$/.test(p);
/**
 * One word with no separator and no extension (`upload`, `srcc`): a one-word query or a mistyped
 * directory, which the missing path cannot tell apart, so the hint says "if" (mend45c: a one-word query
 * beside --like had no hint once looksLikeQuery asked for words apart).
 */
const isBareWord = (p: string): boolean => /^[^\s\\/]+$/.test(p) && !/\.\w{1,8}$/.test(p);

/** --like PATH:LINE, the path made absolute (a resident server has its own working directory). */
function parseLike(raw: string): { path: string; line: number } {
  const m = /^(.+):(\d+)$/.exec(raw);
  if (!m) throw new SimgrepError('BAD_FLAG', `--like needs PATH:LINE, e.g. --like src/upload.ts:42 (got "${raw}")`);
  return { path: path.resolve(m[1]), line: Number(m[2]) };
}

function checkAnswerFlags(flags: ParsedFlags): void {
  const maxTokens = flags['max-tokens'];
  if (maxTokens !== undefined && !flags.json && !flags.jsonl) throw new SimgrepError('BAD_FLAG', '--max-tokens caps a JSON answer: add --json or --jsonl');
  if (maxTokens !== undefined && (maxTokens as number) < 50) throw new SimgrepError('BAD_FLAG', `--max-tokens must be at least 50 (got ${maxTokens})`);
  if (flags['files-with-matches'] && (flags.json || flags.jsonl)) throw new SimgrepError('BAD_FLAG', 'choose one of -l/--files-with-matches and --json/--jsonl');
  if (flags.null && !flags['files-with-matches']) throw new SimgrepError('BAD_FLAG', '-0/--null ends the paths -l prints: add -l (--json and --jsonl escape a newline in a name already)');
}

/** Which server answered, and whether it read the files because its index was being built. */
interface ServedBy { pid: number; building: boolean }

function statsLine(s: SearchResponse['stats'], server?: ServedBy): string {
  const n = (x: number, unit: string) => `${thousands(x)} ${unit}${x === 1 ? '' : 's'}`;
  const by = server === undefined ? '' : `${server.building ? ' (read directly: index building)' : ''}, answered by simgrep serve (pid ${server.pid})`;
  const pending = s.index?.pending ? `, for this search only: simgrep index saves ${s.index.pending === 1 ? 'it' : 'them'}` : '';
  const from = s.index ? ` from workspace ${s.index.workspace} (${n(s.index.refreshed, 'file')} re-indexed first${pending}${by})` : by;
  return `simgrep: searched ${n(s.files, 'file')}, ${n(s.lines, 'line')}, ${n(s.bytes, 'byte')}${from} in ${Math.round(s.ms)} ms; `
    + `skipped ${n(s.skipped, 'file')} (${s.binary} binary); ${n(s.errors, 'error')}\n`;
}

function pickPrinter(flags: ParsedFlags): Printer {
  const write = (s: string) => { process.stdout.write(s); };
  if (flags.json) return createJsonPrinter(write);
  if (flags.jsonl) return createJsonlPrinter(write);
  const color = flags.color === 'always' || (flags.color !== 'never' && process.stdout.isTTY === true);
  return createTextPrinter(write, { color });
}

process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  // A closed pipe (simgrep … | head) is a normal end; any other failed write (a full disk, /dev/full,
  // a revoked terminal) must not pass as success or end in a stack trace.
  if (e.code === 'EPIPE') process.exit(0);
  process.stderr.write(`simgrep: ${writeFailure(e)}\n`);
  process.exit(2);
});

// Ctrl-C or a kill in the middle of a model download: remove its temp files (the Hugging Face cache kept
// them forever), then die of the same signal, so the shell sees what it always saw.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    removeIncompleteDownloads();
    if (process.listenerCount(signal) > 0) return; // the command handles it (simgrep worker)
    const die = () => process.kill(process.pid, signal);
    if (!searching) { die(); return; }
    // A cluster search first takes its shards back out of Redis (bounded: Redis may be gone).
    interrupted.abort();
    void Promise.race([searching.catch(() => {}), new Promise((r) => setTimeout(r, 3000))]).then(die);
  });
}
process.on('exit', () => { removeIncompleteDownloads(); });

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (e: unknown) => {
    const msg = isSimgrepError(e) ? e.message : (e as Error)?.stack ?? String(e);
    process.stderr.write(`simgrep: ${msg}\n`);
    process.exitCode = 2;
  },
);
