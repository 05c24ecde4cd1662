// The one flag table: it drives parsing and --help; docs/cli.md's option table is checked against it
// (test/unit/docs.test.ts).
import { SimgrepError } from '../errors.js';
import { MODE_NAMES } from '../types.js';
import { FILTER_OPTIONS, type FilterOption, type FilterValues } from '../sources/filter-options.js';

type Kind = 'bool' | 'int' | 'number' | 'string' | 'size';

export interface FlagDef {
  name: string;
  short?: string;
  kind: Kind;
  value?: string;
  help: string;
  /** For bool flags that default on: --no-<name> turns them off. */
  negatable?: boolean;
  choices?: string[];
  /** A string flag that may be given more than once: its values are collected in order (a string[]). */
  repeatable?: boolean;
  /** Other long names for the same flag (semtools' clap aliases: --context, --threshold). */
  aliases?: string[];
}

/** A filter option of the one table (sources/filter-options.ts) as a flag: lists repeatable, and split on commas unless taken per item. */
function filterFlag(o: FilterOption): FlagDef {
  const kind = o.kind === 'list' ? 'string' : o.kind === 'count' ? 'int' : 'bool';
  const how = o.kind !== 'list' ? '' : o.perItem ? '; repeatable' : '; comma-separated or repeated';
  return { name: o.flag, short: o.short, kind, value: o.value, help: `${o.help}${how}`, repeatable: o.kind === 'list' || undefined };
}

/** The filter options given as flags, as the library takes them (not yet checked: checkFilterValues, which refuses an empty item: `-t ''` is no filter). */
export function filterValuesOf(flags: ParsedFlags): FilterValues {
  const out: Record<string, unknown> = {};
  for (const o of FILTER_OPTIONS as readonly FilterOption[]) {
    const v = flags[o.flag];
    if (v === undefined) continue;
    out[o.key] = o.kind === 'list' ? (v as string[]).flatMap((x) => (o.perItem ? [x] : x.split(','))) : v;
  }
  return out as FilterValues;
}

export const FLAGS: FlagDef[] = [
  { name: 'mode', kind: 'string', value: 'MODE', choices: [...MODE_NAMES], help: 'Ranking: hybrid (default), semantic (chunk embeddings only), lexical (or bm25), or line (each line alone, semtools)' },
  { name: 'top-k', kind: 'int', value: 'K', help: 'Show the K best results (default 3; with --max-distance, a cap)' },
  { name: 'n-lines', short: 'n', kind: 'int', value: 'N', help: 'Lines of context before and after each match (default 3)' },
  { name: 'max-distance', short: 'm', kind: 'number', value: 'D', help: 'Show every result with distance below D (--mode line: cosine distance, 0..2; other modes: 1/(1+relevance), 0..1)' },
  { name: 'ignore-case', short: 'i', kind: 'bool', help: 'Lower-case query and lines before embedding' },
  { name: 'json', kind: 'bool', help: 'Print semtools-compatible JSON ({"results":[...]}, 0-based lines)' },
  { name: 'jsonl', kind: 'bool', help: 'Print one JSON object per result per line (1-based lines)' },
  { name: 'like', kind: 'string', value: 'PATH:LINE', help: 'Find code like the chunk at PATH:LINE (that chunk left out); then every positional is a PATH to search' },
  { name: 'max-tokens', kind: 'int', value: 'N', help: 'With --json or --jsonl: keep the answer within N tokens (estimated as characters / 4): matches turn compact (match line and enclosing definition), then are left out; a "budget" object says what was cut' },
  { name: 'merge', kind: 'bool', negatable: true, help: 'Merge overlapping context windows in a file (--no-merge: one result per line)' },
  { name: 'recursive', short: 'r', kind: 'bool', negatable: true, help: 'Search directories recursively (default on; --no-recursive)' },
  { name: 'ignore', kind: 'bool', negatable: true, help: 'Respect .gitignore, .ignore and .git/info/exclude files (default on; --no-ignore)' },
  { name: 'hidden', kind: 'bool', help: 'Search hidden files and directories' },
  { name: 'follow', short: 'L', kind: 'bool', help: 'Follow symbolic links in directory walks (loops are detected and reported)' },
  ...(FILTER_OPTIONS as readonly FilterOption[]).map(filterFlag),
  { name: 'null', short: '0', kind: 'bool', help: 'With -l: end each path with a NUL byte instead of a newline (for xargs -0: a file name may hold a newline)' },
  { name: 'max-filesize', kind: 'size', value: 'SIZE', help: 'Skip files larger than SIZE (e.g. 10M, 1G)' },
  { name: 'timeout', kind: 'number', value: 'SECONDS', help: 'Stop reading after SECONDS and print the results found so far, once what was read is scored (exit 2; a stuck server or pipe never hangs the run)' },
  { name: 's3-endpoint', kind: 'string', value: 'URL', help: 'S3-compatible endpoint for s3:// paths, e.g. http://127.0.0.1:9000 (also AWS_ENDPOINT_URL)' },
  { name: 'gcs-endpoint', kind: 'string', value: 'URL', help: 'Cloud Storage JSON API endpoint for gs:// paths (a regional or private endpoint; signed in as usual). An emulator: STORAGE_EMULATOR_HOST' },
  { name: 'concurrency', short: 'J', kind: 'int', value: 'N', help: 'Worker threads (default: number of cores; 0 = no workers; at most 2 per core, at least 4)' },
  { name: 'model', kind: 'string', value: 'DIR|ORG/NAME', help: 'model2vec model: a local dir or a Hugging Face id (env SIMGREP_MODEL)' },
  { name: 'embedder', kind: 'string', value: 'KIND', choices: ['static', 'onnx'], help: 'Embedding backend: static (pure TypeScript) or onnx' },
  { name: 'offline', kind: 'bool', help: 'Never download; use only local or cached models (also HF_HUB_OFFLINE=1)' },
  { name: 'workspace', short: 'w', kind: 'string', value: 'NAME', help: 'Use (or with simgrep index, build) this named workspace index (also SIMGREP_WORKSPACE)' },
  { name: 'index-dir', kind: 'string', value: 'DIR|s3://…', help: 'Use (or build) the workspace index in this directory or s3:// prefix' },
  { name: 'index', kind: 'bool', negatable: true, help: 'Answer from a workspace index that covers the paths (default on; --no-index: always scan)' },
  { name: 'server', kind: 'bool', negatable: true, help: 'Send searches and simgrep index runs to the workspace\'s server when one runs (default on; --no-server: do the work in this process)' },
  { name: 'print-config', kind: 'bool', help: 'simgrep mcp --print-config CLIENT [ROOT]: print the entry that adds this MCP server to CLIENT (claude-code, cursor, vscode, codex, ...; none: the list), with absolute paths' },
  { name: 'idle-timeout', kind: 'number', value: 'SECONDS', help: 'simgrep serve: stop after SECONDS without a request (default 1800; 0 = never); simgrep mcp: the same for the resident engine it starts (default 900)' },
  { name: 'mcp', kind: 'bool', help: 'simgrep serve --mcp ROOT: run the resident engine that simgrep mcp fronts for ROOT share (they start it on demand; it stops when idle or 30 s after the last front exits)' },
  { name: 'cluster', kind: 'string', value: 'URL', help: 'Search on the workers of a cluster: its Redis, redis://host:6379 or rediss://:PASSWORD@host (also SIMGREP_CLUSTER); with simgrep index, build the index on them; with simgrep worker, the cluster to serve' },
  { name: 'cluster-timeout', kind: 'number', value: 'SECONDS', help: 'With --cluster: give up when no worker has been listening for SECONDS (default 30)' },
  { name: 'allow', kind: 'string', repeatable: true, value: 'PATH|URI', help: 'simgrep worker: let jobs read (and index jobs write) only under this directory or s3://, az://, gs://, https:// prefix; repeatable' },
  { name: 'allow-any-path', kind: 'bool', help: 'simgrep worker: let jobs read and write anything this machine can (whoever writes to the Redis then can)' },
  { name: 'shard-size', kind: 'size', value: 'SIZE', help: 'With --cluster: bytes of files per shard (default 16M)' },
  { name: 'state', kind: 'string', value: 'JSON', help: 'simgrep run: initial state as a JSON object (over the workflow\'s initial_state)' },
  { name: 'input', kind: 'string', value: 'JSON|@FILE', help: 'simgrep run: initial state as TEA takes it (-i after run): a JSON object, or @file.json / @file.yaml' },
  { name: 'code-timeout', kind: 'number', value: 'SECONDS', help: 'simgrep run: time limit of one inline run: block (default 120)' },
  { name: 'state-file', kind: 'string', value: 'FILE', help: 'simgrep run: initial state from a JSON file' },
  { name: 'env', kind: 'string', value: 'NAME,...', help: 'simgrep run: environment variables the workflow\'s templates may read as env.NAME, beside those it declares (env: at its top level); others are absent' },
  { name: 'stats', kind: 'bool', help: 'Print counts on stderr after the results: files, lines, bytes, skipped (binary, too large), errors, time' },
  { name: 'color', kind: 'string', value: 'WHEN', choices: ['auto', 'always', 'never'], help: 'Highlight matches: auto (on a terminal), always, never' },
  { name: 'help', short: 'h', kind: 'bool', help: 'Show this help' },
  { name: 'version', short: 'V', kind: 'bool', help: 'Show the version' },
];

/**
 * The semtools personality's table (`simgrep search`, and simgrep started as `semtools` or `search`):
 * semtools 3.x's `search` flags with its clap names, aliases and defaults (src/bin/semtools.rs),
 * TEA's `--output json`, and the few simgrep flags a semtools user may need (model, threads).
 */
export const SEMTOOLS_FLAGS: FlagDef[] = [
  { name: 'n-lines', short: 'n', aliases: ['context'], kind: 'int', value: 'N', help: 'How many lines before/after to return as context (default 3)' },
  { name: 'top-k', kind: 'int', value: 'K', help: 'The top-k lines to return (default 3; ignored if --max-distance is set, except in a workspace)' },
  { name: 'max-distance', short: 'm', aliases: ['threshold'], kind: 'number', value: 'D', help: 'Return all lines with cosine distance below this threshold (0.0+)' },
  { name: 'ignore-case', short: 'i', kind: 'bool', help: 'Perform case-insensitive search (default is false)' },
  { name: 'json', short: 'j', kind: 'bool', help: 'Output results in JSON format ({"results":[...]}, 0-based lines)' },
  { name: 'workspace', short: 'w', kind: 'string', value: 'NAME', help: 'Use a specific workspace (also SEMTOOLS_WORKSPACE); created on first use, filled by searches' },
  { name: 'output', kind: 'string', value: 'FORMAT', choices: ['json', 'text'], help: 'json: the match list TEA\'s semtools.search parses ([{file, line, score, text, context}]); text: the default' },
  { name: 'model', kind: 'string', value: 'DIR|ORG/NAME', help: 'simgrep: model2vec model, a local dir or a Hugging Face id (env SIMGREP_MODEL)' },
  { name: 'offline', kind: 'bool', help: 'simgrep: never download; use only local or cached models (also HF_HUB_OFFLINE=1)' },
  { name: 'concurrency', short: 'J', kind: 'int', value: 'N', help: 'simgrep: worker threads (default: number of cores; 0 = no workers)' },
  { name: 'help', short: 'h', kind: 'bool', help: 'Print help' },
  { name: 'version', short: 'V', kind: 'bool', help: 'Print version' },
];

export type ParsedFlags = Record<string, string | string[] | number | boolean | undefined>;

export interface ParsedArgs { flags: ParsedFlags; positionals: string[] }

/** The command a parse names (`index`, `mcp`, ...): its first positional, unless that came after `--` (then a query). */
export function commandName(argv: string[], positionals: string[]): string | undefined {
  const dashes = argv.indexOf('--');
  return dashes < 0 || argv.indexOf(positionals[0]) < dashes ? positionals[0] : undefined;
}

export function parseArgs(argv: string[], table: readonly FlagDef[] = FLAGS, program = 'simgrep'): ParsedArgs {
  const flags: ParsedFlags = {};
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') { positionals.push(...argv.slice(i + 1)); break; }
    // A negative number is a positional (a query "-1"), except a digit that is a short flag (-0, ripgrep's --null).
    if (!arg.startsWith('-') || arg === '-' || (/^-\d/.test(arg) && !table.some((f) => f.short === arg.slice(1)))) { positionals.push(arg); continue; }
    let name: string;
    let inline: string | undefined;
    let def: FlagDef | undefined;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
      inline = eq >= 0 ? arg.slice(eq + 1) : undefined;
      def = table.find((f) => f.name === name || f.aliases?.includes(name));
      if (!def && name.startsWith('no-')) {
        const base = table.find((f) => f.name === name.slice(3) && f.negatable);
        if (base) { flags[base.name] = false; continue; }
      }
    } else {
      name = arg.slice(1, 2);
      def = table.find((f) => f.short === name);
      inline = arg.length > 2 ? arg.slice(def?.kind !== 'bool' && arg[2] === '=' ? 3 : 2) : undefined;
    }
    if (!def) throw new SimgrepError('BAD_FLAG', `unknown option ${arg}; run ${program} --help for the list`);
    if (def.kind === 'bool') {
      if (inline !== undefined && arg.startsWith('--')) throw new SimgrepError('BAD_FLAG', `--${def.name} takes no value`);
      flags[def.name] = true;
      if (inline !== undefined) i = expandShortBools(inline, flags, i, table, program);
      continue;
    }
    const raw = inline ?? argv[++i];
    if (raw === undefined) throw new SimgrepError('BAD_FLAG', `--${def.name} needs a value (${def.value})`);
    const value = convert(def, raw);
    flags[def.name] = def.repeatable ? [...((flags[def.name] as string[] | undefined) ?? []), value as string] : value;
  }
  return { flags, positionals };
}

/** -ir style clusters of short boolean flags. */
function expandShortBools(rest: string, flags: ParsedFlags, i: number, table: readonly FlagDef[], program: string): number {
  for (const ch of rest) {
    const def = table.find((f) => f.short === ch);
    if (!def || def.kind !== 'bool') throw new SimgrepError('BAD_FLAG', `unknown option -${ch} in a short-option cluster; run ${program} --help`);
    flags[def.name] = true;
  }
  return i;
}

function convert(def: FlagDef, raw: string): string | number {
  const bad = (what: string) => new SimgrepError('BAD_FLAG', `--${def.name} ${what} (got "${raw}")`);
  switch (def.kind) {
    case 'int': {
      if (!/^-?\d+$/.test(raw)) throw bad('needs a whole number');
      return Number(raw);
    }
    case 'number': {
      const n = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(n)) throw bad('needs a number');
      return n;
    }
    case 'size': return parseSize(raw, bad);
    default:
      if (def.choices && !def.choices.includes(raw)) throw bad(`must be one of ${def.choices.join(', ')}`);
      return raw;
  }
}

function parseSize(raw: string, bad: (w: string) => Error): number {
  const m = /^(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?$/i.exec(raw.trim());
  if (!m) throw bad('needs a size like 500K, 10M or 1G');
  const mult = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 }[m[2].toLowerCase() as '' | 'k' | 'm' | 'g' | 't'];
  return Math.floor(Number(m[1]) * mult);
}

function optionRows(table: readonly FlagDef[]): string[] {
  return table.map((f) => {
    const long = [f.name, ...(f.aliases ?? [])].map((n) => `--${f.negatable ? `[no-]${n}` : n}`).join(', ');
    const names = `${f.short ? `-${f.short}, ` : '    '}${long}${f.value ? ` <${f.value}>` : ''}`;
    return `  ${names.padEnd(34)} ${f.help}`;
  });
}

/** --help of the semtools personality: semtools' usage lines, SEMTOOLS_FLAGS, and what differs. */
export function semtoolsHelpText(version: string, program: string): string {
  const search = program === 'search' ? 'search' : `${program} search`;
  return [
    `${program} (simgrep ${version} as semtools 3.x) — semantic keyword search, line by line, offline`,
    '',
    `Usage: ${search} [OPTIONS] <QUERY> [FILES]...`,
    `       command | ${search} [OPTIONS] <QUERY>`,
    ...(program === 'search' ? [] : [`       ${program} workspace use|status|prune [NAME] [--json]`]),
    '',
    'Exit status: 0 on success (also when nothing matched), 1 if a file could not be searched, 2 on a usage error.',
    '',
    'Options:',
    ...optionRows(SEMTOOLS_FLAGS),
    '',
  ].join('\n');
}

export function helpText(version: string): string {
  const rows = optionRows(FLAGS);
  return [
    `simgrep ${version} — semantic grep: find the lines that mean what you ask, offline`,
    '',
    'Usage: simgrep [OPTIONS] <QUERY> [PATH]...',
    '       command | simgrep [OPTIONS] <QUERY>',
    '       simgrep index [-w NAME | --index-dir DIR] [PATH]...      build or update a workspace index',
    '       simgrep workspace use|status|list|prune|rm [NAME] [--json]',
    '       simgrep search [OPTIONS] <QUERY> <FILE>...                  semtools 3.x\'s search: its flags, output and exit codes',
    '       simgrep serve [-w NAME | --index-dir DIR | PATH...]          keep a workspace loaded: searches of it answer in milliseconds',
    '       simgrep serve --mcp ROOT                                   the resident engine simgrep mcp starts on demand (one per root)',
    '       simgrep worker --cluster redis://host:6379 --allow DIR|URI [-J N]  serve cluster searches and index builds (see --cluster, --allow)',
    '       simgrep mcp [ROOT]                                           an MCP server on stdio for coding agents, confined to ROOT',
    '       simgrep mcp --print-config [CLIENT] [ROOT]                   the entry that adds it to an MCP client (claude-code, cursor, vscode, codex, ...)',
    '       (to search for the word "index", "workspace", "search" or "serve", put -- before the query)',
    '',
    'PATH may be a file, a directory (searched recursively), a quoted glob, - (standard input), or a URI:',
    's3://bucket/prefix/, gs://bucket/prefix/, az://container/prefix/, https://host/file (credentials: docs/remote.md).',
    'Exit status: 0 if a line matched, 1 if none did, 2 if an error occurred.',
    '',
    'Options:',
    ...rows,
    '',
  ].join('\n');
}
