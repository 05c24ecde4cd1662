// What the MCP server tells an agent: when to use which tool and how to narrow (the server's
// instructions), and each tool's routing rules with an example. Kept apart from the handlers so the
// words can be read, reviewed and tested as one text.

export const INSTRUCTIONS = `simgrep finds code by meaning, offline, inside this server's root.
- Use \`search\` first when you know WHAT the code does but not what it is called ("where are failed uploads retried"), or to find where a name is defined and used: it ranks by meaning and by words, and each match carries its code, so you rarely need a Read afterwards.
- Use \`find_related\` after a hit, to see code like it elsewhere (other implementations, duplicates, callers written alike): pass the hit's path and line.
- To find code like a snippet you hold, pass the snippet itself as \`search\`'s query: its own source usually comes first, similar code after (check the path: a block of common code may rank a file written alike above its own).
- Use your grep tool instead for an exact string or regular expression, or to list EVERY occurrence of a name: \`search\` returns the best few, not all.
Narrow with \`directory\` (a subdirectory of the root), \`globs\` (ripgrep's -g: ["src/**", "!**/*.test.ts"]), \`types\` / \`types_not\` (ripgrep's type names: ["ts"]), \`per_file: 1\` (one match per file, to survey many files), \`files_with_matches\` (which files, no code) and \`max_tokens\` (a budget: matches turn compact, the match line and its enclosing definition, before any is dropped; the answer says what was cut).
\`score\` is 0..1, higher is better, on one scale in every mode: above ~0.5 is a strong match, below ~0.15 a weak one.
Answers say \`index\`: fresh (the directory's index answered), building (the first search of a directory answers from the files, then its index builds in the background and the files are read meanwhile: same matches, no wait), or scanned (read directly).`;

export const SEARCH_DESCRIPTION = `Find code and text by meaning (hybrid: words + embeddings) in a directory inside the root; each match carries its lines.
Use it for "where/how does the code do X", to find a definition by a name you half know, or to find the source of a snippet (pass the snippet as the query). Prefer grep for exact strings, regexes, or every occurrence.
Example: {"query": "retry failed uploads with backoff", "directory": "src", "top_k": 5, "per_file": 1}`;

export const FIND_RELATED_DESCRIPTION = `Find code similar to the chunk at a file and line (the chunk itself is left out): other implementations, near-duplicates, code written alike.
Use it after search or grep to pivot from one hit to its relatives. Same narrowing and budget as search.
Example: {"file_path": "src/upload.ts", "line": 12, "top_k": 5}`;

export const INDEX_DESCRIPTION = `Build or refresh the search index of a directory (reports progress). Not needed before searching: search indexes on first use and keeps the index fresh. Use it to warm a large tree ahead of time.
Example: {"directory": "src"}`;

export const STATUS_DESCRIPTION = `Whether a directory is indexed, and the size of its index (files, chunks, lines). Read-only. You never need it before searching: search answers in every state below.
- indexed: true: searches answer from the index (index: fresh). \`gone\` counts files deleted since its last run (searches skip them; the index tool drops them).
- building: true: the index is being built in the background; indexed is false and the counts are what the build has read so far. Search anyway: answers read the files meanwhile (index: building), the same matches; do not wait or call index.
- incomplete: true: no build of the index has finished: one was cut short (its process killed), or is still running in another process (a first simgrep index); indexed is false and the counts are of the part it wrote. Search anyway: the next search rebuilds it in the background and reads the files meanwhile; call index to finish it now.
- build_failed: why the last background build failed; searches read the files meanwhile (index: scanned); call index to try again.
- notes: what status met on the way that is worth saying (a ranking snapshot it rebuilt and could not save: searches still answer, slower, until space is freed and index is called).
- indexed: false with none of these: not indexed yet; the first search builds it.
Example: {"directory": "."}`;
