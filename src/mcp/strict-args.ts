// A tool's input schema that refuses an argument it does not know (a search over the whole root for a
// `path` it ignored was worse: trial34) and says in the refusal what the tool calls it: an agent that wrote
// `path` or `limit` guessed again before (agent47). The JSON schema is unchanged (additionalProperties: false).
import { z } from 'zod';

/** The names agents write for the tools' arguments, by the argument they mean (a tool has only some of them). */
const ALIASES: Record<string, readonly string[]> = {
  query: ['q', 'text', 'search', 'term', 'prompt', 'question'],
  directory: ['path', 'dir', 'folder', 'root', 'cwd', 'paths', 'directory_path', 'dir_path'],
  file_path: ['path', 'file', 'filepath', 'filename', 'file_name', 'relative_path'],
  line: ['line_number', 'lineno', 'line_no', 'start_line'],
  top_k: ['limit', 'n', 'count', 'max_results', 'maxResults', 'num_results', 'topK', 'top_n', 'results'],
  globs: ['glob', 'include', 'exclude', 'pattern', 'patterns', 'file_pattern', 'includes', 'excludes'],
  types: ['type', 'lang', 'language', 'languages', 'file_type', 'file_types'],
  types_not: ['type_not', 'exclude_types'],
  extensions: ['ext', 'extension', 'exts'],
  n_lines: ['context', 'context_lines', 'lines'],
  max_tokens: ['budget', 'token_budget', 'tokens', 'maxTokens'],
  files_with_matches: ['files_only', 'list_files', 'only_files', 'filesWithMatches'],
  per_file: ['max_per_file', 'perFile'],
  show_preview: ['preview', 'with_code', 'show_code'],
};

/** What `key` most likely means among `known` (the tool's arguments), or null. */
export function meantBy(key: string, known: readonly string[]): string | null {
  // file_path before directory: a find_related `path` names a file.
  const order = known.includes('file_path') ? ['file_path', ...known.filter((k) => k !== 'file_path')] : known;
  for (const name of order) if (ALIASES[name]?.includes(key)) return name;
  const lower = key.toLowerCase().replace(/[-\s]/g, '_');
  return known.find((k) => k === lower) ?? null;
}

/** z.strictObject(shape) whose refusal of an unknown argument names the argument meant, or lists the tool's. */
export function strictArgs<S extends z.ZodRawShape>(shape: S) {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (iss) => {
      if (iss.code !== 'unrecognized_keys') return undefined;
      const said = iss.keys.map((k) => {
        const meant = meantBy(k, known);
        return meant === null ? JSON.stringify(k) : `${JSON.stringify(k)} (this tool calls it "${meant}")`;
      });
      return `Unrecognized key${iss.keys.length === 1 ? '' : 's'}: ${said.join(', ')}; the arguments are ${known.join(', ')}`;
    },
  });
}
