// simgrep run: every example workflow under examples/ runs through the built CLI (from the repo root,
// as docs/agents.md shows) and ends in the state its routing implies; unsupported TEA features and
// unknown actions fail with exit 2 and a message that names them.
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { isolatedHome } from '../helpers/isolated-home.js';
import { repoRoot } from '../helpers/shared.js';

let home: ReturnType<typeof isolatedHome>;
beforeAll(() => { home = isolatedHome('simgrep-run-'); });
afterAll(() => home.restore());

async function run(args: string[], env: Record<string, string> = {}) {
  const r = await runCli(['run', ...args, '-J', '0'], { cwd: repoRoot, env: { ...home.env, ...env } });
  return { ...r, state: r.code === 0 ? JSON.parse(r.stdout) as Record<string, any> : null };
}

describe('simgrep run examples/', () => {
  it('semantic-grep.yaml: search.semantic then semtools.search on the best file', async () => {
    const r = await run(['examples/semantic-grep.yaml', '--state', '{"query": "retry failed uploads"}']);
    expect(r.code).toBe(0);
    expect(Object.keys(r.state!)).toEqual(['query', 'search', 'best_file_matches']);
    expect(r.state!.search.results[0].filename).toBe('examples/data/docs/uploads.md');
    expect(r.state!.best_file_matches).toMatchObject({ success: true, has_matches: true });
    expect(r.state!.best_file_matches.matches.every((m: { file: string }) => m.file === 'examples/data/docs/uploads.md')).toBe(true);
  });

  it('qa-gate.yaml routes a CONCERNS story to review_concerns and a PASS story to done', async () => {
    const concerns = await run(['examples/qa-gate.yaml', '--state', '{"story_id": "1.1"}']);
    expect(concerns.code).toBe(0);
    expect(Object.keys(concerns.state!)).toEqual(['story_id', 'gate_search', 'concerns']);
    expect(concerns.state!.gate_search.best_match.text).toMatch(/^QA gate: CONCERNS/);
    const stateFile = path.join(home.dir, 'state.json');
    writeFileSync(stateFile, '{"story_id": "1.2"}');
    const pass = await run(['examples/qa-gate.yaml', '--state-file', stateFile]);
    expect(pass.code).toBe(0);
    expect(Object.keys(pass.state!)).toEqual(['story_id', 'gate_search', 'passed']);
    expect(pass.state!.gate_search.best_match.text).toMatch(/^QA gate: PASS/);
  });

  // Regression (issue 28, item 3): story_id picked any .md file ("../../../README" read the README).
  it('qa-gate.yaml refuses a story_id that walks out of the stories (no file is read)', async () => {
    for (const storyId of ['../../../README', '1.1/../../../../README', '/etc/passwd', '']) {
      const r = await run(['examples/qa-gate.yaml', '--state', JSON.stringify({ story_id: storyId })]);
      expect(r.code, storyId).toBe(0);
      expect(r.state, storyId).toEqual({ story_id: storyId });
    }
  });

  it('similar-docs.yaml: the docs nearest to one doc, itself excluded', async () => {
    const r = await run(['examples/similar-docs.yaml']);
    expect(r.code).toBe(0);
    expect(r.state!.indexed).toEqual({ success: true, indexed: 4, skipped: 0, errors: [], collection: 'docs', files: 4 });
    const ids = r.state!.similar.results.map((x: { id: string }) => x.id);
    expect(ids).toHaveLength(3);
    expect(ids).not.toContain('examples/data/docs/retries.md:0');
    expect(ids[0]).toBe('examples/data/docs/uploads.md:0');
  });

  it('index-then-query.yaml: indexes paragraphs, answers, cites; a re-run skips unchanged files', async () => {
    const first = await run(['examples/index-then-query.yaml']);
    expect(first.code).toBe(0);
    expect(first.state!.index_result).toEqual({ success: true, indexed: 11, skipped: 0, errors: [], collection: 'kb', files: 4 });
    expect(first.state!.answer_context.results[0].id).toBe('examples/data/docs/retries.md:2');
    expect(first.state!.citation).toMatchObject({ success: true, has_matches: true });
    const second = await run(['examples/index-then-query.yaml']);
    expect(second.state!.index_result).toEqual({ success: true, indexed: 0, skipped: 4, errors: [], collection: 'kb', files: 4 });
  });
});

describe('simgrep run: what it refuses', () => {
  const cases: [string, string, RegExp][] = [
    ['inline run:', 'nodes:\n  - name: decide\n    run: |\n      return {"x": 1}\n', /node decide: inline code \(`run:`\) is Python in TEA and is not run here/],
    ['unknown action', 'nodes:\n  - name: a\n    uses: llm.call\n', /node a: unknown action "llm.call"; known actions: semtools.search/],
    ['parallel edges', 'nodes:\n  - name: a\n  - name: b\nedges:\n  - from: a\n    to: b\n    type: parallel\n    fan_in: b\n', /parallel edges are not supported/],
    ['strict undefined', 'nodes:\n  - name: a\n    uses: search.semantic_content\n    with:\n      query: "{{ state.nope }}"\n      content: x\n', /template "state.nope": the value is undefined \(strict undefined\)/],
    ['goto to nowhere', 'nodes:\n  - name: a\n    goto: b\n', /node a goes to "b", which is not a node/],
    ['not yaml', 'nodes: [', /not valid YAML/],
    ['openai embeddings', 'settings:\n  rag:\n    embedding_provider: openai\nnodes:\n  - name: a\n', /embedding_provider openai is not supported/],
  ];
  it.each(cases)('%s', async (_name, yaml, message) => {
    const file = path.join(home.dir, 'bad.yaml');
    writeFileSync(file, yaml);
    const r = await run([file]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });

  // Regression (issue 28, item 3): templates ran code ({{ range.constructor(...)() }}) and env held
  // every variable of the process.
  it('a template that reaches for Function stops the run and runs nothing', async () => {
    const marker = path.join(home.dir, 'ran');
    const js = `process.getBuiltinModule('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`;
    const file = path.join(home.dir, 'escape.yaml');
    writeFileSync(file, `nodes:\n  - name: a\n    uses: search.semantic_content\n    with:\n      query: ${JSON.stringify(`{{ range.constructor(${JSON.stringify(js)})() }}`)}\n      content: x\n`);
    const r = await run([file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/"constructor" cannot be read in a template/);
    expect(existsSync(marker)).toBe(false);
  });

  it('env shows only what the workflow declares or --env allows', async () => {
    const file = path.join(home.dir, 'env.yaml');
    const body = 'nodes:\n  - name: a\n    uses: search.semantic_content\n    with:\n      query: "{{ env | dump }}"\n      content: "{{ env.SIMGREP_TEST_TOKEN }}"\n      top_k: 1\n      n_lines: 0\n    output: r\n';
    const secret = { SIMGREP_TEST_TOKEN: 'tok-123', SIMGREP_TEST_OTHER: 'other-456' };
    writeFileSync(file, body);
    const undeclared = await run([file], secret);
    expect(undeclared.code).toBe(2);
    expect(undeclared.stderr).toMatch(/env.SIMGREP_TEST_TOKEN is not available: a workflow sees only the environment variables it declares \(top-level env: \[SIMGREP_TEST_TOKEN\]\) or that the command line allows \(simgrep run --env SIMGREP_TEST_TOKEN\)/);
    writeFileSync(file, `env: [SIMGREP_TEST_TOKEN]\n${body}`);
    const declared = await run([file], secret);
    expect(declared.code).toBe(0);
    expect(declared.state!.r).toMatchObject({ success: true, query: '{"SIMGREP_TEST_TOKEN":"tok-123"}' });
    expect(declared.state!.r.results[0].lines).toEqual(['tok-123']);
    writeFileSync(file, body);
    const allowed = await run([file, '--env', 'SIMGREP_TEST_TOKEN'], secret);
    expect(allowed.code).toBe(0);
    expect(allowed.state!.r.query).toBe('{"SIMGREP_TEST_TOKEN":"tok-123"}');
  });

  it('an endless goto loop stops with a clear error', async () => {
    const file = path.join(home.dir, 'loop.yaml');
    writeFileSync(file, 'nodes:\n  - name: a\n    goto: a\n');
    const r = await run([file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/ran 10000 steps without reaching __end__/);
  });
});
