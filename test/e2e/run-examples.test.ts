// simgrep run: every example workflow under examples/ (the seeds' workflows, their inline Python run:
// blocks as the seed wrote them) runs through the built CLI (from the repo root, as docs/agents.md shows)
// and ends in the state its routing implies; what the runner refuses fails with exit 2 and a message
// that names the node and the feature; a node that fails mid-run prints the state reached.
import { existsSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { cliPath, runCli, timedRun } from '../helpers/cli.js';
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

  it('qa-gate.yaml: the seed\'s run: block decides; a CONCERNS story goes to review_concerns, a PASS story to done', async () => {
    const concerns = await run(['examples/qa-gate.yaml', '-i', '{"story_id": "1.1"}']);
    expect(concerns.code).toBe(0);
    expect(Object.keys(concerns.state!)).toEqual(['story_id', 'gate_search', 'qa_gate_status', 'concerns']);
    expect(concerns.state!.qa_gate_status).toBe('CONCERNS');
    expect(concerns.state!.gate_search.best_match.text).toMatch(/^QA gate: CONCERNS/);
    const stateFile = path.join(home.dir, 'state.json');
    writeFileSync(stateFile, '{"story_id": "1.2"}');
    const pass = await run(['examples/qa-gate.yaml', '--input', `@${stateFile}`]);
    expect(pass.code).toBe(0);
    expect(Object.keys(pass.state!)).toEqual(['story_id', 'gate_search', 'qa_gate_status', 'passed']);
    expect(pass.state!.qa_gate_status).toBe('PASS');
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

  it('similar-docs.yaml: the seed\'s report, written by its run: block from the matches', async () => {
    const r = await run(['examples/similar-docs.yaml']);
    expect(r.code).toBe(0);
    const matches = r.state!.similar_docs.matches as { file: string; line: number; score: number; text: string }[];
    expect(matches.length).toBeGreaterThan(0);
    expect(matches[0].file).toBe('examples/data/docs/retries.md');
    // The report as the seed's f-strings write it, rebuilt here from the matches the action returned.
    const report = `Found ${matches.length} similar documents:\n${matches.map((m) => `- ${m.file}:${m.line} (score: ${m.score.toFixed(2)})\n  ${m.text}\n`).join('')}`;
    expect(r.state!.similarity_report).toBe(report);
  });

  it('index-then-query.yaml: indexes paragraphs, answers, cites; a re-run skips unchanged files', async () => {
    const first = await run(['examples/index-then-query.yaml']);
    expect(first.code).toBe(0);
    expect(first.state!.index_result).toEqual({ success: true, indexed: 11, skipped: 0, errors: [], collection: 'kb', files: 4 });
    // The directory's files by absolute path, as TEA names them (os.path.abspath).
    expect(first.state!.answer_context.results[0].id).toBe(`${path.join(repoRoot, 'examples/data/docs/retries.md')}:2`);
    expect(first.state!.citation).toMatchObject({ success: true, has_matches: true });
    const second = await run(['examples/index-then-query.yaml']);
    expect(second.state!.index_result).toEqual({ success: true, indexed: 0, skipped: 4, errors: [], collection: 'kb', files: 4 });
  });
});

describe('simgrep run: what it refuses', () => {
  const cases: [string, string, RegExp][] = [
    ['lua', 'nodes:\n  - name: decide\n    language: lua\n    run: |\n      return {x = 1}\n', /node decide: inline code in lua is not supported \(no maintained pure-JavaScript Lua VM/],
    ['prolog', 'nodes:\n  - name: infer\n    run:\n      type: prolog\n      code: "x(1)."\n', /node infer: inline code in prolog is not supported \(simgrep runs inline code in Python only\)/],
    ['an outside service', 'nodes:\n  - name: a\n    uses: llm.call\n', /node a: action "llm.call" needs an outside service/],
    ['http', 'nodes:\n  - name: a\n    uses: http.get\n', /node a: action "http.get" needs an outside service/],
    ['unknown action', 'nodes:\n  - name: a\n    uses: nosuch.thing\n', /node a: unknown action "nosuch.thing"; known actions: semtools.search/],
    ['parallel edge without fan_in', 'nodes:\n  - name: a\n  - name: b\nedges:\n  - from: a\n    to: b\n    type: parallel\n', /edge a -> b: a parallel edge needs fan_in: naming a node/],
    // A lone {{ nope }} is None, as Jinja2's compile_expression gives in TEA; a member of it is an error.
    ['undefined name', 'nodes:\n  - name: a\n    uses: search.semantic_content\n    with:\n      query: "{{ nope.x }}"\n      content: x\n', /node a: template "nope.x": .*UndefinedError: an undefined value has no member "x"/],
    ['goto to nowhere', 'nodes:\n  - name: a\n    goto: b\n', /node a goes to "b", which is not a node/],
    ['not yaml', 'nodes: [', /not valid YAML/],
    ['openai embeddings', 'settings:\n  rag:\n    embedding_provider: openai\nnodes:\n  - name: a\n', /embedding_provider openai is not supported/],
  ];
  it.each(cases)('%s', async (_name, yaml, message) => {
    const file = path.join(home.dir, 'bad.yaml');
    writeFileSync(file, yaml);
    const r = await run([file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  // Regression (issue 29): with no edge that held, simgrep ended quietly with exit 0; TEA stops.
  it('no valid next node: exit 2, TEA\'s message naming the node, the state reached on stdout', async () => {
    const file = path.join(home.dir, 'stuck.yaml');
    writeFileSync(file, 'nodes:\n  - name: a\n    run: |\n      return {"x": 1}\n  - name: b\nedges:\n  - from: a\n    to: b\n    when: "state.x > 5"\n');
    const r = await runCli(['run', file, '-i', '{"topic": "t"}'], { cwd: repoRoot, env: home.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("No valid next node found from node 'a'");
    expect(JSON.parse(r.stdout)).toEqual({ topic: 't', x: 1 });
  });

  it('a run: block that raises stops the run naming the node, with the state reached', async () => {
    const file = path.join(home.dir, 'raises.yaml');
    writeFileSync(file, 'nodes:\n  - name: a\n    run: |\n      return {"x": 1}\n  - name: boom\n    run: |\n      return {"y": 1 / 0}\n');
    const r = await runCli(['run', file], { cwd: repoRoot, env: home.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/node boom: the run: block failed: ZeroDivisionError: division by zero/);
    expect(JSON.parse(r.stdout)).toEqual({ x: 1 });
  });

  it('without python3 a run: block is a clear error naming the node', async () => {
    const file = path.join(home.dir, 'nopython.yaml');
    writeFileSync(file, 'nodes:\n  - name: decide\n    run: |\n      return {"x": 1}\n');
    const r = await runCli(['run', file], { cwd: repoRoot, env: { ...home.env, SIMGREP_PYTHON: '/nonexistent/python3' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/node decide: inline run: code is Python and needs \/nonexistent\/python3 on the PATH/);
  });

  it('a run: block over --code-timeout is stopped, naming the node', async () => {
    const file = path.join(home.dir, 'slow.yaml');
    writeFileSync(file, 'nodes:\n  - name: slow\n    run: |\n      import time\n      time.sleep(60)\n      return {}\n');
    const r = await runCli(['run', file, '--code-timeout', '3'], { cwd: repoRoot, env: home.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/node slow: the run: block ran longer than 3 s and was stopped/);
  }, 60_000);

  it('a run: block calls simgrep\'s actions as TEA\'s do, through the same engine as uses: nodes', async () => {
    const file = path.join(home.dir, 'rpc.yaml');
    writeFileSync(file, [
      'nodes:',
      '  - name: first',
      '    uses: semtools.search',
      '    with: {query: "QA gate result", files: "examples/data/stories/1.1.md", n_results: 1}',
      '    output: direct',
      '  - name: from_code',
      '    run: |',
      '      r = actions["semtools.search"](state=state, query="QA gate result", files="examples/data/stories/1.1.md", n_results=1)',
      '      alias = actions["actions.semtools_search"](state=state, query="QA gate result", files="examples/data/stories/1.1.md", n_results=1)',
      '      return {"via_code": r, "same": r == state["direct"] and alias == r}',
      '',
    ].join('\n'));
    const r = await run([file]);
    expect(r.code).toBe(0);
    expect(r.state!.via_code).toEqual(r.state!.direct);
    expect(r.state!.same).toBe(true);
    expect(r.state!.direct.has_matches).toBe(true);
  });

  it('file.read / file.write stay inside the directory the run started in', async () => {
    const file = path.join(home.dir, 'files.yaml');
    writeFileSync(file, 'nodes:\n  - name: w\n    uses: file.write\n    with:\n      path: "{{ state.p }}"\n      content: hi\n    output: written\n');
    const r = await runCli(['run', file, '-i', JSON.stringify({ p: '../outside.txt' })], { cwd: home.dir, env: home.env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).written).toMatchObject({ success: false, error_type: 'permission_error' });
    expect(existsSync(path.join(home.dir, '..', 'outside.txt'))).toBe(false);
  });

  // trust47: a FIFO in the project (a cloned repository's), named by the state a run is given: file.read opened
  // it waiting for a writer, and the run hung for ever.
  it('file.read of a FIFO or a directory inside the directory: refused at once, the run goes on', async () => {
    const file = path.join(home.dir, 'read-fifo.yaml');
    writeFileSync(file, 'nodes:\n  - name: r\n    uses: file.read\n    with:\n      path: "{{ state.p }}"\n    output: got\n');
    expect(spawnSync('mkfifo', [path.join(home.dir, 'planted.txt')]).status).toBe(0);
    const r = await timedRun(process.execPath, [cliPath, 'run', file, '-i', JSON.stringify({ p: 'planted.txt' })], { cwd: home.dir, env: home.env, killMs: 20_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.ms).toBeLessThan(15_000);
    expect(JSON.parse(r.stdout).got).toEqual({ success: false, error_type: 'validation_error', error: 'file.read: planted.txt is not a regular file (a pipe, socket or device); file.read reads files' });
    const d = await runCli(['run', file, '-i', JSON.stringify({ p: '.' })], { cwd: home.dir, env: home.env });
    expect(JSON.parse(d.stdout).got).toEqual({ success: false, error_type: 'validation_error', error: 'file.read: . is a directory, not a file' });
  }, 60_000);

  // A link to nothing inside the directory: the write followed it and created its target outside.
  it('file.write refuses a dangling link (its target outside is not created) and writes a name that merely starts with ..', async () => {
    const file = path.join(home.dir, 'dangling.yaml');
    writeFileSync(file, 'nodes:\n  - name: w\n    uses: file.write\n    with:\n      path: "{{ state.p }}"\n      content: hi\n    output: written\n');
    const target = path.join(path.dirname(home.dir), `${path.basename(home.dir)}-planted.txt`);
    symlinkSync(target, path.join(home.dir, 'report.md'));
    for (const p of ['report.md', './sub/../report.md']) {
      const r = await runCli(['run', file, '-i', JSON.stringify({ p })], { cwd: home.dir, env: home.env });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).written).toEqual({ success: false, error_type: 'permission_error', error: `file.write: ${p}: ${path.join(realpathSync(home.dir), 'report.md')} is a symbolic link to nothing (a write would land wherever it points, maybe outside ${realpathSync(home.dir)}); remove the link or write to another path` });
      expect(existsSync(target)).toBe(false);
    }
    const ok = await runCli(['run', file, '-i', JSON.stringify({ p: '..notes.txt' })], { cwd: home.dir, env: home.env });
    expect(JSON.parse(ok.stdout).written).toEqual({ path: '..notes.txt', success: true });
    expect(readFileSync(path.join(home.dir, '..notes.txt'), 'utf8')).toBe('hi');
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
