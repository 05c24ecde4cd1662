// ripgrep's type names (-t/--type) for the languages simgrep is used on, as the extensions each means:
// one table for the CLI, the library, the MCP tools and the actions.
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
 * The extensions a search keeps: `extensions` plus those of every named type (their union, as
 * ripgrep's repeated -t), or undefined when neither narrows. An unknown type is refused with the list.
 */
export function extensionsWithTypes(extensions: string[] | undefined, types: string[] | undefined): string[] | undefined {
  if (!types || types.length === 0) return extensions;
  const out = new Set(extensions ?? []);
  for (const t of types) {
    const exts = FILE_TYPES[t.trim().toLowerCase()];
    if (!exts) throw new SimgrepError('BAD_FLAG', `unknown file type "${t}"; known types: ${Object.keys(FILE_TYPES).join(', ')}`);
    for (const e of exts) out.add(e);
  }
  return [...out];
}
