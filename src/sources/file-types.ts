// ripgrep's type names (-t/--type) for the languages simgrep is used on, as the extensions each means:
// one table for the CLI, the library, the MCP tools and the actions. A name is taken in any case and by
// the common names of its language (Python, TypeScript, C++, golang): agents write those.
import { SimgrepError } from '../errors.js';

export const FILE_TYPES: Record<string, string[]> = {
  c: ['.c', '.h'],
  cpp: ['.cpp', '.cc', '.cxx', '.c++', '.hpp', '.hh', '.hxx', '.h++', '.h', '.inl'],
  cs: ['.cs'],
  css: ['.css', '.scss', '.sass', '.less'],
  dart: ['.dart'],
  elixir: ['.ex', '.exs', '.eex', '.heex', '.leex'],
  go: ['.go'],
  haskell: ['.hs', '.lhs', '.cabal'],
  html: ['.html', '.htm', '.xhtml', '.ejs'],
  java: ['.java', '.jsp', '.jspx', '.properties'],
  js: ['.js', '.jsx', '.vue', '.cjs', '.mjs'],
  json: ['.json', '.jsonl', '.geojson', '.sarif'],
  kotlin: ['.kt', '.kts'],
  lua: ['.lua'],
  markdown: ['.markdown', '.md', '.mdown', '.mdwn', '.mdx', '.mkd', '.mkdn', '.ron'],
  md: ['.markdown', '.md', '.mdown', '.mdwn', '.mdx', '.mkd', '.mkdn', '.ron'],
  php: ['.php', '.php3', '.php4', '.php5', '.php7', '.php8', '.pht', '.phtml'],
  py: ['.py', '.pyi'],
  ruby: ['.rb', '.gemspec', '.rake', '.ru'],
  rust: ['.rs'],
  scala: ['.scala', '.sbt', '.sc'],
  sh: ['.sh', '.bash', '.zsh', '.ksh', '.csh', '.fish'],
  sql: ['.sql', '.psql'],
  swift: ['.swift'],
  toml: ['.toml'],
  ts: ['.ts', '.tsx', '.cts', '.mts'],
  txt: ['.txt'],
  yaml: ['.yaml', '.yml'],
};

/**
 * The names people and agents use for a type, beside ripgrep's (which stay the canonical ones, the names
 * the docs and messages list): the language's own name, a common short form.
 */
export const TYPE_ALIASES: Record<string, string> = {
  'c++': 'cpp', cplusplus: 'cpp', cxx: 'cpp',
  'c#': 'cs', csharp: 'cs',
  golang: 'go',
  javascript: 'js', jsx: 'js',
  kt: 'kotlin',
  python: 'py',
  rb: 'ruby',
  rs: 'rust',
  bash: 'sh', shell: 'sh', zsh: 'sh',
  typescript: 'ts', tsx: 'ts',
  text: 'txt',
  yml: 'yaml',
  hs: 'haskell',
  htm: 'html',
};

/** ripgrep's name of a type given in any case or by an alias (" Python " -> py), or undefined when unknown. */
export function canonicalType(name: string): string | undefined {
  const key = name.trim().toLowerCase();
  if (Object.hasOwn(FILE_TYPES, key)) return key;
  return Object.hasOwn(TYPE_ALIASES, key) ? TYPE_ALIASES[key] : undefined;
}

/** What a refusal of an unknown type lists: ripgrep's names, then that case and the aliases are taken. */
export function knownTypesText(): string {
  return `${Object.keys(FILE_TYPES).join(', ')} (any case; also ${Object.keys(TYPE_ALIASES).join(', ')})`;
}

/**
 * The extensions a search keeps: `extensions` plus those of every named type (their union, as
 * ripgrep's repeated -t), or undefined when neither narrows. An unknown type is refused with the list.
 */
export function extensionsWithTypes(extensions: string[] | undefined, types: string[] | undefined): string[] | undefined {
  if (!types || types.length === 0) return extensions;
  const out = new Set(extensions ?? []);
  for (const t of types) {
    const type = canonicalType(t);
    if (!type) throw new SimgrepError('BAD_FLAG', `unknown file type "${t}"; known types: ${knownTypesText()}`);
    for (const e of FILE_TYPES[type]) out.add(e);
  }
  return [...out];
}
