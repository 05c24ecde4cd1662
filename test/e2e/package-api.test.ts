// The package as users import it: `import { createSearcher } from 'simgrep'` resolves through
// package.json "exports" to the built dist/ and searches a string and a file.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/shared.js';

describe("import from 'simgrep'", () => {
  it('exposes createSearcher, which finds the line that means the query', () => {
    const script = `
      import { createSearcher, SimgrepError } from 'simgrep';
      const s = createSearcher({ concurrency: 0 });
      const r = await s.searchContent({ query: 'retry failed upload', content: 'parse the config\\nretry the failed upload\\nrender a button', topK: 1, nLines: 0 });
      await s.close();
      console.log(JSON.stringify({ results: r.results.map((x) => [x.filename, x.match_line, x.lines]), isClass: typeof SimgrepError }));
    `;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: repoRoot, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ results: [['<content>', 1, ['retry the failed upload']]], isClass: 'function' });
  });
});
